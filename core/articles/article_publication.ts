/**
 * Arms the publisher for an article: one `publish_scheduled_article` job per publish
 * version, enqueued in the caller's transaction, due at the scheduled time (or, for a
 * publication the request path started, after its lease: the safety net that reconciles a
 * request that died or timed out). A job whose version is no longer the article's does
 * nothing, so rescheduling, unscheduling or deleting needs no job bookkeeping.
 */
import type { Queryable } from "../db/sql.ts";
import { enqueueJob } from "../jobs/jobs_queries.ts";

/** The job kind that publishes (or reconciles) one article (articles_jobs.ts). */
export const ARTICLE_PUBLISH_JOB_KIND = "publish_scheduled_article";

/** The payload of an article publish job. */
export interface ArticleJobPayload {
  articleId: number;
  version: number;
}

/** Attempts of an article publish job (bounded retries with the job's backoff). */
export const ARTICLE_PUBLISH_MAX_ATTEMPTS = 6;

/** Enqueues the publish job of `articleId` at `version`, due at `runAt` (once per version). */
export async function enqueueArticlePublication(sql: Queryable, payload: ArticleJobPayload, runAt: Date): Promise<void> {
  const uniqueKey = `article:${payload.articleId}:${payload.version}`;
  await enqueueJob(sql, { kind: ARTICLE_PUBLISH_JOB_KIND, payload, runAt, maxAttempts: ARTICLE_PUBLISH_MAX_ATTEMPTS, uniqueKey });
}
