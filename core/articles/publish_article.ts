/**
 * The article publisher (spec: States (Article), Articles; docs/areas.md "Articles and Workers"): publishes a claimed
 * article through the SocialNetwork port with the article's publish token, and settles
 * the outcome. The request path (`POST /v1/articles/{id}/publish`) and the job
 * (`publish_scheduled_article`) run this same code.
 *
 * - Published: `published` with the network's ids; the quota unit stays spent.
 * - Refused (premium tier, daily limits, a malformed article) or not sent (X unreachable,
 *   rate limited, a failed answer): back to `draft` with `last_error`, and exactly the
 *   deducted unit refunded ("publish fails: draft, 502 x_publish_failed"). The job retries
 *   a failure that was not a refusal, with backoff, before giving up.
 * - No answer in time: whether it published is unknown (spec: "A 504 upstream_timeout on
 *   publish is ambiguous"), so the article stays `publishing` and nothing is refunded. The
 *   outcome is reconciled, never guessed: the next attempt (a retry of the request, any
 *   publish call, or the job queued as a safety net) asks the network again with the same
 *   token, and publishing with a token the network already published answers that article
 *   instead of publishing a second one (both adapters; `adapters/x/*article_writes.ts`).
 */
import { recordArticleEvent, recordArticleEventById } from "./article_events.ts";
import type { Clock } from "../clock.ts";
import type { Sql } from "../db/sql.ts";
import type { JobRow } from "../jobs/jobs_queries.ts";
import { NetworkError, NetworkTimeoutError } from "../network/network_errors.ts";
import { isPermanentFailure } from "../network/permanent_failure.ts";
import type { SocialNetwork } from "../network/social_network.ts";
import { failHeldPublication, isFinalAttempt } from "../publishing/publication_lease.ts";
import { newLease } from "../leases/lease.ts";
import type { ArticleJobPayload } from "./article_publication.ts";
import {
  type ArticleHolder,
  articlePublishState,
  claimForJob,
  heldArticle,
  markArticlePublished,
  releaseArticle,
  returnToDraft,
} from "./article_publish_queries.ts";
import { articleById, type ArticleRow } from "./articles_queries.ts";

/** What publishing needs: the pool (never a transaction: it waits on the network), the network, the clock. */
export interface ArticlePublishDeps {
  sql: Sql;
  network: SocialNetwork;
  clock: Clock;
}

/**
 * The lease on an article: longer than one publish (an X API publish drafts, publishes and
 * reads back, each bounded by X_API_TIMEOUT_MS) and shorter than the job lease (300 s).
 */
export const ARTICLE_LEASE_SECONDS = 120;

/** What one publication attempt ended in. */
export type ArticleAttempt =
  /** Published (now, or by an earlier attempt whose answer this one reconciled). */
  | { outcome: "published"; row: ArticleRow }
  /** Back to draft, quota refunded; `error` is the network's failure. */
  | { outcome: "failed"; error: NetworkError; reason: string }
  /** Still `publishing`: no answer in time, or the earlier outcome is still unknown. */
  | { outcome: "unknown"; error: NetworkError; reason: string }
  /** Still `publishing`, released for a retry (the job's transient failures). */
  | { outcome: "retry"; error: NetworkError; reason: string };

/**
 * Publishes the article `row` that `claim` holds (status `publishing`, token set).
 * `retryTransient`: a failure other than a refusal leaves it `publishing` for the job's
 * retry instead of returning it to draft. Errors other than the network's are thrown
 * after letting go of the claim (the article stays `publishing`; the safety-net job or a
 * retry reconciles it).
 */
export async function publishClaimedArticle(
  deps: ArticlePublishDeps,
  claim: ArticleHolder,
  row: ArticleRow,
  options: { retryTransient: boolean },
): Promise<ArticleAttempt> {
  const { sql, network, clock } = deps;
  const token = row.publish_token!;
  let published: Awaited<ReturnType<typeof network.publishArticle>>;
  try {
    published = await network.publishArticle({ authorId: row.account_id, title: row.title, markdown: row.content_markdown, coverUrl: row.cover_url, token });
  } catch (error) {
    if (!(error instanceof NetworkError)) {
      await releaseArticle(sql, claim, { reason: "Publishing failed because of an internal error; it will be retried", unknown: true }).catch(() => {});
      throw error;
    }
    return settleFailure(deps, claim, row, error, options);
  }
  const facts = { xPostId: published.postId, xArticleId: published.id, url: published.url, publishedAt: new Date(published.publishedAt) };
  const now = new Date(clock.now());
  const recorded = await sql.begin(async (tx) => {
    const updated = await markArticlePublished(tx, claim.articleId, token, facts, now);
    if (updated) await recordArticleEvent(tx, "article.published", updated, now);
    return updated;
  });
  const current = recorded ?? (await articleById(sql, claim.articleId));
  if (!current) throw new Error(`Article "${claim.articleId}" was deleted while it was published as post "${facts.xPostId}"`);
  return { outcome: "published", row: current };
}

async function settleFailure(
  deps: ArticlePublishDeps,
  claim: ArticleHolder,
  row: ArticleRow,
  error: NetworkError,
  options: { retryTransient: boolean },
): Promise<ArticleAttempt> {
  const { sql, clock } = deps;
  if (error instanceof NetworkTimeoutError) {
    const reason = `X did not answer in time (${error.message}); the outcome is being reconciled`;
    await releaseArticle(sql, claim, { reason, unknown: true });
    return { outcome: "unknown", error, reason };
  }
  const refusal = isPermanentFailure(error);
  const reason = refusal ? `X refused the article: ${error.message}` : `X could not publish the article: ${error.message}`;
  // A failure that is not an answer about this token says nothing about an earlier
  // attempt that timed out: that outcome stays unknown (never guessed).
  if (!refusal && (row.publish_outcome_unknown || options.retryTransient)) {
    await releaseArticle(sql, claim, { reason, unknown: false });
    return { outcome: row.publish_outcome_unknown ? "unknown" : "retry", error, reason };
  }
  const now = new Date(clock.now());
  // Spec (States, Article): "publish fails: draft"; the unit deducted for it is refunded exactly.
  const settled = await failHeldPublication(sql, heldArticle(sql, claim), {
    markFailed: async (tx) => {
      await returnToDraft(tx, claim.articleId, { reason, now });
      await recordArticleEventById(tx, "article.publish_failed", claim.articleId, now);
    },
    quotaSubject: `article:${claim.articleId}`,
    refundReason: "article publish failed",
  });
  if (!settled) throw new Error(`Article "${claim.articleId}" was taken over while its publication failed; retrying`);
  return { outcome: "failed", error, reason };
}

/**
 * The `publish_scheduled_article` job: publishes a due scheduled article, or reconciles a
 * publication left `publishing`. Stale versions, drafts and published articles are done.
 * A failure that is not a refusal is retried with the job's backoff; on the last attempt
 * the article returns to draft (refunded), unless its outcome is unknown: then it stays
 * `publishing` and the next publish call reconciles it.
 */
export async function publishArticleFromJob(
  deps: ArticlePublishDeps,
  payload: ArticleJobPayload,
  job: Pick<JobRow, "attempts" | "max_attempts">,
  options: { holderPrefix?: string } = {},
): Promise<void> {
  const finalAttempt = isFinalAttempt(job);
  const claim: ArticleHolder = { articleId: payload.articleId, ...newLease(ARTICLE_LEASE_SECONDS, options.holderPrefix) };
  const row = await claimForJob(deps.sql, { ...claim, version: payload.version, now: new Date(deps.clock.now()) });
  if (!row) {
    const state = await articlePublishState(deps.sql, payload.articleId);
    if (!state || state.publish_version !== payload.version || state.status === "draft" || state.status === "published") return;
    if (finalAttempt) return;
    if (state.status === "scheduled") throw new Error(`Article "${payload.articleId}" is not due before ${state.scheduled_for?.toISOString()}; retrying`);
    throw new Error(`Article "${payload.articleId}" is being published by another call; retrying`);
  }
  const attempt = await publishClaimedArticle(deps, claim, row, { retryTransient: !finalAttempt });
  if ((attempt.outcome === "retry" || attempt.outcome === "unknown") && !finalAttempt) throw new Error(attempt.reason);
}
