/** SQL for the inspiration corpus: upserts at ingest, the tier-rate refresh, and the search. */
import type { Queryable, SqlFragment } from "../db/sql.ts";
import type { PostMetrics } from "../network/network_records.ts";

/** A corpus row as ingest writes it (with the post's counters). */
export interface NewInspirationPost extends PostMetrics {
  post_id: string;
  author_id: string;
  author_username: string;
  author_name: string;
  author_avatar_url: string | null;
  author_verified: boolean;
  author_followers: number | null;
  text: string;
  url: string;
  lang: string;
  posted_at: Date;
  topics: number;
  promotional: boolean;
}

/** A corpus row as the search reads it. */
export interface InspirationPostRow extends NewInspirationPost {
  outlier_score: number | null;
}

const COLUMNS = [
  "post_id",
  "author_id",
  "author_username",
  "author_name",
  "author_avatar_url",
  "author_verified",
  "author_followers",
  "text",
  "url",
  "lang",
  "posted_at",
  "likes",
  "replies",
  "reposts",
  "quotes",
  "bookmarks",
  "impressions",
  "topics",
  "promotional",
] as const;

/**
 * Inserts or refreshes posts in one statement (metrics and author counts change between
 * runs; the text and the classification follow the text). Rows are sorted by id so two
 * concurrent runs take row locks in the same order and cannot deadlock.
 */
export async function upsertInspirationPosts(sql: Queryable, rows: readonly NewInspirationPost[]): Promise<void> {
  if (rows.length === 0) return;
  const sorted = [...rows].sort((a, b) => (a.post_id < b.post_id ? -1 : a.post_id > b.post_id ? 1 : 0));
  await sql`
    insert into inspiration_posts ${sql(sorted as NewInspirationPost[], ...COLUMNS)}
    on conflict (post_id) do update set
      author_username = excluded.author_username, author_name = excluded.author_name,
      author_avatar_url = excluded.author_avatar_url, author_verified = excluded.author_verified,
      author_followers = excluded.author_followers, text = excluded.text, lang = excluded.lang,
      likes = excluded.likes, replies = excluded.replies, reposts = excluded.reposts, quotes = excluded.quotes,
      bookmarks = excluded.bookmarks, impressions = excluded.impressions, topics = excluded.topics,
      promotional = excluded.promotional, ingested_at = now()`;
}

/** Whether the corpus holds any post. */
export async function corpusIsEmpty(sql: Queryable): Promise<boolean> {
  const rows = await sql`select 1 from inspiration_posts limit 1`;
  return rows.length === 0;
}

/**
 * Measures the expected engagement rate of each follower tier as the median
 * `engagement_rate` of its posts (at least `minPosts` of them; a tier with fewer, or a
 * median of zero, is not measured and its posts get no score), then re-scores every post
 * against its tier. The spec defines the score against "the expected rate for the author's
 * follower tier"; the median keeps a few viral posts from moving what "expected" means.
 */
export async function refreshTierRates(sql: Queryable, minPosts: number): Promise<void> {
  await sql`delete from inspiration_tier_rates`;
  await sql`
    insert into inspiration_tier_rates (tier, expected_rate, posts)
    select follower_tier, rate, posts from (
      select follower_tier,
             percentile_cont(0.5) within group (order by engagement_rate) as rate,
             count(*)::int as posts
        from inspiration_posts
       where follower_tier is not null
       group by follower_tier
    ) measured
     where posts >= ${minPosts} and rate > 0`;
  await sql`
    update inspiration_posts p
       set outlier_score = p.engagement_rate / r.expected_rate
      from inspiration_tier_rates r
     where r.tier = p.follower_tier
       and p.outlier_score is distinct from p.engagement_rate / r.expected_rate`;
  await sql`
    update inspiration_posts set outlier_score = null
     where outlier_score is not null
       and (follower_tier is null or follower_tier not in (select tier from inspiration_tier_rates))`;
}

/** The measured tier rates, lowest tier first. */
export async function tierRates(sql: Queryable) {
  return sql<{ tier: number; expected_rate: number; posts: number }[]>`
    select tier, expected_rate, posts from inspiration_tier_rates order by tier`;
}

/** What the search filters and orders by (already validated). */
export interface CorpusSearch {
  q?: string;
  sort: "relevant" | "recent" | "likes" | "reposts" | "impressions" | "outlier";
  minLikes?: number;
  minReposts?: number;
  minReplies?: number;
  minBookmarks?: number;
  minImpressions?: number;
  minFollowers?: number;
  maxFollowers?: number;
  since?: Date;
  until?: Date;
  lang: string;
  excludeMask: number;
  minOutlierScore?: number;
  /** Relevance below this (ts_rank_cd, normalised to 0..1) is a weak match and left out. */
  minRank: number;
  limit: number;
  offset: number;
}

/**
 * A page of the corpus, one extra row fetched for `has_more`. The text query is
 * `websearch_to_tsquery` (quoted phrases, `or`, `-word`) on the generated `search`
 * column and its GIN index; weak matches (rank under `minRank`) and plugs
 * (`promotional`) are left out when there is a query, as the supplement says.
 */
export async function searchCorpus(sql: Queryable, search: CorpusSearch): Promise<(InspirationPostRow & { rank: number })[]> {
  const query = search.q ? sql`websearch_to_tsquery('english', ${search.q})` : undefined;
  const conditions: SqlFragment[] = [sql`lang = ${search.lang}`];
  if (query) conditions.push(sql`search @@ ${query}`, sql`ts_rank_cd(search, ${query}, 32) >= ${search.minRank}`, sql`not promotional`);
  const floor = (column: string, value: number | undefined) => {
    if (value !== undefined && value > 0) conditions.push(sql`${sql(column)} >= ${value}`);
  };
  floor("likes", search.minLikes);
  floor("reposts", search.minReposts);
  floor("replies", search.minReplies);
  floor("bookmarks", search.minBookmarks);
  floor("impressions", search.minImpressions);
  if (search.minFollowers !== undefined) conditions.push(sql`author_followers >= ${search.minFollowers}`);
  if (search.maxFollowers !== undefined) conditions.push(sql`author_followers <= ${search.maxFollowers}`);
  if (search.since) conditions.push(sql`posted_at >= ${search.since}`);
  if (search.until) conditions.push(sql`posted_at < ${search.until}`);
  if (search.excludeMask !== 0) conditions.push(sql`(topics & ${search.excludeMask}) = 0`);
  if (search.minOutlierScore !== undefined && search.minOutlierScore > 0) conditions.push(sql`outlier_score >= ${search.minOutlierScore}`);
  const where = conditions.reduce((all, condition) => sql`${all} and ${condition}`);
  const rank = query ? sql`ts_rank_cd(search, ${query}, 32)` : sql`0::real`;
  const order = {
    relevant: query ? sql`rank desc, posted_at desc` : sql`posted_at desc`,
    recent: sql`posted_at desc`,
    likes: sql`likes desc`,
    reposts: sql`reposts desc`,
    impressions: sql`impressions desc`,
    outlier: sql`outlier_score desc nulls last`,
  }[search.sort];
  return sql<(InspirationPostRow & { rank: number })[]>`
    select ${sql(COLUMNS as unknown as string[])}, outlier_score, ${rank} as rank
      from inspiration_posts
     where ${where}
     order by ${order}, post_id desc
     limit ${search.limit + 1} offset ${search.offset}`;
}
