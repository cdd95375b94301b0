/**
 * The content sync jobs (docs/areas.md "Content and analytics"): `dispatch_content_sync` runs every 5 minutes and
 * enqueues one `sync_account_content` per account whose sync is due (each account every
 * 15 minutes); each runs one bounded sync (core/content/content_sync.ts). A failed run
 * wrote nothing and is retried with the job runner's backoff.
 */
import { accountsDueForSync } from "./content_sync_queries.ts";
import { type ContentSyncDeps, CONTENT_SYNC_LIMITS, syncAccountContent } from "./content_sync.ts";
import { enqueueJobOnce } from "../jobs/jobs_queries.ts";
import type { JobTasks } from "../jobs/job_task.ts";

/** How often due syncs are dispatched. */
export const DISPATCH_CONTENT_SYNC_EVERY_SECONDS = 300;

/** Accounts dispatched per run at most (the rest wait for the next run, oldest due first). */
const DISPATCH_BATCH = 500;

/** The payload of `sync_account_content`. */
export interface SyncAccountContentPayload {
  accountId: string;
}

/** The `dispatch_content_sync` job: one sync job per due account, once per account and slot. */
export async function dispatchContentSync(deps: Pick<ContentSyncDeps, "sql" | "clock">): Promise<number> {
  const nowMs = deps.clock.now();
  const slot = Math.floor(nowMs / 1000 / CONTENT_SYNC_LIMITS.everySeconds);
  let queued = 0;
  for (const accountId of await accountsDueForSync(deps.sql, new Date(nowMs), DISPATCH_BATCH)) {
    const uniqueKey = `sync_account_content:${accountId}:${slot}`;
    if (await enqueueJobOnce(deps.sql, { kind: "sync_account_content", payload: { accountId }, uniqueKey, maxAttempts: 5 })) queued += 1;
  }
  return queued;
}

/** The content area's job kinds (assembled in jobs/task_list.ts). */
export const contentJobs = {
  // Every 5 minutes: an account's content is synced about every 15 (content_sync.ts).
  dispatch_content_sync: { handler: dispatchContentSync, everySeconds: DISPATCH_CONTENT_SYNC_EVERY_SECONDS },
  sync_account_content: {
    handler: (deps: ContentSyncDeps, payload: SyncAccountContentPayload) => syncAccountContent(deps, payload.accountId),
  },
} satisfies JobTasks;
