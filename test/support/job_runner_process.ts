/**
 * A job-runner process for the multi-process tests of test/jobs.test.ts: runs
 * `runJobsOnce` against the PostgreSQL database `--url` until the queue it saw is empty.
 *
 *   node --import tsx test/support/job_runner_process.ts --url URL --runner ID --mode record|hang
 *
 * `record`: the `record` kind inserts a row keyed by job id into `job_effects` (unique), so
 * a job run twice fails loudly; prints `ready`, then `{"runner":..,"ran":N}` when done.
 * `hang`: the `hang` kind prints `started <id>` and never finishes (a runner to kill mid-run).
 */
import { parseArgs } from "node:util";
import { openDatabase } from "../../adapters/postgres/open_database.ts";
import { runJobsOnce } from "../../core/jobs/job_runner.ts";
import type { JobHandlers } from "../../core/jobs/job_runner.ts";

const { values } = parseArgs({
  options: {
    url: { type: "string" },
    runner: { type: "string" },
    mode: { type: "string" },
    lease: { type: "string", default: "30" },
    batch: { type: "string", default: "5" },
  },
});
if (!values.url || !values.runner || (values.mode !== "record" && values.mode !== "hang")) {
  throw new Error("Usage: job_runner_process.ts --url URL --runner ID --mode record|hang");
}
const runnerId = values.runner;
const database = await openDatabase({ databaseUrl: values.url, poolSize: 4 });
const { sql } = database;
let ran = 0;
const handlers: JobHandlers =
  values.mode === "record"
    ? {
        record: async (_payload, job) => {
          // A few ms of work so both processes hold batches at the same time.
          await sql`insert into job_effects (job_id, runner) select ${job.id}, ${runnerId} from pg_sleep(0.003)`;
          ran++;
        },
      }
    : {
        hang: (_payload, job) => {
          process.stdout.write(`started ${job.id}\n`);
          return new Promise<void>(() => {});
        },
      };

const kind = values.mode;
process.stdout.write("ready\n");
let seen = false;
for (;;) {
  const result = await runJobsOnce({ sql, handlers, runnerId, batchSize: Number(values.batch), leaseSeconds: Number(values.lease) });
  if (result.failed + result.retried > 0) process.stderr.write(`${runnerId}: ${result.failed + result.retried} failed attempts\n`);
  if (result.claimed > 0) {
    seen = true;
    continue;
  }
  const [{ open }] = await sql<{ open: number }[]>`select count(*)::int as open from jobs where kind = ${kind} and status in ('queued', 'running')`;
  if (seen && open === 0) break;
  await new Promise((resolve) => setTimeout(resolve, 20));
}
process.stdout.write(`${JSON.stringify({ runner: runnerId, ran })}\n`);
await database.close();
