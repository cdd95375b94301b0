/**
 * The simulated network owns its tables (STYLE.md): they come from its own migration chain
 * (adapters/x/simulated/migrations, recorded in simulated_network_migrations), not from
 * core's. A fresh database gets them only from the adapter; a database that the old core
 * chain migrated (its 0007_network_writes and 0012_publisher created them) keeps its
 * tables and rows, and the adapter's first migration recognises them.
 */
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { copyFile, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Sql } from "../core/db/sql.ts";
import { CORE_MIGRATIONS } from "../core/db/migrate.ts";
import { migrate } from "../adapters/postgres/migrate.ts";
import { migrateSimulatedNetwork } from "../adapters/x/simulated/simulated_migrations.ts";
import { createSimulatedNetwork } from "../adapters/x/simulated/simulated_network.ts";
import { createTestDatabase, type TestDatabase } from "./support/test_database.ts";
import { manualClock } from "./support/manual_clock.ts";

const NETWORK_OBJECTS = ["network_posts", "network_deleted_posts", "network_articles", "network_dms", "network_write_seq", "network_posts_by_text"];

async function presentObjects(sql: Sql): Promise<string[]> {
  const rows = await sql<{ name: string; present: boolean }[]>`
    select name, to_regclass(name) is not null as present from unnest(${sql.array(NETWORK_OBJECTS)}::text[]) as name`;
  return rows
    .filter((row) => row.present)
    .map((row) => row.name)
    .sort();
}

/** Publishes one post through a simulated network on `sql`, with `token`. */
async function publishOne(sql: Sql, token: string): Promise<{ authorId: string; id: string }> {
  const network = createSimulatedNetwork({ sql, clock: manualClock("2026-03-02T12:00:00Z"), seed: 7 });
  const ada = await network.userByUsername("ada_builds");
  const post = await network.publishPost({ authorId: ada.id, text: `Handover check ${token}`, token });
  return { authorId: ada.id, id: post.id };
}

for (const mode of ["embedded", ...(process.env.DATABASE_URL ? ["postgres"] : [])] as ("embedded" | "postgres")[]) {
  describe(`simulated network migrations (${mode})`, { timeout: 120_000 }, () => {
    let databases: TestDatabase[] = [];
    const fresh = async () => {
      const database = await createTestDatabase(mode);
      databases.push(database);
      return (await database.open({ poolSize: 1 })).sql;
    };
    after(async () => {
      for (const database of databases) await database.drop();
      databases = [];
    });

    test("a fresh database gets the network's tables from the adapter's chain only, once", async () => {
      const sql = await fresh();
      await migrate(sql);
      assert.deepEqual(await presentObjects(sql), [], "core's chain no longer creates the simulated network's tables");
      assert.deepEqual((await migrateSimulatedNetwork(sql)).applied, ["0001_network_writes.sql"]);
      assert.deepEqual(await presentObjects(sql), [...NETWORK_OBJECTS].sort());
      assert.deepEqual((await migrateSimulatedNetwork(sql)).applied, []);
      const [recorded] = await sql<{ version: number; name: string }[]>`select version, name from simulated_network_migrations`;
      assert.deepEqual({ ...recorded }, { version: 1, name: "network_writes" });
      const published = await publishOne(sql, "fresh-1");
      assert.ok(published.id);
    });

    test("a database the old core chain migrated keeps its tables and rows and is recognised", async () => {
      // Core's migrations as they were before the handover: today's files, with 0007 and 0012
      // as they were when they created the network's tables.
      const dir = await mkdtemp(join(tmpdir(), "tl-pre-handover-"));
      try {
        for (const file of await readdir(CORE_MIGRATIONS)) await copyFile(new URL(file, CORE_MIGRATIONS), join(dir, file));
        const old = new URL("./support/pre_handover_migrations/", import.meta.url);
        for (const file of await readdir(old)) await copyFile(new URL(file, old), join(dir, file));
        const sql = await fresh();
        await migrate(sql, dir);
        assert.deepEqual(await presentObjects(sql), [...NETWORK_OBJECTS].sort(), "the old chain created the tables");
        const before = await publishOne(sql, "old-1");

        // Today's code starting on it: core's chain has nothing to apply (same versions), the
        // adapter's first migration records itself over the existing tables.
        assert.deepEqual((await migrate(sql)).applied, []);
        assert.deepEqual((await migrateSimulatedNetwork(sql)).applied, ["0001_network_writes.sql"]);
        assert.deepEqual(await presentObjects(sql), [...NETWORK_OBJECTS].sort());
        const network = createSimulatedNetwork({ sql, clock: manualClock("2026-03-02T12:05:00Z"), seed: 7 });
        const found = await network.findPublished({ authorId: before.authorId, token: "old-1" });
        assert.equal(found?.id, before.id, "the post written before the handover is still there");
        const after = await publishOne(sql, "old-2");
        assert.notEqual(after.id, before.id);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
}
