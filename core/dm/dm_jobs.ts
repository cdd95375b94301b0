/**
 * The DM jobs (docs/areas.md "DM campaigns and auto DM"): `send_dms` sends one account's due messages
 * (core/dm/dm_sender.ts); `dispatch_dm_sends` enqueues it, every minute, for each account
 * with a message due; `dispatch_auto_dms` queues the people who engaged with posts carrying
 * an auto DM (core/dm/auto_dm_engagers.ts). A run that stopped because the rolling day is full or the network
 * asked to wait is picked up again by the dispatcher once messages are due.
 */
import type { JobDeps } from "../../jobs/task_list.ts";
import type { JobRow } from "../jobs/jobs_queries.ts";
import { workerHolderPrefix } from "../publishing/lease_queries.ts";
import { sendDueMessages } from "./dm_sender.ts";
import { dispatchDmSends, type SendDmsPayload } from "./dm_sending_jobs.ts";
import { dispatchAutoDms } from "./auto_dm_engagers.ts";

/** Runs one account's sending; the worker's id prefixes each message's lease holder. */
export async function sendDmsJob(deps: JobDeps, payload: SendDmsPayload, job: Pick<JobRow, "locked_by">): Promise<void> {
  await sendDueMessages(deps, payload.accountId, job.locked_by ? { holderPrefix: workerHolderPrefix(job.locked_by) } : {});
}

/** Enqueues `send_dms` for every account with a message due now. */
export async function dispatchDmSendsJob(deps: JobDeps): Promise<void> {
  await dispatchDmSends(deps.sql, new Date(deps.clock.now()));
}

/** Queues the people who replied to or reposted sent posts with an auto DM. */
export async function dispatchAutoDmsJob(deps: JobDeps): Promise<void> {
  await dispatchAutoDms(deps);
}
