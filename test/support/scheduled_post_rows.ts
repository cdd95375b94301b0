/**
 * Scheduled posts written straight into the database, for suites that need a queue
 * without going through `POST /v1/scheduled-posts` (queue settings, bulk calls). A queued
 * post takes its post-quota unit through the real `deductPostQuota`, so refunds can be
 * checked against the usage and the ledger.
 */
import type { Sql } from "../../core/db/sql.ts";
import { linkAccount, userByEmail } from "../../core/accounts/users.ts";
import { deductPostQuota } from "../../core/post_quota/post_quota.ts";
import type { PostStatus } from "../../core/scheduling/scheduled_post_schema.ts";

/** What a row needs beyond its account. */
export interface PostRowOptions {
  status?: PostStatus;
  scheduledFor?: Date | string | null;
  autoRetweet?: { after_hours: number; remove_after_hours?: number } | null;
  /** For queued posts: the instant the quota unit is taken at (default: charged at `scheduledFor` minus a day); `false`: no unit. */
  chargeAt?: Date | false;
}

/** Inserts one post (default: queued) and answers its id as the API spells it. */
export async function insertPostRow(sql: Sql, accountId: string, options: PostRowOptions = {}): Promise<string> {
  const status = options.status ?? "scheduled";
  const scheduledFor = options.scheduledFor === undefined || options.scheduledFor === null ? null : new Date(options.scheduledFor);
  const [row] = await sql<{ id: number }[]>`
    insert into scheduled_posts (account_id, status, scheduled_for, parts, auto_retweet)
    values (${accountId}, ${status}, ${scheduledFor}, ${sql.json([{ text: "hi", media: [] }])},
            ${options.autoRetweet ? sql.json(options.autoRetweet) : null})
    returning id`;
  if (status === "scheduled" && options.chargeAt !== false) {
    const chargeAt = options.chargeAt ?? new Date((scheduledFor ?? new Date()).getTime() - 86_400_000);
    const charge = await deductPostQuota(sql, accountId, [`post:${row.id}`], { now: chargeAt, reason: "test" });
    await sql`update scheduled_posts set quota_period_start = ${charge.periodStart} where id = ${row.id}`;
  }
  return String(row.id);
}

/** Inserts many queued posts at `times` in one statement, without quota units. */
export async function insertQueuedRows(sql: Sql, accountId: string, times: readonly Date[]): Promise<string[]> {
  const rows = await sql<{ id: number }[]>`
    insert into scheduled_posts (account_id, status, scheduled_for, parts)
    select ${accountId}, 'scheduled', at, ${sql.json([{ text: "hi", media: [] }])}
      from unnest(${sql.array(times.map((time) => time.toISOString()))}::timestamptz[]) as at
    returning id`;
  return rows.map((row) => String(row.id));
}

/** A post as stored, or undefined once deleted. */
export async function postRow(sql: Sql, id: string) {
  const [row] = await sql<
    { status: PostStatus; scheduled_for: Date | null; auto_retweet: unknown; publish_version: number; quota_period_start: Date | null }[]
  >`
    select status, scheduled_for, auto_retweet, publish_version, quota_period_start from scheduled_posts where id = ${id}::bigint`;
  return row;
}

/** The times of the posts, as ISO strings (null for a deleted post). */
export async function timesOf(sql: Sql, ids: readonly string[]): Promise<(string | null)[]> {
  const out: (string | null)[] = [];
  for (const id of ids) out.push((await postRow(sql, id))?.scheduled_for?.toISOString() ?? null);
  return out;
}

/** A new account linked to the demo user Ada (`keys.write`), so a case starts with an empty queue. */
export async function freshLinkedAccount(sql: Sql, label: string): Promise<string> {
  const ada = await userByEmail(sql, "ada@demo.threadline.local");
  if (!ada) throw new Error("The demo world has no Ada");
  return linkAccount(sql, ada.user_id, { username: `q_${label}`.slice(0, 15), name: `Queue ${label}` });
}
