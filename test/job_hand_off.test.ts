/**
 * A runner's last successes handed to its next claim (core/jobs/job_runner.ts `handOff`,
 * jobs_queries.ts `claimJobsCompleting`): completed by that claim's statement whether or not it
 * claims anything, only while this runner still holds them, and never left `running` by the
 * loop when the queue runs dry or the loop stops.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { systemClock } from "../core/clock.ts";
import { migrate } from "../adapters/postgres/migrate.ts";
import type { Sql } from "../core/db/sql.ts";
import { claimJobs, claimJobsCompleting, enqueueJob, sweepStaleJobs } from "../core/jobs/jobs_queries.ts";
import { runJobsOnce } from "../core/jobs/job_runner.ts";
import { runJobLoop } from "../core/jobs/job_loop.ts";
import { createTestDatabase, type TestDatabase } from "./support/test_database.ts";
import { pollUntil } from "./support/child_node.ts";

const modes = [
  { mode: "embedded", skip: false },
  { mode: "postgres", skip: process.env.DATABASE_URL ? false : "DATABASE_URL not set: the PostgreSQL cases need a real server" },
] as const;

for (const { mode, skip } of modes) {
  describe(`job hand-off on ${mode}`, { skip, timeout: 60_000 }, () => {
    let testDb: TestDatabase;
    let sql: Sql;
    before(async () => {
      testDb = await createTestDatabase(mode);
      sql = (await testDb.open({ poolSize: mode === "embedded" ? 1 : 4 })).sql;
      await migrate(sql);
    });
    after(() => testDb.drop());

    const statusOf = async (id: number) => (await sql<{ status: string; locked_by: string | null }[]>`select status, locked_by from jobs where id = ${id}`)[0];

    test("a handed-off success stays running until the next claim completes it, claimed job or not", async () => {
      const first = await enqueueJob(sql, { kind: "handoff_a" });
      const second = await enqueueJob(sql, { kind: "handoff_a" });
      const ran: number[] = [];
      const handlers = { handoff_a: async (_: unknown, job: { id: number }) => void ran.push(job.id) };
      const pass = await runJobsOnce({ sql, handlers, runnerId: "r1", batchSize: 1, handOff: true });
      assert.deepEqual(pass.handedOff, [first]);
      assert.equal(pass.completed, 0);
      assert.equal((await statusOf(first)).status, "running");

      const next = await runJobsOnce({ sql, handlers, runnerId: "r1", batchSize: 1, handOff: true, completing: pass.handedOff });
      assert.equal(next.completed, 1, "the claim completed the first job");
      assert.equal((await statusOf(first)).status, "done");
      assert.deepEqual(next.handedOff, [second]);

      // Nothing left to claim: the statement still completes what it carries.
      const last = await runJobsOnce({ sql, handlers, runnerId: "r1", batchSize: 1, handOff: true, completing: next.handedOff });
      assert.deepEqual([last.claimed, last.completed, last.handedOff], [0, 1, []]);
      assert.equal((await statusOf(second)).status, "done");
      assert.deepEqual(ran, [first, second]);
    });

    test("a carried id another runner holds now (its lease lapsed and it was claimed again) is left to that runner", async () => {
      const id = await enqueueJob(sql, { kind: "handoff_b" });
      await claimJobs(sql, { runnerId: "slow", kinds: ["handoff_b"], limit: 1, leaseSeconds: 1 });
      await sql`update jobs set locked_until = now() - interval '1 second' where id = ${id}`;
      await sweepStaleJobs(sql);
      await claimJobs(sql, { runnerId: "fresh", kinds: ["handoff_b"], limit: 1, leaseSeconds: 60 });
      const { jobs, completed } = await claimJobsCompleting(sql, { runnerId: "slow", kinds: ["handoff_b"], limit: 1, leaseSeconds: 60, completing: [id] });
      assert.deepEqual([jobs.length, completed], [0, 0]);
      assert.deepEqual(await statusOf(id), { status: "running", locked_by: "fresh" });
    });

    test("a runner that dies holding a handed-off success leaves it to the stale-lock sweep: run again, completed once", async () => {
      const id = await enqueueJob(sql, { kind: "handoff_d" });
      const runs: string[] = [];
      const handlers = (runner: string) => ({ handoff_d: async () => void runs.push(runner) });
      const pass = await runJobsOnce({ sql, handlers: handlers("dies"), runnerId: "dies", batchSize: 1, handOff: true, leaseSeconds: 30 });
      assert.deepEqual(pass.handedOff, [id]);
      // The runner is gone before its next claim: the job waits out its lease, then the sweep queues it again.
      await sql`update jobs set locked_until = now() - interval '1 second' where id = ${id}`;
      await sweepStaleJobs(sql);
      const rerun = await runJobsOnce({ sql, handlers: handlers("survivor"), runnerId: "survivor", batchSize: 1 });
      assert.deepEqual([rerun.claimed, rerun.completed], [1, 1]);
      assert.deepEqual(runs, ["dies", "survivor"], "at least once: the work ran again");
      assert.equal((await statusOf(id)).status, "done");
    });

    test("the loop completes its last successes before it waits on an empty queue, and before it stops", async () => {
      const ids = await Promise.all(Array.from({ length: 5 }, () => enqueueJob(sql, { kind: "handoff_c" })));
      const stop = new AbortController();
      const loop = runJobLoop({
        sql,
        handlers: { handoff_c: async () => {} },
        runnerId: "looper",
        clock: systemClock,
        signal: stop.signal,
        batchSize: 1,
        pollIntervalMs: 60_000,
      });
      // The loop now waits a minute on the empty queue: every job must be done already.
      await pollUntil(
        "every job done",
        async () => {
          const [row] = await sql<{ done: number }[]>`select count(*)::int as done from jobs where id = any(${sql.array(ids)}::bigint[]) and status = 'done'`;
          return row.done === ids.length ? true : undefined;
        },
        { timeoutMs: 10_000 },
      );
      stop.abort();
      await loop;
      const [left] = await sql<{ running: number }[]>`select count(*)::int as running from jobs where kind = 'handoff_c' and status = 'running'`;
      assert.equal(left.running, 0);
    });

    test("an idle loop wakes when its next queued job falls due, not at its next poll", async () => {
      // Queued before the loop starts, due 1.5 s from the database's now: the loop's first claim
      // finds nothing due, and its next poll is a minute away.
      const [{ id }] = await sql<{ id: number }[]>`insert into jobs (kind, run_at) values ('wake_due', now() + interval '1.5 seconds') returning id`;
      const stop = new AbortController();
      const ran: number[] = [];
      const loop = runJobLoop({
        sql,
        handlers: { wake_due: async (_: unknown, job: { id: number }) => void ran.push(job.id) },
        runnerId: "waker",
        clock: systemClock,
        signal: stop.signal,
        pollIntervalMs: 60_000,
      });
      try {
        await pollUntil("the job ran long before the minute's poll", async () => (ran.includes(id) ? true : undefined), { timeoutMs: 30_000 });
        const [row] = await sql<{ late: number }[]>`select extract(epoch from updated_at - run_at)::float8 as late from jobs where id = ${id}`;
        assert.ok(row.late >= 0, "not run before it was due");
      } finally {
        stop.abort();
        await loop;
      }
    });
  });
}
