/**
 * The scheduling area's job kinds: `publish_scheduled_post` publishes a due post (a lane of
 * its own), `post_follow_up` runs a sent post's follow-ups (auto plug, auto retweet).
 */
import type { JobDeps } from "../jobs/job_deps.ts";
import type { JobTasks } from "../jobs/job_task.ts";
import type { JobRow } from "../jobs/jobs_queries.ts";
import { runnerHolderPrefix } from "../leases/lease.ts";
import { publishFromJob } from "./publish_post.ts";
import type { PublishJobPayload } from "./schedule_publication.ts";
import { type FollowUpPayload, runFollowUp } from "./post_follow_ups.ts";

/** The scheduling area's job kinds (assembled in jobs/task_list.ts). */
export const schedulingJobs = {
  publish_scheduled_post: {
    handler: async (deps: Pick<JobDeps, "sql" | "network" | "clock" | "events" | "media">, payload: PublishJobPayload, job: JobRow) => {
      // The job runner's id prefixes the lease holder, so graceful shutdown releases its leases.
      const holderPrefix = job.locked_by ? runnerHolderPrefix(job.locked_by) : undefined;
      const result = await publishFromJob(deps, payload, job, { holderPrefix });
      if (result.outcome === "sent" && result.scheduledFor) {
        const latenessSeconds = Math.max(0, (deps.clock.now() - result.scheduledFor.getTime()) / 1000);
        deps.events?.({ event: "post_sent", jobId: job.id, latenessSeconds });
      }
    },
    // Publishing is mostly waiting on the network, and many posts fall due in the same
    // minute (the bench: 10,000 due at once, all sent within 5 s), so it gets wide batches:
    // the posts in flight together share their claim, network write and `sent` statements
    // (core/db/turn_batches.ts), and 200 at once measured faster than 100 (4.0 s vs 4.6 s).
    // The other kinds are never queued behind a burst of posts.
    lane: { batchSize: 200, concurrency: 200 },
  },
  post_follow_up: {
    handler: (deps: Pick<JobDeps, "sql" | "network" | "clock">, payload: FollowUpPayload) => runFollowUp(deps, payload),
  },
} satisfies JobTasks;
