/**
 * Fresh planner statistics for a queue (core/db/fresh_statistics.ts): a table is analyzed once
 * more rows changed than the policy allows, counted by the writer itself or by the server,
 * never twice at once, and a table that barely changed is left alone.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, type Harness } from "./support/harness.ts";
import { keepStatisticsFresh } from "../core/db/fresh_statistics.ts";
import { analyzeTable } from "../core/db/statistics_queries.ts";

let harness: Harness;
const table = `stats_probe_${Math.floor(Math.random() * 1e9)}`;

before(async () => {
  harness = await startHarness();
  await harness.services.sql`create table ${harness.services.sql(table)} (id int, kind text)`;
});
after(async () => {
  await harness.services.sql`drop table if exists ${harness.services.sql(table)}`;
  await harness.close();
});

/** What the planner believes the table holds. */
async function plannerRows(): Promise<number> {
  const [row] = await harness.services.sql<{ rows: number }[]>`select reltuples::float8 as rows from pg_class where oid = to_regclass(${table})`;
  return row.rows;
}

/** Inserts `count` rows. */
async function insert(count: number): Promise<void> {
  const { sql } = harness.services;
  await sql`insert into ${sql(table)} select n, 'a' from generate_series(1, ${count}::int) n`;
}

test("keepStatisticsFresh() analyzes a table once the writer's own count passes the policy, and not again for a few rows", async () => {
  const { sql } = harness.services;
  await insert(10);
  assert.equal(await keepStatisticsFresh(sql, table, 10), false, "10 rows: under the floor of 1,000");
  await insert(1_500);
  assert.equal(await keepStatisticsFresh(sql, table, 1_500), true);
  assert.equal(await plannerRows(), 1_510);
  await insert(5);
  assert.equal(await keepStatisticsFresh(sql, table, 5), false);
});

test("keepStatisticsFresh() analyzes a table the server counts as changed, when another process wrote the rows", async () => {
  const { sql } = harness.services;
  // Written by "someone else": this call counts none of them itself.
  await insert(3_000);
  const deadline = Date.now() + 10_000;
  let analyzed = false;
  // The server learns a session's counts within about a second; the check reads them at most every 250 ms.
  while (!analyzed && Date.now() < deadline) {
    analyzed = await keepStatisticsFresh(sql, table, 0);
    if (!analyzed) await new Promise((resolve) => setTimeout(resolve, 300));
  }
  assert.equal(analyzed, true, "analyzed from the server's count within 10 s");
  assert.equal(await plannerRows(), 4_515);
});

test("analyzeTable() leaves the table to a session already analyzing it", {
  skip: process.env.DATABASE_URL ? false : "embedded PGlite has one session: no second one can hold the turn",
}, async () => {
  const { sql } = harness.services;
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let taken: () => void = () => {};
  const holding = new Promise<void>((resolve) => {
    taken = resolve;
  });
  const other = sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtextextended(${`analyze ${table}`}, 0))`;
    taken();
    await held;
  });
  await holding;
  assert.equal(await analyzeTable(sql, table), false);
  release();
  await other;
  assert.equal(await analyzeTable(sql, table), true);
});
