/**
 * `GET /v1/engage/feeds/{id}/posts` (supplement: Engage): the feed's best candidates the
 * account has not replied to, unseen ones first. `mode=top` ranks by engagement
 * (likes + 2 x reposts + replies + quotes), `latest` by post time; posts the account already
 * answered are left out unless `include_replied=true` (then flagged `replied`); the account's
 * own posts never appear; `exclude_post_ids` drops posts the client already holds (its paging).
 * Each fetch counts 1 against the feed bucket, 3 for a rotating list feed (Limits 6), charged
 * once the feed is found, so an unknown feed costs no fetch.
 */
import type { KeyContext } from "../context.ts";
import { reachableFeed } from "./feed_access.ts";
import { feedCandidates, type Candidate, type FeedRead } from "./feed_candidates.ts";
import { chargeFeedFetches } from "./feed_fetches.ts";
import { fetchUnits, toFeed } from "./feed_view.ts";
import type { FeedPostsInput } from "./feed_schema.ts";
import { markSeen, seenAmong } from "./feeds_queries.ts";

/** A feed's page of candidates, recorded as seen. */
export async function feedPosts(ctx: KeyContext, input: FeedPostsInput) {
  const feed = await reachableFeed(ctx, input.id, { accountId: input.account_id, write: false });
  const units = fetchUnits(feed);
  const release = await chargeFeedFetches(ctx, units);
  let read: FeedRead & { cached: boolean };
  try {
    read = await feedCandidates(ctx, feed, input.fresh);
  } catch (error) {
    // Nothing came back: the fetch is not counted.
    await release();
    throw error;
  }
  const { sql, clock } = ctx.services;
  const { replied } = read;
  const excluded = new Set(input.exclude_post_ids ?? []);
  const kept = read.posts.filter((post) => !excluded.has(post.id) && (input.include_replied || !replied.has(post.id)));
  const ranked = [...kept].sort(input.mode === "top" ? byEngagement : byTime);
  const seen = await seenAmong(
    sql,
    feed.id,
    ranked.map((post) => post.id),
  );
  const ordered = [...ranked.filter((post) => !seen.has(post.id)), ...ranked.filter((post) => seen.has(post.id))];
  const page = ordered.slice(0, input.limit);
  await markSeen(
    sql,
    feed.id,
    page.map((post) => post.id),
    new Date(clock.now()),
  );
  return {
    data: page.map((post) => ({ ...post, replied: replied.has(post.id), seen: seen.has(post.id) })),
    has_more: ordered.length > page.length,
    feed: toFeed(feed),
    meta: { account_id: feed.account_id, mode: input.mode, cached: read.cached, fetch_units: units },
  };
}

function engagement(post: Candidate): number {
  const { likes, reposts, replies, quotes } = post.metrics;
  return likes + 2 * reposts + replies + quotes;
}

function byEngagement(a: Candidate, b: Candidate): number {
  return engagement(b) - engagement(a) || byTime(a, b);
}

function byTime(a: Candidate, b: Candidate): number {
  return b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id);
}
