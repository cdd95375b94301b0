/**
 * How the network's posts become stored rows of the account's own content (docs/areas.md "Content and analytics"):
 * the spec's counting (Versioning 4: originals, quotes and thread continuations are posts;
 * answers to other accounts are replies; reposts are reposts) decided once, here.
 */
import type { NetworkPost, NetworkUser, PostMetrics } from "../network/network_records.ts";

/** How the spec counts a post of the account's own. */
export type OwnPostCategory = "post" | "reply" | "repost";

/** A row of `own_posts` as the sync writes it (with the post's counters). */
export interface OwnPostRow extends PostMetrics {
  account_id: string;
  x_post_id: string;
  category: OwnPostCategory;
  is_quote: boolean;
  is_thread_continuation: boolean;
  is_thread: boolean;
  text: string;
  posted_at: Date;
  conversation_id: string;
  reply_to_x_post_id: string | null;
  reply_to_user_id: string | null;
  reposted_x_post_id: string | null;
  synced_at: Date;
}

/** A row of `received_replies` as the sync writes it. */
export interface ReceivedReplyRow {
  account_id: string;
  x_post_id: string;
  text: string;
  posted_at: Date;
  likes: number;
  replies: number;
  replier_x_user_id: string;
  replier_username: string;
  replier_name: string;
  replier_avatar_url: string;
  replier_followers_count: number;
  replier_verified: boolean;
  in_reply_to_x_post_id: string;
  in_reply_to_text: string | null;
  in_reply_to_posted_at: Date | null;
  synced_at: Date;
}

/** The spec's category of one of the account's own posts. */
export function categoryOf(post: NetworkPost): OwnPostCategory {
  if (post.kind === "repost") return "repost";
  if (post.kind === "reply" && !post.isThreadContinuation) return "reply";
  return "post";
}

/** The stored row of one of `accountId`'s posts; a repost's counters are the original's, so it stores none. */
export function ownPostRow(accountId: string, post: NetworkPost, syncedAt: Date): OwnPostRow {
  const category = categoryOf(post);
  const counted = category !== "repost";
  return {
    account_id: accountId,
    x_post_id: post.id,
    category,
    is_quote: post.kind === "quote",
    is_thread_continuation: post.isThreadContinuation,
    is_thread: post.isThreadContinuation,
    text: post.text,
    posted_at: new Date(post.createdAt),
    conversation_id: post.conversationId,
    reply_to_x_post_id: post.replyToId,
    reply_to_user_id: post.replyToUserId,
    reposted_x_post_id: post.repostedId,
    likes: counted ? post.metrics.likes : 0,
    replies: counted ? post.metrics.replies : 0,
    reposts: counted ? post.metrics.reposts : 0,
    quotes: counted ? post.metrics.quotes : 0,
    bookmarks: counted ? post.metrics.bookmarks : 0,
    impressions: counted ? post.metrics.impressions : 0,
    synced_at: syncedAt,
  };
}

/** True when `post` is another account's reply to one of `accountId`'s posts. */
export function isReceivedReply(accountId: string, post: NetworkPost): boolean {
  return post.kind === "reply" && post.replyToUserId === accountId && post.authorId !== accountId && post.replyToId !== null;
}

/** The stored row of a reply `accountId` received, with the replier's profile and the post it answers. */
export function receivedReplyRow(
  accountId: string,
  reply: NetworkPost,
  replier: NetworkUser,
  repliedTo: { text: string; postedAt: Date } | undefined,
  syncedAt: Date,
): ReceivedReplyRow {
  return {
    account_id: accountId,
    x_post_id: reply.id,
    text: reply.text,
    posted_at: new Date(reply.createdAt),
    likes: reply.metrics.likes,
    replies: reply.metrics.replies,
    replier_x_user_id: replier.id,
    replier_username: replier.username,
    replier_name: replier.name,
    replier_avatar_url: replier.avatarUrl,
    replier_followers_count: replier.followersCount,
    replier_verified: replier.verified,
    in_reply_to_x_post_id: reply.replyToId ?? "",
    in_reply_to_text: repliedTo?.text ?? null,
    in_reply_to_posted_at: repliedTo?.postedAt ?? null,
    synced_at: syncedAt,
  };
}
