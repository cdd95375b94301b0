/**
 * The audience sync jobs (docs/areas.md "Audience"): `dispatch_audience_sync` runs every 5 minutes
 * and enqueues one `sync_account_audience` per account with a list due; each runs one
 * bounded sync of the account's followers, following and engagers
 * (core/audience/audience_sync.ts). A network failure pauses the list with its retry time
 * instead of failing the job, so the job runner's backoff never doubles the sync's own.
 */
import { accountsDueForAudienceSync } from "./audience_sync_queries.ts";
import { syncAccountAudience } from "./audience_sync.ts";
import { AUDIENCE_SYNC_LIMITS, type AudienceSyncDeps } from "./audience_sync_rhythm.ts";
import { enqueueJobOnce } from "../jobs/jobs_queries.ts";
import type { JobTasks } from "../jobs/job_task.ts";

/** How often due syncs are dispatched. */
export const DISPATCH_AUDIENCE_SYNC_EVERY_SECONDS = 300;

/** Accounts dispatched per run at most (the rest wait for the next run, oldest due first). */
const DISPATCH_BATCH = 500;

/** The payload of `sync_account_audience`. */
export interface SyncAccountAudiencePayload {
  accountId: string;
}

/** The `dispatch_audience_sync` job: one sync job per due account, once per account and slot. */
export async function dispatchAudienceSync(deps: Pick<AudienceSyncDeps, "sql" | "clock">): Promise<number> {
  const nowMs = deps.clock.now();
  // Slots as long as the shortest wait between runs, so a walk in progress is never queued twice at once.
  const slot = Math.floor(nowMs / 1000 / AUDIENCE_SYNC_LIMITS.continueSeconds);
  let queued = 0;
  for (const accountId of await accountsDueForAudienceSync(deps.sql, new Date(nowMs), DISPATCH_BATCH, AUDIENCE_SYNC_LIMITS.pagesPerDay)) {
    const uniqueKey = `sync_account_audience:${accountId}:${slot}`;
    if (await enqueueJobOnce(deps.sql, { kind: "sync_account_audience", payload: { accountId }, uniqueKey, maxAttempts: 5 })) queued += 1;
  }
  return queued;
}

/** The audience area's job kinds (assembled in jobs/task_list.ts). */
export const audienceJobs = {
  // Every 5 minutes: a walk in progress continues every 5, an up-to-date list is re-read hourly (audience_sync.ts).
  dispatch_audience_sync: { handler: dispatchAudienceSync, everySeconds: DISPATCH_AUDIENCE_SYNC_EVERY_SECONDS },
  sync_account_audience: {
    handler: (deps: AudienceSyncDeps, payload: SyncAccountAudiencePayload) => syncAccountAudience(deps, payload.accountId),
  },
} satisfies JobTasks;
