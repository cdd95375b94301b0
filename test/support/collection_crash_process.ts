/**
 * A collection job process to kill, for the crash test of test/dataset_collections.test.ts:
 * runs the `build_dataset` job the way a worker does (runJobsOnce + the registered handler)
 * on the PostgreSQL database `--url`, through the simulated network, and SIGKILLs itself
 * when the walk asks for page `--crash-at-page` (1-based) of a post's replies, after the
 * pages before it were committed.
 *
 *   node --import tsx test/support/collection_crash_process.ts --url URL --crash-at-page 4 [--lease 2]
 *
 * Prints `ready`, then `page <n>` for each page asked for.
 */
import { parseArgs } from "node:util";
import { openDatabase } from "../../adapters/postgres/open_database.ts";
import { openNetwork } from "../../adapters/x/open_network.ts";
import { systemClock } from "../../core/clock.ts";
import { jobHandlers } from "../../jobs/task_list.ts";
import { runJobsOnce } from "../../core/jobs/job_runner.ts";
import type { SocialNetwork } from "../../core/network/social_network.ts";

const { values } = parseArgs({
  options: {
    url: { type: "string" },
    "crash-at-page": { type: "string" },
    lease: { type: "string", default: "2" },
  },
});
if (!values.url || values["crash-at-page"] === undefined) throw new Error("Usage: collection_crash_process.ts --url URL --crash-at-page N [--lease SECONDS]");
const crashAt = Number(values["crash-at-page"]);
const leaseSeconds = Number(values.lease);

const database = await openDatabase({ databaseUrl: values.url, poolSize: 2 });
const { sql } = database;
const simulated = openNetwork({ sql, clock: systemClock });
let pages = 0;
// The real network, except that this process dies when the walk asks for page `crashAt`.
const network: SocialNetwork = {
  ...simulated,
  replies(postId, options) {
    pages += 1;
    process.stdout.write(`page ${pages}\n`);
    if (pages === crashAt) process.kill(process.pid, "SIGKILL");
    return simulated.replies(postId, options);
  },
};

process.stdout.write("ready\n");
const { build_dataset } = jobHandlers({ sql, clock: systemClock, network });
for (let round = 0; round < 200; round++) {
  const result = await runJobsOnce({ sql, handlers: { build_dataset }, runnerId: `crash-${process.pid}`, leaseSeconds, batchSize: 1 });
  if (result.claimed > 0) break;
  await new Promise((resolve) => setTimeout(resolve, 50));
}
process.stdout.write("finished without crashing\n");
await database.close();
