/**
 * The PostgreSQL driver's transactions under a saturated pool. A `sql.begin` that finds every
 * connection busy is pipelined behind another query; when that fills the connection's pipeline
 * the unpatched driver (postgres 3.4.9) sent BEGIN without reserving the connection, failed the
 * transaction with UNSAFE_TRANSACTION and handed the connection back to the pool inside the
 * open transaction, where unrelated queries then ran. The patch in
 * adapters/postgres/driver_patches reserves the connection as soon as BEGIN is written.
 * `max_pipeline: 1` puts BEGIN at the pipeline's boundary every time.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import postgres from "postgres";
import { createTestDatabase, type TestDatabase } from "./support/test_database.ts";
import type { Database } from "../adapters/postgres/open_database.ts";

let database: TestDatabase;
let opened: Database;
let sql: postgres.Sql;

before(async () => {
  database = await createTestDatabase();
  opened = await database.open({ poolSize: 1 });
  const target = database.url ?? opened.socket;
  if (!target) throw new Error("The test database has neither a URL nor a socket");
  // max_pipeline is a driver option its type declarations leave out.
  const options = { max: 2, max_pipeline: 1, onnotice: () => {} } as postgres.Options<Record<string, postgres.PostgresType>>;
  sql = database.url ? postgres(database.url, options) : postgres({ ...options, path: target });
  await sql`create table driver_probe (id int primary key)`;
});
after(async () => {
  await sql?.end({ timeout: 5 });
  await database.drop();
});

test("a transaction pipelined onto busy connections commits, and the queries around it stay outside it", async () => {
  // Warm both connections so neither is connecting when the transaction is asked for.
  await Promise.all([sql`select 1`, sql`select 2`]);
  // Queries are sent on the next tick unless executed now; BEGIN is sent at once.
  const busy = [sql`select pg_sleep(0.2)`.execute(), sql`select pg_sleep(0.2)`.execute()];
  const transaction = sql.begin(async (tx) => {
    await tx`insert into driver_probe values (1)`;
    const [row] = await tx<{ inside: boolean }[]>`select pg_current_xact_id_if_assigned() is not null as inside`;
    return row.inside;
  });
  const [inside] = await Promise.all([transaction, ...busy]);
  assert.equal(inside, true, "the transaction's queries ran inside it");
  // After it: every connection of the pool is outside any transaction, and the row is committed.
  const states = await Promise.all([
    sql<{ xact: string | null }[]>`select pg_current_xact_id_if_assigned()::text as xact, pg_sleep(0.05)`,
    sql<{ xact: string | null }[]>`select pg_current_xact_id_if_assigned()::text as xact, pg_sleep(0.05)`,
  ]);
  for (const [row] of states) assert.equal(row.xact, null, "a pool query ran inside a transaction it did not open");
  const [{ count }] = await sql<{ count: number }[]>`select count(*)::int as count from driver_probe`;
  assert.equal(count, 1);
});
