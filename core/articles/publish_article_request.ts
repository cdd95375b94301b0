/**
 * `POST /v1/articles/{id}/publish` (spec: Articles, States (Article)): publishes now from
 * the stored title, body and cover, through the same publisher as the job. A draft takes
 * its quota unit here (`403 post_quota_exceeded`); a scheduled article publishes with the
 * unit it holds. Errors: `403 x_premium_required` and `502 x_publish_failed` (the article
 * is back in draft, the unit refunded), `504 upstream_timeout` (it stays `publishing` until
 * reconciled), `409 article_not_editable` once published.
 *
 * A retry, with the same Idempotency-Key or without one, of a publication that timed out
 * takes it over and asks the network again with the same token: it publishes once.
 */
import type { KeyContext } from "../context.ts";
import { ApiError, retryableError } from "../errors.ts";
import { NetworkRejectedError } from "../network/network_errors.ts";
import { deductPostQuota } from "../post_quota/post_quota.ts";
import { newLease, retryWhileBusy } from "../leases/lease.ts";
import { reachableArticle } from "./article_access.ts";
import { enqueueArticlePublication } from "./article_publication.ts";
import { type ArticleHolder, startPublication } from "./article_publish_queries.ts";
import { assertHasBody, quotaSubject } from "./article_rules.ts";
import type { ArticleByIdInput, publishedArticle } from "./article_schema.ts";
import { articleById, type ArticleRow } from "./articles_queries.ts";
import { ARTICLE_LEASE_SECONDS, type ArticleAttempt, type ArticlePublishDeps, publishClaimedArticle } from "./publish_article.ts";
import type { z } from "zod";

/** How long a publish waits for another call publishing the same article, and how often it looks. */
const BUSY_WAIT_MS = 20_000;
const BUSY_POLL_MS = 100;
/** Seconds a client should wait before retrying while another call publishes. */
const BUSY_RETRY_SECONDS = 5;
/** When the safety-net job of a request's publication runs: after the request's lease. */
const FALLBACK_DELAY_MS = (ARTICLE_LEASE_SECONDS + 30) * 1000;

/** Publishes an article the key can write; answers `{ id, status, post_id, url, published_at }`. */
export async function publishArticleNow(ctx: KeyContext, input: ArticleByIdInput): Promise<{ data: z.infer<typeof publishedArticle> }> {
  const { sql, clock, network } = ctx.services;
  const id = Number(input.id);
  await reachableArticle(ctx, sql, id, { accountId: input.account_id, write: true });
  const attempt = await publishArticleWith({ sql, network, clock }, id);
  if (attempt.outcome === "published") return { data: publishAnswer(attempt.row) };
  if (attempt.outcome === "failed") {
    if (attempt.error instanceof NetworkRejectedError && attempt.error.reason === "premium_required") {
      throw new ApiError("x_premium_required", `Publishing articles needs the premium tier on the connected X account; article "${id}" is back in draft`);
    }
    throw new ApiError("x_publish_failed", `${attempt.reason}; article "${id}" is back in draft`);
  }
  throw new ApiError(
    "upstream_timeout",
    `X did not answer in time and the article may have been published; article "${id}" stays "publishing" until the outcome is reconciled. Read it before retrying`,
  );
}

/**
 * Publishes article `id` now (the request path, and the demo world): starts or takes over
 * its publication, waiting a while for another call that holds it (then `409
 * idempotency_in_flight`), and answers the attempt.
 */
export async function publishArticleWith(deps: ArticlePublishDeps, id: number): Promise<ArticleAttempt> {
  const claim: ArticleHolder = { articleId: id, ...newLease(ARTICLE_LEASE_SECONDS) };
  const row = await retryWhileBusy(
    () => start(deps, claim),
    (started) => started === undefined,
    { waitMs: BUSY_WAIT_MS, pollMs: BUSY_POLL_MS },
  );
  if (!row) {
    throw retryableError("idempotency_in_flight", `Article "${id}" is being published by another call; read it or retry shortly`, BUSY_RETRY_SECONDS);
  }
  return publishClaimedArticle(deps, claim, row, { retryTransient: false });
}

/**
 * Starts (or takes over) the publication in one transaction: checks the state, takes the
 * quota unit of a draft, claims the article and queues the safety-net job. Undefined while
 * another call holds it.
 */
async function start(deps: ArticlePublishDeps, claim: ArticleHolder): Promise<ArticleRow | undefined> {
  const { sql, clock } = deps;
  const now = new Date(clock.now());
  return sql.begin(async (tx) => {
    const current = await articleById(tx, claim.articleId, { forUpdate: true });
    if (!current) throw new ApiError("not_found", `Cannot find article "${claim.articleId}"`);
    if (current.status === "published") throw new ApiError("article_not_editable", `Article "${claim.articleId}" is already published`);
    let quotaPeriodStart: Date | undefined;
    if (current.status !== "publishing") {
      assertHasBody(current);
      // "post quota spent": a draft takes its unit now; a scheduled article already holds one.
      if (!current.quota_period_start) {
        quotaPeriodStart = (await deductPostQuota(tx, current.account_id, [quotaSubject(claim.articleId)], { now, reason: "article published" })).periodStart;
      }
    }
    const started = await startPublication(tx, claim, { quotaPeriodStart, now });
    if (!started) return undefined;
    await enqueueArticlePublication(tx, { articleId: claim.articleId, version: started.publish_version }, new Date(now.getTime() + FALLBACK_DELAY_MS));
    return started;
  });
}

/** The spec's publish answer. */
function publishAnswer(row: ArticleRow): z.infer<typeof publishedArticle> {
  return { id: String(row.id), status: "published", post_id: row.x_post_id!, url: row.url!, published_at: row.published_at!.toISOString() };
}
