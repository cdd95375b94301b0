/**
 * What the live lookups answer (spec X Lookups rows; "posts carry `is_repost`,
 * `is_thread`, `is_reply`"): the network's records in the API's snake_case.
 */
import { z } from "zod";
import type { NetworkPost, NetworkUser } from "../network/network_records.ts";
import { postUrl } from "../network/post_url.ts";

/** A profile as the lookups answer it. */
export const xUser = z
  .object({
    id: z.string(),
    username: z.string(),
    name: z.string(),
    description: z.string(),
    location: z.string().nullable(),
    url: z.string().nullable(),
    avatar_url: z.string(),
    created_at: z.string(),
    protected: z.boolean(),
    verified: z.boolean(),
    premium: z.enum(["none", "basic", "premium", "premium_plus"]),
    followers_count: z.number().int(),
    following_count: z.number().int(),
    post_count: z.number().int(),
    listed_count: z.number().int(),
  })
  .meta({ id: "XUser" });

const metrics = z.object({
  likes: z.number().int(),
  replies: z.number().int(),
  reposts: z.number().int(),
  quotes: z.number().int(),
  impressions: z.number().int(),
  bookmarks: z.number().int(),
});

/** A post as the lookups answer it, with its author when known. */
export const xPost = z
  .object({
    id: z.string(),
    url: z.string(),
    author_id: z.string(),
    author: xUser.nullable(),
    text: z.string(),
    created_at: z.string(),
    lang: z.string(),
    is_reply: z.boolean().meta({ description: "Answers another account" }),
    is_thread: z.boolean().meta({ description: "Part of the author's own thread (a continuation)" }),
    is_repost: z.boolean(),
    is_quote: z.boolean(),
    conversation_id: z.string(),
    reply_to_id: z.string().nullable(),
    quoted_id: z.string().nullable(),
    reposted_id: z.string().nullable(),
    metrics,
    media: z.array(z.object({ type: z.string(), url: z.string().nullable(), alt_text: z.string().nullable() })),
  })
  .meta({ id: "XPost" });

/** Cursor pagination of network pages (they have no total). */
export const cursorPagination = z.object({
  limit: z.number().int(),
  has_more: z.boolean(),
  next_cursor: z.string().nullable().meta({ description: "Pass as `cursor` for the next page" }),
});

/** A profile in the API's shape. */
export function toXUser(user: NetworkUser): z.infer<typeof xUser> {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    description: user.description,
    location: user.location,
    url: user.url,
    avatar_url: user.avatarUrl,
    created_at: user.createdAt,
    protected: user.protected,
    verified: user.verified,
    premium: user.premium,
    followers_count: user.followersCount,
    following_count: user.followingCount,
    post_count: user.postCount,
    listed_count: user.listedCount,
  };
}

/** A post in the API's shape; `authors` supplies the author when it was read too. */
export function toXPost(post: NetworkPost, authors: ReadonlyMap<string, NetworkUser>): z.infer<typeof xPost> {
  const author = authors.get(post.authorId);
  return {
    id: post.id,
    url: postUrl(author?.username ?? "i", post.id),
    author_id: post.authorId,
    author: author ? toXUser(author) : null,
    text: post.text,
    created_at: post.createdAt,
    lang: post.lang,
    is_reply: post.kind === "reply",
    is_thread: post.isThreadContinuation,
    is_repost: post.kind === "repost",
    is_quote: post.kind === "quote",
    conversation_id: post.conversationId,
    reply_to_id: post.replyToId,
    quoted_id: post.quotedId,
    reposted_id: post.repostedId,
    metrics: { ...post.metrics },
    media: post.media.map((item) => ({ type: item.type, url: item.url, alt_text: item.altText })),
  };
}
