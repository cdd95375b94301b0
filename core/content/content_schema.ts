/**
 * Fields of the Content and Analytics endpoints (spec: GET /v1/posts, /v1/replies,
 * /v1/replies/received, /v1/posts/analytics; Versioning 4; supplement: Content, Analytics).
 */
import { z } from "zod";
import { accountSelection, paginationInput, postCounters, timestamp } from "../schema.ts";

/** One of the account's own posts, replies or reposts. */
export const ownPost = z
  .object({
    id: z.string().meta({ description: "The post's id on X" }),
    text: z.string(),
    posted_at: z.string(),
    url: z.string(),
    is_repost: z.boolean().meta({ description: "A repost; its `metrics` are zeros (the counters are the original's)" }),
    is_thread: z.boolean().meta({ description: "Part of a thread: a continuation, or a first post the author continued" }),
    is_reply: z.boolean().meta({ description: "An answer to another account (thread continuations are not replies)" }),
    is_quote: z.boolean(),
    conversation_id: z.string(),
    in_reply_to_post_id: z.string().nullable(),
    reposted_post_id: z.string().nullable(),
    scheduled_post_id: z.number().int().nullable().meta({ description: "The scheduled post that published it, when Threadline did" }),
    metrics: postCounters,
    metrics_pending: z.boolean().meta({
      description: "True for a post Threadline published in the last 4 hours that the sync has not read yet: its counters are zeros for now",
    }),
    synced_at: z.string().nullable().meta({ description: "When the counters were read; null while `metrics_pending`" }),
  })
  .meta({ id: "OwnPost" });

/** A reply the account sent, as `GET /v1/replies` lists it. */
export const sentReply = ownPost;

/** Who replied: the replier's profile as last read. */
export const replier = z
  .object({
    x_user_id: z.string(),
    username: z.string(),
    name: z.string(),
    avatar_url: z.string(),
    followers_count: z.number().int(),
    verified: z.boolean(),
  })
  .meta({ id: "Replier" });

/** A reply another account sent to one of the account's posts. */
export const receivedReply = z
  .object({
    id: z.string(),
    text: z.string(),
    posted_at: z.string(),
    url: z.string(),
    likes: z.number().int(),
    replies: z.number().int(),
    author: replier,
    in_reply_to: z.object({
      id: z.string(),
      text: z.string().nullable().meta({ description: "The answered post's text, when it is among the synced posts" }),
      posted_at: z.string().nullable(),
      url: z.string(),
    }),
  })
  .meta({ id: "ReceivedReply" });

const window = {
  since: timestamp.optional().meta({ description: "Only items posted at or after this time" }),
  until: timestamp.optional().meta({ description: "Only items posted before this time" }),
};

/** The query of `GET /v1/posts`. */
export const listOwnPostsInput = z
  .object({
    ...accountSelection,
    type: z.enum(["posts", "replies", "all"]).default("posts").meta({
      description: "`posts` (default): originals, quotes and thread continuations; `replies`: answers to other accounts; `all`: both plus reposts",
    }),
    sort: z.enum(["posted_at", "likes", "impressions"]).default("posted_at").meta({ description: "Newest first (default), or most liked / most seen first" }),
    ...window,
    ...paginationInput(20),
  })
  .prefault({});

/** The query of `GET /v1/replies`. */
export const listSentRepliesInput = z.object({ ...accountSelection, ...window, ...paginationInput(20) }).prefault({});

/** The query of `GET /v1/replies/received`. */
export const listReceivedRepliesInput = z
  .object({
    ...accountSelection,
    sort: z.enum(["recent", "most_liked"]).default("recent").meta({ description: "Newest first (default) or most liked first" }),
    ...window,
    ...paginationInput(20),
  })
  .prefault({});

/** How the spec counts posts (Versioning 4) and what they earned. */
const analyticsCounts = {
  posts: z.number().int().meta({ description: "Originals, quotes and thread continuations" }),
  replies_sent: z.number().int().meta({ description: "Replies to other accounts" }),
  reposts_sent: z.number().int(),
  ...postCounters.shape,
};

/** The answer of `GET /v1/posts/analytics`. */
export const postAnalytics = z
  .object({
    since: z.string(),
    until: z.string(),
    totals: z.object(analyticsCounts).meta({ description: "The sum of `days`" }),
    followers: z.object({
      start: z.number().int().nullable(),
      end: z.number().int().nullable(),
      change: z.number().int().nullable(),
    }),
    days: z.array(
      z.object({
        date: z.string().meta({ description: "UTC day, YYYY-MM-DD" }),
        ...analyticsCounts,
        followers: z.number().int().nullable().meta({ description: "Followers recorded that day (null before the first sync)" }),
      }),
    ),
  })
  .meta({ id: "PostAnalytics" });

/** The query of `GET /v1/posts/analytics`. */
export const postAnalyticsInput = z
  .object({
    ...accountSelection,
    since: timestamp.optional().meta({ description: "Start (default: midnight UTC 29 days before `until`'s day, so 30 days)" }),
    until: timestamp.optional().meta({ description: "End, exclusive (default now); at most 366 days after `since`" }),
  })
  .prefault({});

export type OwnPost = z.infer<typeof ownPost>;
export type SentReply = z.infer<typeof sentReply>;
export type ReceivedReply = z.infer<typeof receivedReply>;
export type PostAnalytics = z.infer<typeof postAnalytics>;
export type ListOwnPostsInput = z.infer<typeof listOwnPostsInput>;
export type ListSentRepliesInput = z.infer<typeof listSentRepliesInput>;
export type ListReceivedRepliesInput = z.infer<typeof listReceivedRepliesInput>;
export type PostAnalyticsInput = z.infer<typeof postAnalyticsInput>;
