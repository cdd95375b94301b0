/**
 * `my_posts` and `my_replies` (supplement: Datasets: "synchronous, use no enrichment, and
 * ignore profile filters"): the account's own timeline over the last `since_days` (default
 * 90), as rows of posts (`has_people` false), keyed by post id, sorted by `sort` (`recent`,
 * `likes` or `impressions`, descending) and cut at `max_rows`. Read live from the network so
 * a post published a minute ago counts; the read is bounded (OWN_CONTENT_PAGES).
 */
import type { NetworkPost } from "../network/network_records.ts";
import { pageWalker } from "../network/page_walker.ts";
import type { SocialNetwork } from "../network/social_network.ts";
import { type CollectionFilters, passesFilters } from "./collection_filters.ts";
import type { WalkCounts } from "./collection_walk.ts";
import type { NewDatasetRow } from "./datasets_queries.ts";
import { postColumns } from "./row_columns.ts";
import { DAY_MS } from "../time/durations.ts";

/** `filters.since_days` when not given (supplement: own posts). */
export const DEFAULT_SINCE_DAYS = 90;

/** Pages of 100 an own-content read takes at most (10,000 posts: beyond any real year). */
const OWN_CONTENT_PAGES = 100;

/** What an own-content read found. */
export interface OwnContent {
  rows: NewDatasetRow[];
  counts: WalkCounts;
  /** Posts (or replies) in the window. */
  total: number;
}

/** Reads the account's own posts or replies in the window and keeps `maxRows` of them. */
export async function readOwnContent(
  network: SocialNetwork,
  options: { accountId: string; source: "my_posts" | "my_replies"; filters: CollectionFilters; maxRows: number; nowMs: number },
): Promise<OwnContent> {
  const { accountId, source, filters } = options;
  const me = await network.userById(accountId);
  const since = new Date(options.nowMs - (filters.since_days ?? DEFAULT_SINCE_DAYS) * DAY_MS).toISOString();
  const posts: NetworkPost[] = [];
  const readPage = (cursor: string | undefined) =>
    network.timeline(accountId, { since, cursor, limit: 100, excludeReposts: true, excludeReplies: source === "my_posts" });
  await pageWalker(OWN_CONTENT_PAGES).walk(source, readPage, undefined, (post) => {
    // my_replies: answers to other accounts only (a thread continuation is a post: spec Versioning 4).
    if (post.kind !== "repost" && (source === "my_posts" ? post.kind !== "reply" : post.kind === "reply")) posts.push(post);
  });
  const counts: WalkCounts = { scanned: posts.length, matched: 0, filtered_out: 0, duplicates: 0 };
  const kept = posts.filter((post) => passesFilters(filters, { post }));
  counts.matched = kept.length;
  counts.filtered_out = posts.length - kept.length;
  const sort = filters.sort ?? "recent";
  if (sort !== "recent") kept.sort((a, b) => b.metrics[sort] - a.metrics[sort] || b.createdAt.localeCompare(a.createdAt));
  const rows = kept.slice(0, options.maxRows).map((post) => ({ key: post.id, ...postColumns(post, me.username) }));
  return { rows, counts, total: posts.length };
}
