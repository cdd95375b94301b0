/**
 * Arms the publisher for a post that is (re)scheduled: bumps the post's publish version
 * and enqueues, in the caller's transaction, one `publish_scheduled_post` job due at the
 * post's time. A job whose version is no longer the post's does nothing, so retiming,
 * unscheduling or deleting needs no job bookkeeping.
 */
import type { Queryable } from "../db/sql.ts";
import { enqueueJob } from "../jobs/jobs_queries.ts";

/** The job kind that publishes one post (core/jobs/job_kinds.ts). */
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
  const rows = await sql<{ id: number; publish_version: number; scheduled_for: Date }[]>`
    update scheduled_posts set publish_version = publish_version + 1
     where id = any(${sql.array(postIds as number[])}::bigint[]) and status = 'scheduled'
    returning id, publish_version, scheduled_for`;
  for (const row of rows) {
    const payload: PublishJobPayload = { postId: row.id, version: row.publish_version };
    await enqueueJob(sql, { kind: PUBLISH_JOB_KIND, payload, runAt: options.runAt ?? row.scheduled_for, uniqueKey: `publish:${row.id}:${row.publish_version}`, maxAttempts: 6 });
  }
}
