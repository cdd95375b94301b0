/**
 * GET /v1/inspiration: relevance-ranked search of the stored corpus of public posts
 * (supplement: Inspiration). Reads the database only; the corpus comes from the
 * `ingest_inspiration` job. On the simulated network an empty corpus is filled on the
 * first search, so a fresh embedded server answers at once.
 */
import type { KeyContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { NetworkError } from "../network/network_errors.ts";
import { type IngestDeps, ingestInspiration } from "./ingest_inspiration.ts";
import { corpusIsEmpty, type InspirationPostRow, searchCorpus } from "./inspiration_queries.ts";
import { type InspirationInput, LAST_PAGE } from "./inspiration_schema.ts";
import { topicMask, topicsOfMask } from "./topic_classifier.ts";

/**
 * The relevance (ts_rank_cd normalised by rank/(rank+1)) below which a match is weak and
 * left out ("weak matches dropped", supplement). Cover density falls with the distance
 * between the query's words: adjacent words score 0.09, words 5 apart 0.016, 20 apart
 * 0.005. The floor keeps posts whose words sit within about eight words of each other;
 * a one-word query always clears it.
 */
export const MIN_RANK = 0.01;

/** Searches the corpus. */
export async function searchInspiration(ctx: KeyContext, input: InspirationInput) {
  const { sql, network, clock } = ctx.services;
  const since = input.since === undefined ? undefined : new Date(input.since);
  const until = input.until === undefined ? undefined : new Date(input.until);
  if (since && until && since >= until) throw new ApiError("invalid_parameter", '"since" must be before "until"');
  if (input.min_followers !== undefined && input.max_followers !== undefined && input.min_followers > input.max_followers) {
    throw new ApiError("invalid_parameter", '"min_followers" must not be above "max_followers"');
  }
  if (network.info.kind === "simulated" && (await corpusIsEmpty(sql))) await seedQuietly({ sql, network, clock });
  const q = input.q?.trim() || undefined;
  const rows = await searchCorpus(sql, {
    q,
    sort: input.sort,
    minLikes: input.min_likes,
    minReposts: input.min_reposts,
    minReplies: input.min_replies,
    minBookmarks: input.min_bookmarks,
    minImpressions: input.min_impressions,
    minFollowers: input.min_followers,
    maxFollowers: input.max_followers,
    since,
    until,
    lang: input.lang.toLowerCase(),
    excludeMask: topicMask(input.exclude_topics ?? []),
    // Spec: "min_outlier_score number 0 to 1000 (rounded to 1 decimal)".
    minOutlierScore: input.min_outlier_score === undefined ? undefined : Math.round(input.min_outlier_score * 10) / 10,
    minRank: MIN_RANK,
    limit: input.limit,
    offset: (input.page - 1) * input.limit,
  });
  // Past page 7 nothing is served, so the last page never promises more.
  const hasMore = rows.length > input.limit && input.page < LAST_PAGE;
  return { data: rows.slice(0, input.limit).map(toInspirationPost), pagination: { page: input.page, limit: input.limit, has_more: hasMore } };
}

/**
 * Fills an empty corpus on the simulated network. The search reads the database, never the
 * network (ARCHITECTURE: sync jobs), so a network that fails here (THREADLINE_FAULTS=x)
 * leaves the answer to what is stored: an empty page, and the job fills it later.
 */
async function seedQuietly(deps: IngestDeps): Promise<void> {
  try {
    await ingestInspiration(deps);
  } catch (error) {
    // An unreachable network changes nothing stored; the periodic job retries. Anything
    // else is a fault of ours and is not hidden.
    if (!(error instanceof NetworkError)) throw error;
  }
}

function toInspirationPost(row: InspirationPostRow) {
  return {
    id: row.post_id,
    text: row.text,
    url: row.url,
    posted_at: row.posted_at.toISOString(),
    lang: row.lang,
    metrics: {
      likes: row.likes,
      replies: row.replies,
      reposts: row.reposts,
      quotes: row.quotes,
      bookmarks: row.bookmarks,
      impressions: Number(row.impressions),
    },
    author: {
      x_user_id: row.author_id,
      username: row.author_username,
      name: row.author_name,
      avatar_url: row.author_avatar_url,
      followers_count: row.author_followers === null ? null : Number(row.author_followers),
      verified: row.author_verified,
    },
    topics: topicsOfMask(row.topics),
    outlier_score: row.outlier_score === null ? null : Math.round(row.outlier_score * 100) / 100,
  };
}
