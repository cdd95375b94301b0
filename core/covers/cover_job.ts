/**
 * The `generate_article_cover` job as the request path enqueues it (generate_article_cover.ts
 * runs it): one job per cover generation, keyed by the generation, so a replayed enqueue
 * never makes a second job.
 */
import type { Queryable } from "../db/sql.ts";
import { enqueueJob } from "../jobs/jobs_queries.ts";

/** Credits a cover costs (supplement 3.3: "Article cover: flat 25"); the job keeps or refunds them. */
export const COVER_CREDITS = 25;

/** The job kind that generates one cover (covers_jobs.ts). */
export const COVER_JOB_KIND = "generate_article_cover";

/**
 * Attempts before a generation ends `failed` (bounded retries). Only an unreachable or
 * rate-limited model and storage or database errors are retried: a timeout or a refused
 * image is final at once, so the model is paid for at most three times per request.
 */
export const COVER_MAX_ATTEMPTS = 3;

/** The payload of a cover job. */
export interface CoverJobPayload {
  generationId: number;
}

/** Enqueues the job of generation `generationId` in the caller's transaction. */
export async function enqueueCoverJob(sql: Queryable, generationId: number): Promise<number> {
  return enqueueJob(sql, {
    kind: COVER_JOB_KIND,
    payload: { generationId } satisfies CoverJobPayload,
    uniqueKey: `cover:${generationId}`,
    maxAttempts: COVER_MAX_ATTEMPTS,
  });
}
