/**
 * SQL of the article publisher (migrations 0013 and 0016): the claim on an article, its
 * publish token, and the outcome. The claim is the shared publication lease
 * (core/publishing/lease_queries.ts), so a request and the job, or two processes, never
 * publish one article at once, and a crashed holder's lease passes.
 */
import type { Queryable } from "../db/sql.ts";
import type { Lease } from "../leases/lease.ts";
import { type HeldRow, releaseLease, publicationLease } from "../publishing/lease_queries.ts";
import type { ArticleRow } from "./articles_queries.ts";

/** Who holds an article's publication, for how long. */
export interface ArticleHolder extends Lease {
  articleId: number;
}

/** The article as the shared lease sees it: held by `claim` while `publishing`. */
export function heldArticle(sql: Queryable, claim: ArticleHolder): HeldRow {
  return { table: "articles", id: claim.articleId, lease: claim, scope: sql`status = 'publishing'` };
}

/**
 * The network idempotency token of a publication: the article and a digest of what is
 * published (title, body, cover). A retry of the same content reuses the token, so a
 * publication whose answer was lost is answered by the network instead of made twice; an
 * edited article is a new publication. Computed in SQL from the locked row.
 */
function tokenOf(sql: Queryable) {
  return sql`'tla:' || id || ':' || left(encode(sha256(convert_to(title || E'\\n' || content_markdown || E'\\n' || coalesce(cover_url, ''), 'UTF8')), 'hex'), 32)`;
}

/**
 * Starts a publication of a locked article for the request path: `publishing` under the
 * caller's claim. A new publication (from draft or scheduled) gets its token and bumps the
 * version (a queued job of the scheduled time goes stale); taking over a publication in
 * flight (its lease passed) keeps both. Undefined while another holder's lease runs.
 */
export async function startPublication(sql: Queryable, claim: ArticleHolder, options: { quotaPeriodStart?: Date; now: Date }): Promise<ArticleRow | undefined> {
  const [row] = await sql<ArticleRow[]>`
    update articles
       set publish_token = case when status = 'publishing' then publish_token else ${tokenOf(sql)} end,
           publish_version = case when status = 'publishing' then publish_version else publish_version + 1 end,
           last_error = case when status = 'publishing' then last_error else null end,
           status = 'publishing',
           quota_period_start = coalesce(${options.quotaPeriodStart ?? null}::timestamptz, quota_period_start),
           ${publicationLease.take(sql, claim)},
           updated_at = ${options.now}
     where id = ${claim.articleId}
       and (status <> 'publishing' or ${publicationLease.free(sql)})
    returning *`;
  return row;
}

/**
 * Claims article `articleId` at `version` for the job: a scheduled article due by `now`,
 * or a publication in flight whose lease passed (to reconcile it). Undefined when not claimed.
 */
export async function claimForJob(sql: Queryable, claim: ArticleHolder & { version: number; now: Date }): Promise<ArticleRow | undefined> {
  // One statement: the row lock of the UPDATE serialises claimers, and each re-checks the
  // lease on the row as the winner left it (READ COMMITTED), so exactly one gets it.
  const [row] = await sql<ArticleRow[]>`
    update articles
       set publish_token = case when status = 'publishing' then publish_token else ${tokenOf(sql)} end,
           last_error = case when status = 'publishing' then last_error else null end,
           status = 'publishing',
           ${publicationLease.take(sql, claim)},
           updated_at = case when status = 'publishing' then updated_at else ${claim.now} end
     where id = ${claim.articleId} and publish_version = ${claim.version}
       and ((status = 'scheduled' and scheduled_for <= ${claim.now}) or status = 'publishing')
       and ${publicationLease.free(sql)}
    returning *`;
  return row;
}

/** Where an article stands (after a refused claim), or undefined when it is gone. */
export async function articlePublishState(
  sql: Queryable,
  articleId: number,
): Promise<(Pick<ArticleRow, "status" | "publish_version" | "scheduled_for"> & { claimed: boolean }) | undefined> {
  const [row] = await sql<(Pick<ArticleRow, "status" | "publish_version" | "scheduled_for"> & { claimed: boolean })[]>`
    select status, publish_version, scheduled_for, ${publicationLease.running(sql)} as claimed
      from articles where id = ${articleId}`;
  return row;
}

/** What the network answered for a publication. */
export interface PublishedFacts {
  xPostId: string;
  xArticleId: string;
  url: string;
  publishedAt: Date;
}

/**
 * Records the network's answer for `token`: the article is `published`. The outcome is a
 * fact, recorded whoever holds the claim; undefined when the article is no longer that
 * publication (deleted, or already recorded).
 */
export async function markArticlePublished(
  sql: Queryable,
  articleId: number,
  token: string,
  facts: PublishedFacts,
  now: Date,
): Promise<ArticleRow | undefined> {
  const [row] = await sql<ArticleRow[]>`
    update articles
       set status = 'published', x_post_id = ${facts.xPostId}, x_article_id = ${facts.xArticleId}, url = ${facts.url},
           published_at = ${facts.publishedAt}, last_error = null, publish_outcome_unknown = false,
           ${publicationLease.drop(sql)}, updated_at = ${now}
     where id = ${articleId} and publish_token = ${token} and status = 'publishing'
    returning *`;
  return row;
}

/** A publication the network refused: back to draft with the reason, the quota charge forgotten. */
export async function returnToDraft(sql: Queryable, articleId: number, failure: { reason: string; now: Date }): Promise<void> {
  await sql`
    update articles
       set status = 'draft', last_error = ${failure.reason}, scheduled_for = null, quota_period_start = null,
           publish_outcome_unknown = false, ${publicationLease.drop(sql)},
           updated_at = ${failure.now}
     where id = ${articleId}`;
}

/**
 * Lets go of the claim and leaves the article `publishing` with `reason` (`unknown`: the
 * network did not answer, so whether it published is not known until it answers for the
 * token). False when the holder no longer held it.
 */
export async function releaseArticle(sql: Queryable, claim: ArticleHolder, outcome: { reason: string; unknown: boolean }): Promise<boolean> {
  const also = sql`last_error = ${outcome.reason}, publish_outcome_unknown = publish_outcome_unknown or ${outcome.unknown}`;
  return releaseLease(sql, heldArticle(sql, claim), also);
}
