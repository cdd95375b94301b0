/**
 * The publisher's guarded ratio (bench/guard.ts): how much of the job queue's own throughput
 * the publisher keeps. Both are measured here, on the same database, one after the other:
 *
 * - publishing: `posts` posts of one account made due at once, published by a job runner
 *   started as `threadline serve` starts it (a job thread with its own pool and simulated
 *   network); the rate runs from the first post's `sent_at` to the last one's, so the
 *   runner's poll interval before the first claim is not counted;
 * - the bare queue: no-op jobs run to completion in the publish lane's shape (its batch size,
 *   one runner) on the bench's pool (jobs_throughput.ts), 20,000 of them so the run lasts long
 *   enough (about a second here) to be measured.
 *
 * Publishing a post is a claim, a network write and a `sent` update where a no-op job is a
 * claim alone, so the ratio stays well under 1; what the guard watches is that it does not
 * fall: a publisher made slower lowers it on any machine, where a slower machine slows both.
 */
import { randomBytes } from "node:crypto";
import type { Sql } from "../core/db/sql.ts";
import { schedulePublication } from "../core/scheduling/schedule_publication.ts";
import { startJobs } from "../adapters/runtime/start_jobs.ts";
import { jobLanes } from "../jobs/task_list.ts";
import { benchJobThroughput } from "./jobs_throughput.ts";
import { seedSectionUser } from "./seed.ts";

/** No-op jobs of the bare queue's run. */
const NOOP_JOBS = 20_000;

/** One round's figures. */
export interface PublisherRound {
  postsPerSecond: number;
  noopJobsPerSecond: number;
  ratio: number;
}

/** A warm job runner publishing the guard's rounds. */
export interface PublisherRounds {
  /** Publishes `posts` posts made due at once, then runs the no-op jobs; answers both rates. */
  round(posts: number): Promise<PublisherRound>;
  stop(): Promise<void>;
}

/**
 * Starts one job runner for every round, as `threadline serve` starts it: the rounds measure a
 * warm runner (its thread compiles and optimises the publisher in the first posts it runs).
 */
export async function startPublisherRounds(target: { sql: Sql; databaseUrl: string; keyPrefix: string }): Promise<PublisherRounds> {
  const { sql } = target;
  const lane = jobLanes.find((entry) => entry.kinds.includes("publish_scheduled_post"));
  if (!lane) throw new Error("The task list has no publish lane");
  const runner = await startJobs({ databaseUrl: target.databaseUrl, ports: { network: {} }, logger: console });
  return {
    async round(posts) {
      const user = await seedSectionUser(sql, { keyPrefix: target.keyPrefix, label: "guard-publisher" });
      const tag = randomBytes(3).toString("hex");
      // Distinct texts: the network refuses one author's identical text twice a day.
      await sql.begin(async (tx) => {
        const rows = await tx<{ id: number }[]>`
          insert into scheduled_posts (account_id, status, scheduled_for, parts)
          select ${user.ownerId}, 'scheduled', now(), jsonb_build_array(jsonb_build_object('text', 'Guard post ' || i || ' (' || ${tag}::text || ')', 'media', '[]'::jsonb))
            from generate_series(1, ${posts}) as i
          returning id`;
        await schedulePublication(
          tx,
          rows.map((row) => row.id),
        );
      });
      const deadline = Date.now() + 120_000;
      // Asks whether any post still waits (the partial index of scheduled posts), never counts them all.
      for (;;) {
        const waiting = await sql`
          select 1 from scheduled_posts where status = 'scheduled' and scheduled_for is not null and account_id = ${user.ownerId} limit 1`;
        if (waiting.length === 0) break;
        if (Date.now() > deadline) throw new Error(`Posts of the guard were still waiting after 2 minutes`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const [{ failed }] = await sql<{ failed: number }[]>`
        select count(*)::int as failed from scheduled_posts where account_id = ${user.ownerId} and status = 'error'`;
      if (failed > 0) throw new Error(`${failed} of the guard's posts ended in error`);
      const [spread] = await sql<{ seconds: number }[]>`
        select extract(epoch from max(sent_at) - min(sent_at))::float8 as seconds from scheduled_posts where account_id = ${user.ownerId}`;
      const postsPerSecond = (posts - 1) / Math.max(spread.seconds, 0.001);
      const noop = await benchJobThroughput(sql, { jobs: NOOP_JOBS, batchSize: lane.batchSize, runners: 1 });
      return { postsPerSecond, noopJobsPerSecond: noop.jobsPerSecond, ratio: postsPerSecond / noop.jobsPerSecond };
    },
    async stop() {
      await runner.stop();
    },
  };
}
