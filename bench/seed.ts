/**
 * The bench's users: the main one (enterprise plan: buckets counted, never hit), with a
 * read key for the read comparison, a read-write key for the idempotency writes and 30
 * tags; and plain ones for the later sections, each with its own buckets, daily
 * allowances and credit pool (all kept per owner), so no section eats another's.
 */
import { randomBytes } from "node:crypto";
import type { Sql } from "../core/db/sql.ts";
import { createUser } from "../core/accounts/users.ts";
import { createKey } from "../core/auth/keys.ts";
import { TAG_COLORS } from "../core/tags/tag_schema.ts";

/** What the bench requests with. */
export interface BenchUser {
  /** Scope `read`: the full path of the read comparison. */
  key: string;
  /** Scopes `read,write`: `POST /v1/tags` (a mutation needs `write`). */
  writeKey: string;
  /** The main account id, which is also the tags' workspace id. */
  workspaceId: string;
  tagCount: number;
}

/** Creates the user, its two keys and `tagCount` tags. */
export async function seedBenchUser(sql: Sql, options: { keyPrefix: string; random: string; tagCount?: number }): Promise<BenchUser> {
  const tagCount = options.tagCount ?? 30;
  const { userId, mainAccountId } = await createUser(
    sql,
    { name: "Bench User", email: `bench-${options.random}@bench.threadline.local`, plan: "enterprise" },
    { username: `bench_${options.random.slice(0, 8)}`, name: "Bench User" },
  );
  const { key } = await createKey(sql, { userId, name: "bench", scopes: ["read"], prefix: options.keyPrefix });
  const { key: writeKey } = await createKey(sql, { userId, name: "bench writes", scopes: ["read", "write"], prefix: options.keyPrefix });
  const tags = Array.from({ length: tagCount }, (_, i) => ({
    workspace_id: mainAccountId,
    // Mixed case so `order by lower(name)` has real work, as user-named tags do.
    name: `${i % 2 === 0 ? "Topic" : "topic"} ${String(i + 1).padStart(2, "0")}`,
    color: TAG_COLORS[i % TAG_COLORS.length],
  }));
  await sql`insert into tags ${sql(tags, "workspace_id", "name", "color")}`;
  return { key, writeKey, workspaceId: mainAccountId, tagCount };
}

/** A user of its own, enterprise plan. */
export interface SectionUser {
  /** Scopes `read,write`. */
  key: string;
  /** The main account id: the owner its buckets, allowances and credits are counted for. */
  ownerId: string;
  /** The user's id: the owner of its events and webhooks. */
  userId: number;
}

/** Creates a user (enterprise plan) with one read-write key; `label` names it in the database. */
export async function seedSectionUser(sql: Sql, options: { keyPrefix: string; label: string }): Promise<SectionUser> {
  const random = randomBytes(4).toString("hex");
  const { userId, mainAccountId } = await createUser(
    sql,
    { name: `Bench ${options.label}`, email: `bench-${options.label}-${random}@bench.threadline.local`, plan: "enterprise" },
    { username: `bench_${random}`, name: `Bench ${options.label}` },
  );
  const { key } = await createKey(sql, { userId, name: `bench ${options.label}`, scopes: ["read", "write"], prefix: options.keyPrefix });
  return { key, ownerId: mainAccountId, userId };
}
