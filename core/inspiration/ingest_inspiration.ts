/**
 * Fills the inspiration corpus from the network through the SocialNetwork port: recent
 * original posts matching a broad query over the areas people write about, their authors
 * looked up in batches, each text classified (topic_classifier.ts), everything upserted in
 * batches, then the tier rates measured again. Bounded per run; idempotent (a second run
 * refreshes metrics in place). Run by the `ingest_inspiration` job, and on the simulated
 * network by the first search of an empty corpus.
 */
import type { Clock } from "../clock.ts";
import type { Sql } from "../db/sql.ts";
import type { NetworkPost, NetworkUser } from "../network/network_records.ts";
import { postUrl } from "../network/post_url.ts";
import type { SocialNetwork } from "../network/social_network.ts";
import { type NewInspirationPost, refreshTierRates, upsertInspirationPosts } from "./inspiration_queries.ts";
import { classifyTopics, topicMask } from "./topic_classifier.ts";
import { DAY_MS } from "../time/durations.ts";

/** What ingest needs (the job's deps or a request's services). */
export interface IngestDeps {
  sql: Sql;
  network: SocialNetwork;
  clock: Clock;
}

/** Posts read per run at most (a few seconds of work on either network). */
export const MAX_POSTS_PER_RUN = 6000;

/** How far back a run reads, in days (X API v2 recent search reaches 7). */
const WINDOW_DAYS = 7;

/** Rows per insert statement. */
const BATCH = 500;

/** A tier needs this many posts before its median is a measurement. */
export const MIN_TIER_POSTS = 5;

/**
 * The query a run reads: words from the areas people post about, so the corpus covers the
 * range a search may ask for, topics `exclude_topics` removes included.
 */
export const INGEST_QUERY = [
  "ai",
  "agents",
  "models",
  "startup",
  "founders",
  "fundraising",
  "marketing",
  "email",
  "content",
  "design",
  "crypto",
  "bitcoin",
  "ethereum",
  "policy",
  "housing",
  "election",
  "fitness",
  "strength",
  "running",
  "productivity",
  "habits",
  "focus",
  "writing",
  "newsletter",
  "developer",
  "typescript",
  "postgres",
  "lessons",
  "shipped",
].join(" OR ");

/** Reads a bounded window of recent posts and stores them; answers how many were stored. */
export async function ingestInspiration(deps: IngestDeps, maxPosts = MAX_POSTS_PER_RUN): Promise<number> {
  const now = deps.clock.now();
  const days = Math.min(WINDOW_DAYS, deps.network.info.searchWindowDays);
  const since = new Date(now - days * DAY_MS).toISOString();
  const posts: NetworkPost[] = [];
  let cursor: string | undefined;
  do {
    const page = await deps.network.search({ query: INGEST_QUERY, since, cursor, limit: 100, originalsOnly: true });
    posts.push(...page.items.filter((post) => post.kind === "post" && !post.isThreadContinuation));
    cursor = page.nextCursor;
  } while (cursor && posts.length < maxPosts);
  const authors = await authorsOf(deps.network, posts.slice(0, maxPosts));
  const rows = posts.slice(0, maxPosts).flatMap((post) => {
    const author = authors.get(post.authorId);
    return author ? [corpusRow(post, author)] : [];
  });
  for (let i = 0; i < rows.length; i += BATCH) await upsertInspirationPosts(deps.sql, rows.slice(i, i + BATCH));
  // One transaction, so a search never sees the rates table between its delete and insert.
  await deps.sql.begin((tx) => refreshTierRates(tx, MIN_TIER_POSTS));
  return rows.length;
}

async function authorsOf(network: SocialNetwork, posts: readonly NetworkPost[]): Promise<Map<string, NetworkUser>> {
  const ids = [...new Set(posts.map((post) => post.authorId))];
  const authors = new Map<string, NetworkUser>();
  for (let i = 0; i < ids.length; i += 100) {
    for (const user of await network.usersByIds(ids.slice(i, i + 100))) authors.set(user.id, user);
  }
  return authors;
}

/** The stored form of a post and its author. */
export function corpusRow(post: NetworkPost, author: NetworkUser): NewInspirationPost {
  const verdict = classifyTopics(post.text);
  return {
    post_id: post.id,
    author_id: author.id,
    author_username: author.username,
    author_name: author.name,
    author_avatar_url: author.avatarUrl || null,
    author_verified: author.verified,
    author_followers: Number.isFinite(author.followersCount) ? author.followersCount : null,
    text: post.text,
    url: postUrl(author.username, post.id),
    lang: post.lang.toLowerCase(),
    posted_at: new Date(post.createdAt),
    likes: post.metrics.likes,
    replies: post.metrics.replies,
    reposts: post.metrics.reposts,
    quotes: post.metrics.quotes,
    bookmarks: post.metrics.bookmarks,
    impressions: post.metrics.impressions,
    topics: topicMask(verdict.topics),
    promotional: verdict.promotional,
  };
}
