/**
 * Arms the publisher for a post that is (re)scheduled: bumps the post's publish version
 * and enqueues, in the caller's transaction, one `publish_scheduled_post` job due at the
 * post's time. A job whose version is no longer the post's does nothing, so retiming,
 * unscheduling or deleting needs no job bookkeeping.
 */
import type { Queryable } from "../db/sql.ts";
import { bumpAndEnqueuePublications } from "./publish_queries.ts";

/** The job kind that publishes one post (scheduling_jobs.ts). */
export const PUBLISH_JOB_KIND = "publish_scheduled_post";

/** The payload of a publish job. */
export interface PublishJobPayload {
  postId: number;
  version: number;
}

/**
 * Bumps the versions of `postIds` and enqueues a publish job for each at its
 * `scheduled_for` (or at `options.runAt`, the fallback of a post published now).
 */
export async function schedulePublication(sql: Queryable, postIds: readonly number[], options: { runAt?: Date } = {}): Promise<void> {
  if (postIds.length === 0) return;
  await bumpAndEnqueuePublications(sql, postIds, { kind: PUBLISH_JOB_KIND, runAt: options.runAt, maxAttempts: PUBLISH_MAX_ATTEMPTS });
}

/** Attempts of a publish job before the post is marked `error` (bounded retries). */
export const PUBLISH_MAX_ATTEMPTS = 6;
