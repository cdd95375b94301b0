/**
 * Job queue throughput: claim + complete of no-op jobs, several runners at once, batched or
 * one job per claim. Target: at least 5,000 jobs/s on real PostgreSQL (issue "Platform II",
 * scope item 4). bench/jobs_section.ts calls it; it cleans up the jobs it made.
 */
import type { Sql } from "../core/db/sql.ts";
import { runJobsOnce } from "../core/jobs/job_runner.ts";
import { openDatabase } from "../adapters/postgres/open_database.ts";

/** What to measure. */
export interface JobThroughputOptions {
  /** Jobs to enqueue and run; default 20 000. */
  jobs?: number;
  /** Jobs per claim (and per completion statement); default 200. */
  batchSize?: number;
  /** Runners claiming at once; default 4 (the pool needs at least as many connections). */
  runners?: number;
  /**
   * Jobs each runner has in flight, each its own claim loop (graphile-worker's per-process
   * concurrency); default 1. A loop hands its success to its next claim (`handOff`), as the
   * server's job loop does.
   */
  slots?: number;
  /**
   * When given, each runner claims on a connection of its own to this database, as the
   * server's job threads do (each opens its own pool: adapters/runtime/run_due_jobs.ts), its
   * slots' statements pipelined on it; else every runner shares `sql`.
   */
  databaseUrl?: string;
}

/** What was measured. */
export interface JobThroughputResult {
  jobs: number;
  batchSize: number;
  runners: number;
  slots: number;
  /** Seconds to enqueue the jobs (one `insert ... select generate_series` per 5 000). */
  enqueueSeconds: number;
  /** Seconds from the first claim until the last completion. */
  runSeconds: number;
  jobsPerSecond: number;
  /** Connections each runner claims on, or "shared" when all runners share the bench's pool. */
  connections: number | "shared";
}

/** The kind the bench enqueues; nothing else claims it. */
const KIND = "bench_noop";

/**
 * Connections of a runner's own pool. One: a runner's claims are one round trip each, and its
 * slots' statements pipeline on the connection; on the bench's 2-core machine more backends
 * only trade CPU for context switches (measured: 4 runners with 4 slots, 5,900-6,300 jobs/s on
 * one connection each, 4,800-5,000 on two each, 4,400-5,800 sharing the pool of 10).
 */
const RUNNER_CONNECTIONS = 1;

/** Rows per enqueue statement. */
const ENQUEUE_CHUNK = 5000;

/** Enqueues `jobs` no-op jobs, runs them to completion with batched runners and returns jobs/s. */
export async function benchJobThroughput(sql: Sql, options: JobThroughputOptions = {}): Promise<JobThroughputResult> {
  const jobs = options.jobs ?? 20_000;
  const batchSize = options.batchSize ?? 200;
  const runners = options.runners ?? 4;
  const slots = options.slots ?? 1;
  const enqueueStarted = performance.now();
  const [{ first }] = await sql<{ first: number }[]>`select coalesce(max(id), 0) + 1 as first from jobs`;
  for (let done = 0; done < jobs; done += ENQUEUE_CHUNK) {
    await sql`insert into jobs (kind) select ${KIND} from generate_series(1, ${Math.min(ENQUEUE_CHUNK, jobs - done)})`;
  }
  const enqueueSeconds = (performance.now() - enqueueStarted) / 1000;
  /*
   * Start from the table a long-lived database has: no dead rows from an earlier run and
   * fresh statistics. Without them the figures depend on what ran before: right after the
   * migration the planner believes jobs is empty and claims through a bitmap scan plus a
   * sort of every queued row (measured on a 2-core VM: 1.3 ms a claim with 5,000 queued,
   * against 0.03 ms through the jobs_claim index once analyzed), and the rows an earlier
   * run deleted still sit at the head of jobs_claim (an unbatched run right after the
   * batched one ran 3-4x slower).
   */
  await sql`vacuum analyze jobs`;

  const handlers = { [KIND]: async () => {} };
  const { databaseUrl } = options;
  const runnerPools = databaseUrl ? await Promise.all(Array.from({ length: runners }, () => openDatabase({ databaseUrl, poolSize: RUNNER_CONNECTIONS }))) : [];
  const started = performance.now();
  let completed = 0;
  await Promise.all(
    Array.from({ length: runners * slots }, async (_, i) => {
      const runner = Math.floor(i / slots);
      const runnerId = `bench-${runner}.${i % slots}`;
      const runnerSql = runnerPools[runner]?.sql ?? sql;
      let completing: number[] = [];
      for (;;) {
        const result = await runJobsOnce({ sql: runnerSql, handlers, runnerId, batchSize, leaseSeconds: 60, completing, handOff: true });
        completed += result.completed;
        // Nothing claimed: the statement completed what it carried, and the queue is empty.
        if (result.claimed === 0) return;
        completing = result.handedOff ?? [];
      }
    }),
  );
  const runSeconds = (performance.now() - started) / 1000;
  await Promise.all(runnerPools.map((pool) => pool.close()));
  await sql`delete from jobs where kind = ${KIND} and id >= ${first}`;
  if (completed !== jobs) throw new Error(`Bench completed ${completed} of ${jobs} jobs`);
  const connections = databaseUrl ? RUNNER_CONNECTIONS : "shared";
  return { jobs, batchSize, runners, slots, enqueueSeconds, runSeconds, jobsPerSecond: Math.round(jobs / runSeconds), connections };
}
