/**
 * `GET /v1/posts`, `GET /v1/replies` and `GET /v1/replies/received`: the account's synced
 * content from the database (ARCHITECTURE "Sync jobs": reads never go to the network).
 */
import type { AccountContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { postUrl } from "../network/post_url.ts";
import { pageInfo } from "../schema.ts";
import type { ListOwnPostsInput, ListReceivedRepliesInput, ListSentRepliesInput, OwnPost, ReceivedReply, SentReply } from "./content_schema.ts";
import type { OwnPostCategory } from "./own_content_rows.ts";
import {
  type ListWindow,
  listOwnPostRows,
  listReceivedReplyRows,
  type OwnPostListRow,
  type PendingPartRow,
  pendingPublishedParts,
} from "./own_content_queries.ts";
import { HOUR_MS } from "../time/durations.ts";

const CATEGORIES: Record<ListOwnPostsInput["type"], OwnPostCategory[]> = {
  posts: ["post"],
  replies: ["reply"],
  all: ["post", "reply", "repost"],
};

/** How far back page 1 shows posts Threadline published that the sync has not read yet (supplement: Content). */
export const PENDING_HOURS = 4;

/**
 * The account's posts, replies or both, with their counters. The newest-first list of posts
 * (no `since`/`until`) starts with the parts Threadline published in the last 4 hours that
 * the sync has not stored yet (`metrics_pending: true`, newest first: the sync stores a part
 * on its next run, so nothing it stored is newer), then the synced posts. `limit` bounds
 * every page, and paging walks that one list, so a synced post a pending part displaced from
 * page 1 opens page 2 (the supplement's real service adds them on top of page 1; a limit is a
 * maximum here).
 */
export async function listOwnPosts(ctx: AccountContext, input: ListOwnPostsInput) {
  const window = windowOf(input);
  const { sql, clock } = ctx.services;
  const merges = input.sort === "posted_at" && !input.since && !input.until && input.type !== "replies";
  const pending = merges ? (await pendingPublishedParts(sql, ctx.account.id, new Date(clock.now() - PENDING_HOURS * HOUR_MS))).map(pendingPostOf) : [];
  const pendingOnPage = pending.slice(window.skip, window.skip + input.limit);
  const syncedOnPage = input.limit - pendingOnPage.length;
  const skip = Math.max(0, window.skip - pending.length);
  const rows = await listOwnPostRows(sql, ctx.account.id, CATEGORIES[input.type], input.sort, { ...window, skip, take: syncedOnPage + 1 });
  const data = [...pendingOnPage, ...rows.slice(0, syncedOnPage).map(ownPostOf)];
  const more = rows.length > syncedOnPage || pending.length > window.skip + input.limit;
  return { data, pagination: pageInfo(input.page, input.limit, undefined, more ? input.limit + 1 : data.length) };
}

/** Replies the account sent to other accounts, newest first. */
export async function listSentReplies(ctx: AccountContext, input: ListSentRepliesInput) {
  const rows = await listOwnPostRows(ctx.services.sql, ctx.account.id, ["reply"], "posted_at", windowOf(input));
  // Threadline publishes posts and thread parts, never replies to other accounts (Engage is
  // read-only, rule 7), so no sent reply is ever pending here.
  const data: SentReply[] = rows.slice(0, input.limit).map(ownPostOf);
  return { data, pagination: pageInfo(input.page, input.limit, undefined, rows.length) };
}

/** Replies other accounts (or the one person `replierId`) sent to the account's posts, newest or most liked first. */
export async function listReceivedReplies(ctx: AccountContext, input: ListReceivedRepliesInput, replierId?: string) {
  const rows = await listReceivedReplyRows(ctx.services.sql, ctx.account.id, input.sort, windowOf(input), replierId);
  const data: ReceivedReply[] = rows.slice(0, input.limit).map((row) => ({
    id: row.x_post_id,
    text: row.text,
    posted_at: row.posted_at.toISOString(),
    url: postUrl(row.replier_username, row.x_post_id),
    likes: row.likes,
    replies: row.replies,
    author: {
      x_user_id: row.replier_x_user_id,
      username: row.replier_username,
      name: row.replier_name,
      avatar_url: row.replier_avatar_url,
      followers_count: row.replier_followers_count,
      verified: row.replier_verified,
    },
    in_reply_to: {
      id: row.in_reply_to_x_post_id,
      text: row.in_reply_to_text,
      posted_at: row.in_reply_to_posted_at?.toISOString() ?? null,
      url: postUrl(row.username, row.in_reply_to_x_post_id),
    },
  }));
  return { data, pagination: pageInfo(input.page, input.limit, undefined, rows.length) };
}

function windowOf(input: { since?: string; until?: string; limit: number; page: number }): ListWindow {
  const since = input.since === undefined ? undefined : new Date(input.since);
  const until = input.until === undefined ? undefined : new Date(input.until);
  if (since && until && since >= until) throw new ApiError("invalid_parameter", `Invalid "since": must be before "until"`);
  return { since, until, take: input.limit + 1, skip: (input.page - 1) * input.limit };
}

function ownPostOf(row: OwnPostListRow): OwnPost {
  return {
    id: row.x_post_id,
    text: row.text,
    posted_at: row.posted_at.toISOString(),
    url: postUrl(row.username, row.x_post_id),
    is_repost: row.category === "repost",
    is_thread: row.is_thread,
    is_reply: row.category === "reply",
    is_quote: row.is_quote,
    conversation_id: row.conversation_id,
    in_reply_to_post_id: row.reply_to_x_post_id,
    reposted_post_id: row.reposted_x_post_id,
    scheduled_post_id: row.scheduled_post_id === null ? null : Number(row.scheduled_post_id),
    metrics: { likes: row.likes, replies: row.replies, reposts: row.reposts, quotes: row.quotes, bookmarks: row.bookmarks, impressions: row.impressions },
    metrics_pending: false,
    synced_at: row.synced_at.toISOString(),
  };
}

function pendingPostOf(row: PendingPartRow): OwnPost {
  const continuation = row.part_index > 0;
  return {
    id: row.x_post_id,
    text: row.text ?? "",
    posted_at: row.published_at.toISOString(),
    url: postUrl(row.username, row.x_post_id),
    is_repost: false,
    is_thread: row.part_count > 1,
    is_reply: false,
    is_quote: false,
    conversation_id: row.first_x_post_id ?? row.x_post_id,
    in_reply_to_post_id: continuation ? row.previous_x_post_id : null,
    reposted_post_id: null,
    scheduled_post_id: Number(row.scheduled_post_id),
    metrics: { likes: 0, replies: 0, reposts: 0, quotes: 0, bookmarks: 0, impressions: 0 },
    metrics_pending: true,
    synced_at: null,
  };
}
