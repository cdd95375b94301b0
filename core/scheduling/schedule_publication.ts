/**
 * Arms the publisher for a post that is (re)scheduled: bumps the post's publish version
 * and enqueues, in the caller's transaction, one `publish_scheduled_post` job due at the
 * post's time. A job whose version is no longer the post's does nothing, so retiming,
 * unscheduling or deleting needs no job bookkeeping.
 */
import type { Queryable } from "../db/sql.ts";

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
  // One statement however many posts (bulk retime moves up to 500): the versions are new,
  // so the unique keys never collide with a job already queued.
  await sql`
    with bumped as (
      update scheduled_posts set publish_version = publish_version + 1
       where id = any(${sql.array(postIds as number[])}::bigint[]) and status = 'scheduled'
      returning id, publish_version, scheduled_for
    )
    insert into jobs (kind, payload, run_at, max_attempts, unique_key)
    select ${PUBLISH_JOB_KIND}, jsonb_build_object('postId', id, 'version', publish_version),
           coalesce(${options.runAt ?? null}::timestamptz, scheduled_for), ${PUBLISH_MAX_ATTEMPTS},
           'publish:' || id || ':' || publish_version
      from bumped
    on conflict (unique_key) where unique_key is not null and status in ('queued', 'running') do nothing`;
}

/** Attempts of a publish job before the post is marked `error` (bounded retries). */
export const PUBLISH_MAX_ATTEMPTS = 6;
