/**
 * Reading a feed's candidate posts from the network (supplement: GET
 * /v1/engage/feeds/{id}/posts): a keywords feed searches recent original posts matching any
 * keyword; an X list feed reads one page of the list's posts; a contact-list feed reads its
 * members' recent original posts, a slice of `ROTATION_SLICE` members per fetch when the list
 * is larger (the rotation). What was read, with the account's replies of the moment, is kept
 * a short while (`CANDIDATE_TTL_MS`) so paging with `exclude_post_ids` does not read the
 * network again; `fresh=true` skips that cache.
 */
import type { Context } from "../context.ts";
import type { z } from "zod";
import { callNetwork } from "../network/call_network.ts";
import type { NetworkPost } from "../network/network_records.ts";
import { NetworkNotFoundError, NetworkPrivateError } from "../network/network_errors.ts";
import { profilesOf } from "../network/profiles_of.ts";
import { toXPost, type xPost } from "../lookups/lookup_records.ts";
import { type FeedRow, listMemberIds, setRotationOffset } from "./feeds_queries.ts";
import { ROTATION_SLICE } from "./feed_view.ts";
import { repliedPostIds } from "./replied_posts.ts";

/**
 * How long fetched candidates are served again: 2 minutes, about a minute's feed budget on
 * the smallest plan (2 fetches a minute), so paging a feed reads the network once while a
 * later visit still sees new posts. Kept in the process's lookup cache.
 */
export const CANDIDATE_TTL_MS = 2 * 60_000;

/** Posts one search reads (the network's largest page). */
const SEARCH_PAGE = 100;
/** Posts one X list read returns (supplement: "one page of about 10-25"). */
const LIST_PAGE = 25;
/** Recent posts read per contact-list member. */
const MEMBER_POSTS = 5;

/** A candidate in the API's post shape. */
export type Candidate = z.infer<typeof xPost>;

/** What one read of a feed found: its candidates and the posts the account had answered. */
export interface FeedRead {
  posts: Candidate[];
  replied: Set<string>;
}

interface Cached extends FeedRead {
  fetchedAt: number;
}

/** The feed's candidates, from the cache unless `fresh` or stale; `cached` tells which. */
export async function feedCandidates(ctx: Context, feed: FeedRow, fresh: boolean): Promise<FeedRead & { cached: boolean }> {
  const { lookupCache, clock } = ctx.services;
  // The source's last change is in the key, so a PATCHed feed never answers its old posts.
  const key = `engage-feed:${feed.id}:${feed.updated_at.getTime()}`;
  const now = clock.now();
  const hit = fresh ? undefined : lookupCache.get<Cached>(key, now);
  if (hit && now - hit.fetchedAt < CANDIDATE_TTL_MS) return { posts: hit.posts, replied: hit.replied, cached: true };
  const [posts, replied] = await Promise.all([readCandidates(ctx, feed), repliedPostIds(ctx, feed.account_id)]);
  lookupCache.set(key, { fetchedAt: now, posts, replied } satisfies Cached, now);
  return { posts, replied, cached: false };
}

async function readCandidates(ctx: Context, feed: FeedRow): Promise<Candidate[]> {
  const { network } = ctx.services;
  let posts: NetworkPost[];
  if (feed.type === "keywords") {
    const query = (feed.keywords ?? []).map((word) => (/\s/.test(word) ? `"${word.replace(/"/g, "")}"` : word)).join(" OR ");
    posts = (await callNetwork(() => network.search({ query, limit: SEARCH_PAGE, originalsOnly: true }))).items;
  } else if (feed.type === "x_list") {
    const listId = feed.x_list_id as string;
    posts = (await callNetwork(() => network.listPosts(listId, { limit: LIST_PAGE }))).items;
  } else {
    posts = await memberPosts(ctx, feed);
  }
  const readable = posts.filter((post) => post.kind !== "repost" && post.authorId !== feed.account_id);
  const authors = await callNetwork(() => profilesOf(network, [...new Set(readable.map((post) => post.authorId))]));
  return readable.map((post) => toXPost(post, authors));
}

/** A contact-list feed: its members' recent originals, one rotating slice at a time. */
async function memberPosts(ctx: Context, feed: FeedRow): Promise<NetworkPost[]> {
  if (feed.list_id === null) return [];
  const { sql, network } = ctx.services;
  const members = await listMemberIds(sql, feed.list_id);
  if (members.length === 0) return [];
  const start = feed.rotation_offset % members.length;
  const slice = members.length <= ROTATION_SLICE ? members : [...members, ...members].slice(start, start + ROTATION_SLICE);
  if (members.length > ROTATION_SLICE) await setRotationOffset(sql, feed.id, (start + ROTATION_SLICE) % members.length);
  const pages = await callNetwork(() =>
    Promise.all(
      slice.map((userId) =>
        network.timeline(userId, { limit: MEMBER_POSTS, excludeReplies: true, excludeReposts: true }).then(
          (page) => page.items,
          // A member who left the network or went private reads as no posts, not a failed feed.
          (error: unknown) => (error instanceof NetworkNotFoundError || error instanceof NetworkPrivateError ? [] : Promise.reject(error)),
        ),
      ),
    ),
  );
  return pages.flat().sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}
