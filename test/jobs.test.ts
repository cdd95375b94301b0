import { test, describe, before, after, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Bree from "bree";
import { systemClock } from "../core/clock.ts";
import { migrate } from "../adapters/postgres/migrate.ts";
import type { Sql } from "../core/db/sql.ts";
import { claimJobs, completeJobs, enqueueJob, failJob, sweepStaleJobs, type JobRow } from "../core/jobs/jobs_queries.ts";
import { runJobsOnce } from "../core/jobs/job_runner.ts";
import { enqueuePeriodicJobs } from "../core/jobs/enqueue_periodic_jobs.ts";
import { purgeIdempotencyKeys } from "../core/idempotency/idempotency_jobs.ts";
import { resetCreditPools } from "../core/credits/credits_jobs.ts";
import { jobHandlers } from "../jobs/task_list.ts";
import { startJobs } from "../adapters/runtime/start_jobs.ts";
import { openNetwork } from "../adapters/x/open_network.ts";
import { migrateSimulatedNetwork } from "../adapters/x/simulated/simulated_migrations.ts";
import type { Database } from "../adapters/postgres/open_database.ts";
import { createTestDatabase, type TestDatabase } from "./support/test_database.ts";
import { childEnv, pollUntil, startNode, type RunningNode } from "./support/child_node.ts";

const modes = [
  { mode: "embedded", skip: false },
  { mode: "postgres", skip: process.env.DATABASE_URL ? false : "DATABASE_URL not set: the PostgreSQL cases need a real server" },
] as const;

const RUNNER_SCRIPT = "test/support/job_runner_process.ts";

async function jobById(sql: Sql, id: number): Promise<JobRow> {
  const [row] = await sql<JobRow[]>`select * from jobs where id = ${id}`;
  assert.ok(row, `job ${id} exists`);
  return row;
}

/** Seconds from the database's now() to the job's run_at. */
async function secondsUntilDue(sql: Sql, id: number): Promise<number> {
  const [row] = await sql<{ delay: number }[]>`select extract(epoch from run_at - now())::float8 as delay from jobs where id = ${id}`;
  return row.delay;
}

for (const { mode, skip } of modes) {
  describe(`jobs on ${mode}`, { skip, timeout: 180_000 }, () => {
    let testDb: TestDatabase;
    let db: Database;
    let sql: Sql;
    before(async () => {
      testDb = await createTestDatabase(mode);
      // Embedded: one pipelined connection, as the server uses (open_runtime.ts).
      db = await testDb.open({ poolSize: mode === "embedded" ? 1 : 4 });
      sql = db.sql;
      await migrate(sql);
      // Both chains, as the composition root migrates them: the periodic
      // `ingest_inspiration` job reads the simulated network, which keeps its writes here.
      await migrateSimulatedNetwork(sql);
      await sql`create table job_effects (job_id bigint primary key, runner text not null)`;
    });
    after(async () => {
      await testDb.drop();
    });
    beforeEach(async () => {
      await sql`truncate jobs, job_effects`;
    });

    test("enqueueJob() in a transaction that rolls back leaves no job", async () => {
      await assert.rejects(
        sql.begin(async (tx) => {
          await enqueueJob(tx, { kind: "test_rollback", payload: { post: 1 } });
          throw new Error("write failed");
        }),
        /write failed/,
      );
      const committed = await sql.begin((tx) => enqueueJob(tx, { kind: "test_commit", payload: { post: 2 } }));
      const rows = await sql<JobRow[]>`select * from jobs`;
      assert.deepEqual(
        rows.map((row) => [row.id, row.kind, row.payload, row.status, row.attempts, row.max_attempts]),
        [[committed, "test_commit", { post: 2 }, "queued", 0, 8]],
      );
    });

    test("enqueueJob() with a unique key returns the unfinished job's id, and enqueues anew once it finished", async () => {
      const first = await enqueueJob(sql, { kind: "test_unique", uniqueKey: "post:7", payload: { n: 1 } });
      const again = await enqueueJob(sql, { kind: "test_unique", uniqueKey: "post:7", payload: { n: 2 } });
      assert.equal(again, first);
      const other = await enqueueJob(sql, { kind: "test_unique", uniqueKey: "post:8" });
      assert.notEqual(other, first);
      // Still deduplicated while running.
      const [claimed] = await claimJobs(sql, { runnerId: "w1", kinds: ["test_unique"], limit: 1, leaseSeconds: 30 });
      assert.equal(claimed.id, first);
      assert.equal(await enqueueJob(sql, { kind: "test_unique", uniqueKey: "post:7" }), first);
      assert.equal(await completeJobs(sql, [first], { runnerId: "w1" }), 1);
      const later = await enqueueJob(sql, { kind: "test_unique", uniqueKey: "post:7", payload: { n: 3 } });
      assert.notEqual(later, first);
      const [{ count }] = await sql<{ count: number }[]>`select count(*)::int as count from jobs where unique_key = 'post:7'`;
      assert.equal(count, 2);
      assert.deepEqual((await jobById(sql, first)).payload, { n: 1 });
    });

    test("claimJobs() refuses a limit that is not a positive integer (it is written into the statement)", async () => {
      for (const limit of [0, -1, 1.5, Number.NaN]) {
        await assert.rejects(claimJobs(sql, { runnerId: "w1", kinds: ["test_limit"], limit, leaseSeconds: 30 }), /the limit is a positive integer/);
      }
    });

    test("claimJobs() never hands one job to two claimers", async () => {
      await sql`insert into jobs (kind) select 'test_claim' from generate_series(1, 120)`;
      // PostgreSQL: two pools (as two processes would have), four claimers each, all at
      // once. Embedded: PGlite runs one statement at a time, so the claims are sequential.
      const pools = mode === "postgres" ? [sql, (await testDb.open({ poolSize: 4 })).sql] : [sql];
      const claimers = pools.flatMap((pool, p) =>
        Array.from({ length: mode === "postgres" ? 4 : 2 }, async (_, c) => {
          const ids: number[] = [];
          for (;;) {
            const jobs = await claimJobs(pool, { runnerId: `w${p}.${c}`, kinds: ["test_claim"], limit: 7, leaseSeconds: 30 });
            if (jobs.length === 0) return ids;
            for (const job of jobs) {
              assert.equal(job.status, "running");
              assert.equal(job.locked_by, `w${p}.${c}`);
              assert.equal(job.attempts, 1);
            }
            ids.push(...jobs.map((job) => job.id));
          }
        }),
      );
      const claimed = (await Promise.all(claimers)).flat();
      assert.equal(claimed.length, 120);
      assert.equal(new Set(claimed).size, 120, "no job was claimed twice");
      const [{ running }] = await sql<{ running: number }[]>`select count(*)::int as running from jobs where status = 'running'`;
      assert.equal(running, 120);
    });

    test("claimJobs() skips rows another transaction has locked instead of waiting", {
      skip: mode === "embedded" && "PGlite runs transactions one at a time, so a claim cannot run beside an open one",
    }, async () => {
      await sql`insert into jobs (kind) select 'test_skip' from generate_series(1, 10)`;
      const other = (await testDb.open({ poolSize: 2 })).sql;
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let lockedIds: number[] = [];
      let claimedInTx!: () => void;
      const claimedSignal = new Promise<void>((resolve) => (claimedInTx = resolve));
      const holder = other.begin(async (tx) => {
        lockedIds = (await claimJobs(tx, { runnerId: "holder", kinds: ["test_skip"], limit: 4, leaseSeconds: 30 })).map((job) => job.id);
        claimedInTx();
        await held;
      });
      await claimedSignal;
      const started = Date.now();
      const mine = await claimJobs(sql, { runnerId: "skipper", kinds: ["test_skip"], limit: 10, leaseSeconds: 30 });
      assert.ok(Date.now() - started < 2000, "the claim did not wait for the open transaction");
      release();
      await holder;
      assert.equal(lockedIds.length, 4);
      assert.equal(mine.length, 6);
      assert.deepEqual(
        mine.filter((job) => lockedIds.includes(job.id)),
        [],
      );
    });

    test("claimJobs() leaves jobs whose run_at is in the future, and takes due ones oldest first", async () => {
      const future = await enqueueJob(sql, { kind: "test_due", runAt: new Date(Date.now() + 3_600_000) });
      const newer = await enqueueJob(sql, { kind: "test_due", runAt: new Date(Date.now() - 1_000) });
      const older = await enqueueJob(sql, { kind: "test_due", runAt: new Date(Date.now() - 60_000) });
      const jobs = await claimJobs(sql, { runnerId: "w", kinds: ["test_due"], limit: 10, leaseSeconds: 30 });
      assert.deepEqual(
        jobs.map((job) => job.id),
        [older, newer],
      );
      assert.equal((await jobById(sql, future)).status, "queued");
      // A kind filter leaves other kinds alone.
      await enqueueJob(sql, { kind: "test_other" });
      assert.deepEqual(await claimJobs(sql, { runnerId: "w", kinds: ["test_due"], limit: 10, leaseSeconds: 30 }), []);
    });

    test("claimJobs() over several kinds takes the oldest due jobs of those kinds across them, up to the limit", async () => {
      const ago = (seconds: number) => new Date(Date.now() - seconds * 1000);
      // Another kind's backlog queued ahead of the lane's own jobs is neither taken nor waited on.
      await sql`insert into jobs (kind, run_at) select 'test_backlog', now() - interval '1 hour' from generate_series(1, 500)`;
      const a1 = await enqueueJob(sql, { kind: "test_lane_a", runAt: ago(50) });
      const b1 = await enqueueJob(sql, { kind: "test_lane_b", runAt: ago(40) });
      const a2 = await enqueueJob(sql, { kind: "test_lane_a", runAt: ago(30) });
      const b2 = await enqueueJob(sql, { kind: "test_lane_b", runAt: ago(20) });
      await enqueueJob(sql, { kind: "test_lane_a", runAt: new Date(Date.now() + 3_600_000) });
      const kinds = ["test_lane_a", "test_lane_b", "test_lane_empty"];
      const first = await claimJobs(sql, { runnerId: "lane", kinds, limit: 3, leaseSeconds: 30 });
      assert.deepEqual(
        first.map((job) => job.id),
        [a1, b1, a2],
      );
      const second = await claimJobs(sql, { runnerId: "lane", kinds, limit: 3, leaseSeconds: 30 });
      assert.deepEqual(
        second.map((job) => job.id),
        [b2],
      );
      assert.deepEqual(await claimJobs(sql, { runnerId: "lane", kinds, limit: 3, leaseSeconds: 30 }), []);
      const [{ queued }] = await sql<{ queued: number }[]>`select count(*)::int as queued from jobs where kind = 'test_backlog' and status = 'queued'`;
      assert.equal(queued, 500, "the other kind's jobs stay queued");
      await sql`delete from jobs where kind = 'test_backlog'`;
    });

    test("claimJobs() over several kinds never hands one job to two claimers", async () => {
      await sql`insert into jobs (kind) select case when i % 2 = 0 then 'test_pair_a' else 'test_pair_b' end from generate_series(1, 90) as i`;
      const pools = mode === "postgres" ? [sql, (await testDb.open({ poolSize: 3 })).sql] : [sql];
      const claimers = pools.flatMap((pool, p) =>
        Array.from({ length: mode === "postgres" ? 3 : 2 }, async (_, c) => {
          const ids: number[] = [];
          for (;;) {
            const jobs = await claimJobs(pool, { runnerId: `p${p}.${c}`, kinds: ["test_pair_a", "test_pair_b"], limit: 4, leaseSeconds: 30 });
            if (jobs.length === 0) return ids;
            assert.ok(jobs.length <= 4, "a claim takes at most its limit");
            ids.push(...jobs.map((job) => job.id));
          }
        }),
      );
      const claimed = (await Promise.all(claimers)).flat();
      assert.equal(claimed.length, 90);
      assert.equal(new Set(claimed).size, 90, "no job was claimed twice");
      const [{ queued }] = await sql<{ queued: number }[]>`select count(*)::int as queued from jobs where kind like 'test_pair_%' and status = 'queued'`;
      assert.equal(queued, 0, "rows locked past the limit went back untouched and were claimed later");
    });

    test("a job of a batch is done when it ends, not when the batch's slowest job does; fast ones share a statement", async () => {
      const slowId = await enqueueJob(sql, { kind: "test_slow" });
      const fastIds = await Promise.all(Array.from({ length: 5 }, () => enqueueJob(sql, { kind: "test_fast" })));
      let release!: () => void;
      const slowMayEnd = new Promise<void>((resolve) => {
        release = resolve;
      });
      const statements: string[] = [];
      const counted = Object.assign((...args: Parameters<Sql>) => {
        const text = Array.isArray(args[0]) ? (args[0] as readonly string[]).join("?") : "";
        if (/set status = 'done'/.test(text)) statements.push(text);
        return (sql as any)(...args);
      }, sql) as Sql;
      const pass = runJobsOnce({
        sql: counted,
        runnerId: "w",
        handlers: { test_slow: () => slowMayEnd, test_fast: async () => {} },
      });
      try {
        const done = await pollUntil(
          "the fast jobs to be done while the slow one runs",
          async () => {
            const rows = await sql<JobRow[]>`select * from jobs where id = any(${fastIds}) and status = 'done'`;
            return rows.length === fastIds.length ? rows : undefined;
          },
          { timeoutMs: 10_000, intervalMs: 20 },
        );
        assert.equal(done.length, 5);
        assert.equal((await jobById(sql, slowId)).status, "running");
      } finally {
        release();
      }
      assert.deepEqual(await pass, { claimed: 6, completed: 6, retried: 0, failed: 0 });
      assert.equal((await jobById(sql, slowId)).status, "done");
      assert.equal(statements.length, 2, "the five fast jobs in one statement, the slow one in another");
    });

    test("a failing handler's job returns to the queue with backoff and ends failed after max_attempts", async () => {
      const id = await enqueueJob(sql, { kind: "test_fail", maxAttempts: 3 });
      const failures: string[] = [];
      const options = {
        sql,
        runnerId: "w",
        handlers: {
          test_fail: async () => {
            throw new Error("upstream down");
          },
        },
        onFailure: (job: JobRow, error: unknown) => failures.push(`${job.id}:${(error as Error).message}`),
      };
      assert.deepEqual(await runJobsOnce(options), { claimed: 1, completed: 0, retried: 1, failed: 0 });
      let job = await jobById(sql, id);
      assert.equal(job.status, "queued");
      assert.equal(job.attempts, 1);
      assert.match(job.last_error ?? "", /upstream down/);
      assert.equal(job.locked_by, null);
      // min(2^1 s, 1 h) with equal jitter: due in 1 to 2 s.
      let delay = await secondsUntilDue(sql, id);
      assert.ok(delay > 0.5 && delay <= 2, `first retry in ${delay} s`);
      assert.equal((await runJobsOnce(options)).claimed, 0, "not claimed before run_at");

      await sql`update jobs set run_at = now() where id = ${id}`;
      assert.deepEqual(await runJobsOnce(options), { claimed: 1, completed: 0, retried: 1, failed: 0 });
      delay = await secondsUntilDue(sql, id);
      assert.ok(delay > 1.5 && delay <= 4, `second retry in ${delay} s`);

      await sql`update jobs set run_at = now() where id = ${id}`;
      assert.deepEqual(await runJobsOnce(options), { claimed: 1, completed: 0, retried: 0, failed: 1 });
      job = await jobById(sql, id);
      assert.equal(job.status, "failed");
      assert.equal(job.attempts, 3);
      assert.ok(job.finished_at instanceof Date);
      assert.equal(failures.length, 3);
      await sql`update jobs set run_at = now() where id = ${id}`;
      assert.equal((await runJobsOnce(options)).claimed, 0, "a failed job is never claimed again");
    });

    test("failJob() caps the backoff at one hour and honours retryAt", async () => {
      const id = await enqueueJob(sql, { kind: "test_backoff", maxAttempts: 50 });
      await claimJobs(sql, { runnerId: "w", kinds: ["test_backoff"], limit: 1, leaseSeconds: 30 });
      await sql`update jobs set attempts = 20 where id = ${id}`;
      await failJob(sql, id, new Error("x"), { jitter: 0 });
      let delay = await secondsUntilDue(sql, id);
      assert.ok(Math.abs(delay - 1800) < 5, `lowest capped delay ${delay} s`);
      await sql`update jobs set run_at = now() where id = ${id}`;
      await claimJobs(sql, { runnerId: "w", kinds: ["test_backoff"], limit: 1, leaseSeconds: 30 });
      await failJob(sql, id, new Error("x"), { jitter: 0.9999 });
      delay = await secondsUntilDue(sql, id);
      assert.ok(delay > 3590 && delay <= 3600, `highest capped delay ${delay} s`);
      await sql`update jobs set run_at = now() where id = ${id}`;
      await claimJobs(sql, { runnerId: "w", kinds: ["test_backoff"], limit: 1, leaseSeconds: 30 });
      const retryAt = new Date(Date.now() + 90_000);
      await failJob(sql, id, "rate limited", { retryAt });
      const job = await jobById(sql, id);
      assert.equal(job.run_at.getTime(), retryAt.getTime());
      assert.equal(job.last_error, "rate limited");
      // Only the worker holding a job may record its outcome.
      await sql`update jobs set run_at = now() where id = ${id}`;
      await claimJobs(sql, { runnerId: "holder", kinds: ["test_backoff"], limit: 1, leaseSeconds: 30 });
      assert.equal(await failJob(sql, id, "late", { runnerId: "someone-else" }), undefined);
      assert.equal(await completeJobs(sql, [id], { runnerId: "someone-else" }), 0);
      assert.equal((await jobById(sql, id)).status, "running");
    });

    test("a job whose worker died mid-run is swept back after its lease and completed by another runner, exactly once", async () => {
      const id = await enqueueJob(sql, { kind: mode === "postgres" ? "hang" : "test_stale" });
      let killed: RunningNode | undefined;
      if (mode === "postgres") {
        // A real process claims the job, starts the handler, and is SIGKILLed mid-run.
        killed = startNode(["--import", "tsx", RUNNER_SCRIPT, "--url", testDb.url!, "--runner", "doomed", "--mode", "hang", "--lease", "1"], {
          env: childEnv(),
        });
        await pollUntil("the doomed worker to start the job", () => (killed!.stdout.includes(`started ${id}`) ? true : undefined), {
          timeoutMs: 30_000,
          abort: () => (killed!.child.exitCode !== null ? `it exited: ${killed!.stderr}` : undefined),
        });
        killed.child.kill("SIGKILL");
        await killed.exited;
      } else {
        // In-memory PGlite cannot be shared with another process: the runner that "dies"
        // is a claim whose completion never comes.
        await claimJobs(sql, { runnerId: "doomed", kinds: ["test_stale"], limit: 1, leaseSeconds: 1 });
      }
      const held = await jobById(sql, id);
      assert.equal(held.status, "running");
      assert.equal(held.locked_by, "doomed");
      // Not swept while the lease lasts (nor claimed by anyone).
      assert.equal((await runJobsOnce({ sql, runnerId: "rescuer", handlers: { hang: async () => {}, test_stale: async () => {} } })).claimed, 0);

      const swept = await pollUntil(
        "the lease to pass and the sweep to re-queue the job",
        async () => {
          const result = await sweepStaleJobs(sql);
          return result.requeued > 0 ? result : undefined;
        },
        { timeoutMs: 15_000, intervalMs: 100 },
      );
      assert.deepEqual(swept, { requeued: 1, failed: 0 });
      const requeued = await jobById(sql, id);
      assert.equal(requeued.status, "queued");
      assert.equal(requeued.attempts, 1, "the dead worker's attempt stays counted");
      assert.match(requeued.last_error ?? "", /Lease of job runner "doomed" expired/);

      const record = async (_payload: unknown, job: JobRow) => {
        await sql`insert into job_effects (job_id, runner) values (${job.id}, 'rescuer')`;
      };
      assert.deepEqual(await runJobsOnce({ sql, runnerId: "rescuer", handlers: { hang: record, test_stale: record } }), {
        claimed: 1,
        completed: 1,
        retried: 0,
        failed: 0,
      });
      const done = await jobById(sql, id);
      assert.equal(done.status, "done");
      assert.equal(done.attempts, 2);
      assert.deepEqual([...(await sql`select job_id, runner from job_effects`)], [{ job_id: id, runner: "rescuer" }]);
      assert.deepEqual(await sweepStaleJobs(sql), { requeued: 0, failed: 0 });
    });

    test("a handler that outlives its lease keeps the job through the heartbeat", async () => {
      const id = await enqueueJob(sql, { kind: "test_slow" });
      let finished = false;
      const run = runJobsOnce({
        sql,
        runnerId: "slow",
        leaseSeconds: 1,
        handlers: {
          // Its work takes 2.5 lease lengths.
          test_slow: () => new Promise<void>((resolve) => setTimeout(resolve, 2500)),
        },
      }).finally(() => (finished = true));
      let sweeps = 0;
      while (!finished) {
        assert.deepEqual(await sweepStaleJobs(sql), { requeued: 0, failed: 0 });
        sweeps++;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.deepEqual(await run, { claimed: 1, completed: 1, retried: 0, failed: 0 });
      assert.ok(sweeps > 10);
      const job = await jobById(sql, id);
      assert.equal(job.status, "done");
      assert.equal(job.attempts, 1);
    });

    test("a stale job that used its last attempt ends failed", async () => {
      const id = await enqueueJob(sql, { kind: "test_poison", maxAttempts: 1 });
      await claimJobs(sql, { runnerId: "doomed", kinds: ["test_poison"], limit: 1, leaseSeconds: 30 });
      await sql`update jobs set locked_until = now() - interval '1 second' where id = ${id}`;
      assert.deepEqual(await sweepStaleJobs(sql), { requeued: 0, failed: 1 });
      const job = await jobById(sql, id);
      assert.equal(job.status, "failed");
      assert.ok(job.finished_at instanceof Date);
    });

    test("two processes share 200 jobs and run each exactly once", {
      skip: mode === "embedded" && "needs PostgreSQL: in-memory PGlite lives in one process",
    }, async () => {
      const args = (runner: string) => ["--import", "tsx", RUNNER_SCRIPT, "--url", testDb.url!, "--runner", runner, "--mode", "record"];
      const children = [startNode(args("proc-a"), { env: childEnv() }), startNode(args("proc-b"), { env: childEnv() })];
      try {
        for (const child of children) {
          await pollUntil("a runner process to be ready", () => (child.stdout.includes("ready") ? true : undefined), {
            timeoutMs: 30_000,
            abort: () => (child.child.exitCode !== null ? `it exited: ${child.stderr}` : undefined),
          });
        }
        await sql`insert into jobs (kind) select 'record' from generate_series(1, 200)`;
        let timer: NodeJS.Timeout | undefined;
        const exits = await Promise.race([
          Promise.all(children.map((child) => child.exited)),
          new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("runner processes did not finish within 60 s")), 60_000))),
        ]).finally(() => clearTimeout(timer));
        for (const [i, exit] of exits.entries()) assert.equal(exit.code, 0, children[i].stderr);
        const reports = children.map((child) => JSON.parse(child.stdout.trim().split("\n").at(-1)!) as { runner: string; ran: number });
        assert.equal(reports[0].ran + reports[1].ran, 200);
        assert.ok(
          reports.every((report) => report.ran > 0),
          `both processes ran jobs: ${JSON.stringify(reports)}`,
        );
        const [summary] = await sql<{ jobs: number; done: number; once: number; effects: number; matched: number }[]>`
          select count(*)::int as jobs,
                 count(*) filter (where status = 'done')::int as done,
                 count(*) filter (where attempts = 1 and last_error is null)::int as once,
                 (select count(*)::int from job_effects) as effects,
                 (select count(*)::int from job_effects e join jobs j on j.id = e.job_id) as matched
            from jobs where kind = 'record'`;
        assert.deepEqual(summary, { jobs: 200, done: 200, once: 200, effects: 200, matched: 200 });
      } finally {
        await Promise.all(children.map((child) => child.stop("SIGKILL")));
      }
    });

    test("enqueuePeriodicJobs() enqueues each slot's run once across processes, even after it finished", async () => {
      const schedules = [{ kind: "test_hourly", everySeconds: 3600 }];
      const at = new Date("2030-05-06T07:08:09Z");
      assert.deepEqual(await enqueuePeriodicJobs(sql, schedules, at), ["test_hourly"]);
      // A second process in the same hour.
      assert.deepEqual(await enqueuePeriodicJobs(sql, schedules, new Date("2030-05-06T07:59:00Z")), []);
      const [job] = await sql<JobRow[]>`select * from jobs where kind = 'test_hourly'`;
      assert.equal(job.unique_key, "test_hourly@2030-05-06T07:00:00.000Z");
      assert.equal(job.run_at.toISOString(), "2030-05-06T07:00:00.000Z");
      await sql`update jobs set status = 'done', finished_at = now() where id = ${job.id}`;
      assert.deepEqual(await enqueuePeriodicJobs(sql, schedules, at), [], "a finished run is not repeated");
      assert.deepEqual(await enqueuePeriodicJobs(sql, schedules, new Date("2030-05-06T08:00:00Z")), ["test_hourly"]);
    });

    test("purge_idempotency_keys deletes keys past 24 hours and keeps younger ones", async () => {
      await sql`
        insert into idempotency_keys (owner_id, key, fingerprint, procedure, state, created_at)
        values ('1', 'test-old', 'f', 'p', 'done', now() - interval '25 hours'),
               ('1', 'test-fresh', 'f', 'p', 'done', now() - interval '23 hours')`;
      try {
        assert.equal(await purgeIdempotencyKeys(sql), 1);
        assert.deepEqual([...(await sql`select key from idempotency_keys where key like 'test-%'`)], [{ key: "test-fresh" }]);
      } finally {
        await sql`delete from idempotency_keys where key like 'test-%'`;
      }
    });

    test("the periodic handlers succeed on a database migrated only up to 0002_jobs", async () => {
      // Servers migrate in order, so jobs (0002) exist before idempotency_keys (0003) and
      // credit_pools (0004): the handlers must not fail in between.
      const dir = await mkdtemp(join(tmpdir(), "tl-jobs-migrations-"));
      const early = await createTestDatabase(mode);
      try {
        for (const file of ["0001_platform.sql", "0002_jobs.sql"]) await copyFile(new URL(`../core/db/migrations/${file}`, import.meta.url), join(dir, file));
        const earlySql = (await early.open({ poolSize: 1 })).sql;
        await migrate(earlySql, dir);
        const [absent] = await earlySql<{ keys: string | null; pools: string | null }[]>`
          select to_regclass('idempotency_keys')::text as keys, to_regclass('credit_pools')::text as pools`;
        assert.deepEqual(absent, { keys: null, pools: null });
        assert.equal(await purgeIdempotencyKeys(earlySql), 0);
        assert.equal(await resetCreditPools(earlySql, new Date()), 0);
        for (const kind of ["purge_idempotency_keys", "reset_credit_pools", "purge_finished_jobs"]) await enqueueJob(earlySql, { kind });
        const result = await runJobsOnce({
          sql: earlySql,
          runnerId: "early",
          handlers: jobHandlers({ sql: earlySql, clock: systemClock, network: openNetwork({ sql: earlySql, clock: systemClock }) }),
        });
        assert.deepEqual(result, { claimed: 3, completed: 3, retried: 0, failed: 0 });
      } finally {
        await early.drop();
        await rm(dir, { recursive: true, force: true });
      }
    });

    test("startJobs() runs the periodic jobs end to end", async () => {
      // An old finished job for purge_finished_jobs, a fresh one it must keep.
      const [{ id: stale }] = await sql<{ id: number }[]>`
        insert into jobs (kind, status, finished_at) values ('test_old', 'done', now() - interval '8 days') returning id`;
      const [{ id: recent }] = await sql<{ id: number }[]>`
        insert into jobs (kind, status, finished_at) values ('test_recent', 'done', now() - interval '1 day') returning id`;
      const warnings: unknown[] = [];
      const logger = { warn: (...args: unknown[]) => warnings.push(args), error: (...args: unknown[]) => warnings.push(args) };
      const runner = await startJobs(mode === "postgres" ? { databaseUrl: testDb.url, pollIntervalMs: 50, logger } : { sql, pollIntervalMs: 50, logger });
      try {
        assert.equal(runner.mode, mode === "postgres" ? "worker-thread" : "in-process");
        const kinds = ["purge_idempotency_keys", "reset_credit_pools", "purge_finished_jobs"];
        const rows = await pollUntil(
          "the periodic jobs to be done",
          async () => {
            const found = await sql<JobRow[]>`select * from jobs where kind = any(${kinds}) order by kind`;
            return found.length === 3 && found.every((row) => row.status === "done") ? found : undefined;
          },
          { timeoutMs: 30_000, abort: () => (warnings.length > 0 ? JSON.stringify(warnings) : undefined) },
        );
        assert.deepEqual(
          rows.map((row) => [row.kind, row.attempts]),
          [
            ["purge_finished_jobs", 1],
            ["purge_idempotency_keys", 1],
            ["reset_credit_pools", 1],
          ],
        );
        const left = await sql<{ id: number }[]>`select id from jobs where id in (${stale}, ${recent})`;
        assert.deepEqual([...left], [{ id: recent }]);
      } finally {
        await runner.stop();
      }
      // Stopped: a new due job stays queued.
      const id = await enqueueJob(sql, { kind: "purge_idempotency_keys" });
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal((await jobById(sql, id)).status, "queued");
      assert.deepEqual(warnings, []);
    });
  });
}

describe("bree worker threads", () => {
  const preload = new URL("../jobs/tsx_preload.mjs", import.meta.url).href;
  const workerPath = new URL("./support/typescript_worker.ts", import.meta.url).pathname;

  /** Runs the TypeScript worker once through bree and answers what it posted or why it failed. */
  async function runThroughBree(execArgv: string[]): Promise<{ messages: unknown[]; errors: string[] }> {
    const messages: unknown[] = [];
    const errors: string[] = [];
    const bree = new Bree({
      root: false,
      doRootCheck: false,
      logger: false,
      workerMessageHandler: ({ message }) => messages.push(message),
      errorHandler: (error) => errors.push(String((error as Error)?.message ?? error)),
      jobs: [{ name: "typescript_worker", path: workerPath, worker: { execArgv, workerData: { input: "hello" } } }],
    });
    const gone = new Promise<void>((resolve) => bree.once("worker deleted", () => resolve()));
    await bree.run("typescript_worker");
    await gone;
    await bree.stop();
    return { messages, errors };
  }

  test("a worker thread runs TypeScript with jobs/tsx_preload.mjs", async () => {
    const result = await runThroughBree(["--import", preload]);
    assert.deepEqual(result, { messages: [{ slot: "2025-01-02T03:00:00.000Z", input: "hello" }, "done"], errors: [] });
  });

  test("startJobs() restarts a worker thread that dies and still stops promptly", async () => {
    const errors: string[] = [];
    const logger = { warn: () => {}, error: (...args: unknown[]) => errors.push(args.map(String).join(" ")) };
    // Nothing listens on port 1: the worker's openDatabase() throws at startup.
    const runner = await startJobs({ databaseUrl: "postgres://nobody@127.0.0.1:1/none", logger });
    try {
      assert.equal(runner.mode, "worker-thread");
      // The first death and the restart one second later.
      await pollUntil("the worker to fail twice", () => (errors.filter((line) => /Cannot connect to PostgreSQL/.test(line)).length >= 2 ? true : undefined), {
        timeoutMs: 20_000,
      });
    } finally {
      const started = Date.now();
      await runner.stop();
      assert.ok(Date.now() - started < 5000, "stop() did not wait for the restart backoff");
    }
  });

  // Node 22.18+ and 24 strip types natively (process.features.typescript), so there a worker
  // loads the .ts file without the preload; the preload matters on Node 20.
  const stripsTypes = Boolean((process.features as { typescript?: string | false }).typescript);
  const skip = stripsTypes ? `Node ${process.version} loads TypeScript in worker threads natively; the preload is needed on Node 20` : false;
  test("without the preload the same worker cannot load TypeScript (why the preload exists)", { skip }, async () => {
    const result = await runThroughBree([]);
    assert.deepEqual(result.messages, []);
    assert.ok(
      result.errors.some((error) => /Unknown file extension "\.ts"/.test(error)),
      JSON.stringify(result.errors),
    );
  });
});
