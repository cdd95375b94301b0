/**
 * A publisher process to kill, for the crash test of test/publisher.test.ts: runs the
 * `publish_scheduled_post` job the way a worker does (runJobsOnce + publishFromJob) on the
 * PostgreSQL database `--url`, through the simulated network, and SIGKILLs itself the
 * moment part `--crash-after` (0-based) has landed on the network, before the publisher
 * could record it: the worst place to die.
 *
 *   node --import tsx test/support/publisher_crash_process.ts --url URL --crash-after 2 [--lease 2]
 *
 * Prints `ready`, then `landed <index> <post id>` for each part that reached the network.
 * `--lease` is both the job's lease and the publisher's claim (seconds), so the restarted
 * runner can take over soon after the kill.
 */
import { parseArgs } from "node:util";
import { openDatabase } from "../../adapters/postgres/open_database.ts";
import { openNetwork } from "../../adapters/x/open_network.ts";
import { systemClock } from "../../core/clock.ts";
import { runJobsOnce } from "../../core/jobs/job_runner.ts";
import type { SocialNetwork } from "../../core/network/social_network.ts";
import { publishFromJob } from "../../core/scheduling/publish_post.ts";
import type { PublishJobPayload } from "../../core/scheduling/schedule_publication.ts";

const { values } = parseArgs({
  options: {
    url: { type: "string" },
    "crash-after": { type: "string" },
    lease: { type: "string", default: "2" },
  },
});
if (!values.url || values["crash-after"] === undefined) throw new Error("Usage: publisher_crash_process.ts --url URL --crash-after INDEX [--lease SECONDS]");
const crashAfter = Number(values["crash-after"]);
const leaseSeconds = Number(values.lease);

const database = await openDatabase({ databaseUrl: values.url, poolSize: 2 });
const { sql } = database;
const simulated = openNetwork({ sql, clock: systemClock });
// The real network, except that this process dies right after the part lands.
const network: SocialNetwork = {
  ...simulated,
  async publishPost(input) {
    const post = await simulated.publishPost(input);
    const index = Number(input.token?.split(":").at(-1));
    process.stdout.write(`landed ${index} ${post.id}\n`);
    if (index === crashAfter) process.kill(process.pid, "SIGKILL");
    return post;
  },
};

process.stdout.write("ready\n");
const handlers = {
  publish_scheduled_post: (payload: PublishJobPayload, job: { attempts: number; max_attempts: number }) =>
    publishFromJob({ sql, network, clock: systemClock }, payload, job, { leaseSeconds }),
};
// Until the job ran (it kills this process on the way) or there is none.
for (let round = 0; round < 200; round++) {
  const result = await runJobsOnce({ sql, handlers, runnerId: `crash-${process.pid}`, leaseSeconds, batchSize: 1 });
  if (result.claimed > 0) break;
  await new Promise((resolve) => setTimeout(resolve, 50));
}
process.stdout.write("finished without crashing\n");
await database.close();
