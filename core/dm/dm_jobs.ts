/**
 * The DM jobs (docs/areas.md "DM campaigns and auto DM"): `send_dms` sends one account's due messages (dm_sender.ts);
 * `dispatch_dm_sends` enqueues it, every minute, for each account with a message due
 * (dm_sending_jobs.ts); `dispatch_auto_dms` queues the people who engaged with posts carrying
 * an auto DM (auto_dm_engagers.ts). A run that stopped because the rolling day is full or the
 * network asked to wait is picked up again by the dispatcher once messages are due.
 */
import type { JobDeps } from "../jobs/job_deps.ts";
import type { JobTasks } from "../jobs/job_task.ts";
import type { JobRow } from "../jobs/jobs_queries.ts";
import { runnerHolderPrefix } from "../leases/lease.ts";
import { sendDueMessages } from "./dm_sender.ts";
import { DISPATCH_DM_SENDS_EVERY_SECONDS, dispatchDmSends, type SendDmsPayload } from "./dm_sending_jobs.ts";
import { DISPATCH_AUTO_DMS_EVERY_SECONDS, dispatchAutoDms } from "./auto_dm_engagers.ts";

/** The DM area's job kinds (assembled in jobs/task_list.ts). */
export const dmJobs = {
  send_dms: {
    // The job runner's id prefixes each message's lease holder, so graceful shutdown releases them.
    handler: (deps: Pick<JobDeps, "sql" | "network" | "clock">, payload: SendDmsPayload, job: JobRow) =>
      sendDueMessages(deps, payload.accountId, job.locked_by ? { holderPrefix: runnerHolderPrefix(job.locked_by) } : {}),
    // One job per account, each mostly waiting on the network, message after message.
    lane: { batchSize: 50, concurrency: 50 },
  },
  // Every minute: a DM placed over coming days goes out at most a minute after it is due.
  dispatch_dm_sends: {
    handler: (deps: Pick<JobDeps, "sql" | "clock">) => dispatchDmSends(deps.sql, new Date(deps.clock.now())),
    everySeconds: DISPATCH_DM_SENDS_EVERY_SECONDS,
  },
  // Every 5 minutes: people who reply to or repost a sent post with an auto DM are queued.
  dispatch_auto_dms: { handler: dispatchAutoDms, everySeconds: DISPATCH_AUTO_DMS_EVERY_SECONDS },
} satisfies JobTasks;
