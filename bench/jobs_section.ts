/**
 * The job queue section of `npm run bench`: claim + completion throughput of no-op jobs
 * on the bench's database, batched (target: at least 5,000 jobs/s) and unbatched, one job per
 * claim, graphile-worker's measure (target: at least 5,000 jobs/s with 4 runners, each with
 * several jobs in flight as graphile-worker's 4 worker processes each run several; it quotes
 * ~15,600 jobs/s on a desktop i9).
 */
import type { Sql } from "../core/db/sql.ts";
import type { JobSettings } from "./bench_settings.ts";
import { benchJobThroughput, type JobThroughputResult } from "./jobs_throughput.ts";
import { formatColumns, round } from "./report.ts";

/** Batched and unbatched runs must each reach this many jobs per second. */
export const TARGET_JOBS_PER_SECOND = 5000;

/**
 * Runs both measurements, prints the section and returns its `BENCH_RESULT` figures.
 * `notPostgres` describes the database when it is not PostgreSQL (embedded PGlite): the
 * figures are then printed and returned, labelled as not the real target.
 */
export async function measureJobs(
  target: { sql: Sql; databaseUrl: string | undefined },
  settings: JobSettings,
  notPostgres: string | undefined,
  signal: AbortSignal,
) {
  const { sql, databaseUrl } = target;
  console.log("");
  console.log(
    databaseUrl
      ? "Job queue: claim + completion throughput of no-op jobs on the bench's database, each runner on a connection of its own"
      : "Job queue: claim + completion throughput of no-op jobs on the bench's database, runners sharing its pool",
  );
  signal.throwIfAborted();
  const batched = await run(sql, { jobs: settings.jobs, batchSize: settings.batchSize, runners: settings.runners, databaseUrl });
  signal.throwIfAborted();
  const unbatched = await run(sql, { jobs: settings.unbatchedJobs, batchSize: 1, runners: settings.runners, slots: settings.unbatchedSlots, databaseUrl });
  const batchedPass = batched.jobsPerSecond >= TARGET_JOBS_PER_SECOND;
  const unbatchedPass = unbatched.jobsPerSecond >= TARGET_JOBS_PER_SECOND;
  const pass = batchedPass && unbatchedPass;

  console.log("");
  console.log("== Job queue throughput ==");
  console.log(
    formatJobTable([
      ["batched", batched],
      ["unbatched", unbatched],
    ]),
  );
  console.log(
    "(jobs/s = jobs / seconds from the first claim to the last completion; not counted: the enqueue, and the VACUUM ANALYZE of jobs " +
      "after it, which gives each run the statistics and clean index a long-lived table has)",
  );
  console.log(
    "reference: graphile-worker reports ~15,600 jobs/s unbatched on a desktop i9 with 4 worker processes, each with several jobs at " +
      `once; the unbatched run here is ${unbatched.runners} runners with ${unbatched.slots} jobs in flight each (one job per claim, the ` +
      "success completed by the runner's next claim statement), in this process, " +
      (unbatched.connections === "shared" ? "on the bench's pool" : `each runner on ${unbatched.connections} connection(s) of its own as a job thread has`),
  );
  const label = notPostgres ? ` (NOT the real target: ${notPostgres} instead of PostgreSQL)` : "";
  console.log(`target: >= ${TARGET_JOBS_PER_SECOND} jobs/s with batching: ${batchedPass ? "PASS" : "FAIL"}${label}`);
  console.log(`target: >= ${TARGET_JOBS_PER_SECOND} jobs/s unbatched with ${unbatched.runners} runners: ${unbatchedPass ? "PASS" : "FAIL"}${label}`);

  return {
    target_jobs_per_second: TARGET_JOBS_PER_SECOND,
    pass,
    real_target: notPostgres === undefined,
    batched: jobFigures(batched),
    unbatched: jobFigures(unbatched),
  };
}

async function run(
  sql: Sql,
  options: { jobs: number; batchSize: number; runners: number; slots?: number; databaseUrl: string | undefined },
): Promise<JobThroughputResult> {
  console.log(`jobs: ${options.jobs} jobs, batch ${options.batchSize}, ${options.runners} runner(s), ${options.slots ?? 1} in flight each ...`);
  return benchJobThroughput(sql, options);
}

function formatJobTable(rows: [string, JobThroughputResult][]): string {
  const header = ["run", "jobs", "batch", "runners", "in flight", "connections", "enqueue s", "run s", "jobs/s"];
  const body = rows.map(([label, result]) => [
    label,
    String(result.jobs),
    String(result.batchSize),
    String(result.runners),
    String(result.slots),
    result.connections === "shared" ? "shared pool" : `${result.connections} each`,
    result.enqueueSeconds.toFixed(2),
    result.runSeconds.toFixed(2),
    String(result.jobsPerSecond),
  ]);
  return formatColumns(header, body);
}

function jobFigures(result: JobThroughputResult) {
  return {
    jobs: result.jobs,
    batch_size: result.batchSize,
    runners: result.runners,
    in_flight_per_runner: result.slots,
    connections_per_runner: result.connections,
    enqueue_s: round(result.enqueueSeconds, 3),
    run_s: round(result.runSeconds, 3),
    jobs_per_second: result.jobsPerSecond,
  };
}
