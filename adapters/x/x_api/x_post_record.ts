/**
 * X API v2 tweet objects as the port's NetworkPost. The kind comes from
 * `referenced_tweets` (retweeted -> repost, replied_to -> reply, quoted -> quote), with
 * the port's rule that an author answering their own post is a thread continuation,
 * kind `post` (spec Versioning 4). X does not mark continuations, so one is a reply
 * to the same author whose parent (expanded through `referenced_tweets.id`) is itself
 * a post or a continuation; when the parent is not in `includes` (deleted, protected),
 * the self-reply alone decides.
 */
import type { NetworkPost, PostMedia } from "../../../core/network/network_records.ts";
import type { XIncludes, XMedia, XTweet } from "./x_api_types.ts";
import { isoTime, plainText } from "./x_text.ts";

const MEDIA_TYPES = new Set(["photo", "animated_gif", "video"]);
const ARTICLE_LINK = /x\.com\/i\/article\/(\d+)/;

/** The post an X tweet object describes; `includes` are the answer's expansions. */
export function postFromX(tweet: XTweet, includes: XIncludes | undefined): NetworkPost {
  const authorId = tweet.author_id ?? "";
  const refs = tweet.referenced_tweets ?? [];
  const repliedId = refs.find((ref) => ref.type === "replied_to")?.id ?? null;
  const quotedId = refs.find((ref) => ref.type === "quoted")?.id ?? null;
  const repostedId = refs.find((ref) => ref.type === "retweeted")?.id ?? null;
  const replyToUserId = repliedId === null ? null : (tweet.in_reply_to_user_id ?? null);
  const parent = repliedId === null ? undefined : includes?.tweets?.find((candidate) => candidate.id === repliedId);
  const continuation = repliedId !== null && replyToUserId === authorId && (parent === undefined || roughKind(parent) === "post");
  const full = tweet.note_tweet;
  const text = plainText(full?.text ?? tweet.text, full?.entities?.urls ?? tweet.entities?.urls);
  const mentions = (full?.entities?.mentions ?? tweet.entities?.mentions ?? []).flatMap((mention) => (mention.id ? [mention.id] : []));
  // A reply names the author it answers (X's own reply prefix), then whoever the text names.
  const named = [...(replyToUserId !== null && !continuation ? [replyToUserId] : []), ...mentions].filter((id) => id !== authorId);
  const metrics = tweet.public_metrics ?? {};
  return {
    id: tweet.id,
    authorId,
    text,
    createdAt: isoTime(tweet.created_at, 0),
    kind: repostedId ? "repost" : repliedId ? (continuation ? "post" : "reply") : quotedId ? "quote" : "post",
    conversationId: tweet.conversation_id ?? tweet.id,
    replyToId: repliedId,
    replyToUserId,
    quotedId,
    repostedId,
    isThreadContinuation: continuation,
    mentionedUserIds: [...new Set(named)],
    lang: tweet.lang ?? "und",
    metrics: {
      likes: metrics.like_count ?? 0,
      replies: metrics.reply_count ?? 0,
      reposts: metrics.retweet_count ?? 0,
      quotes: metrics.quote_count ?? 0,
      impressions: metrics.impression_count ?? 0,
      bookmarks: metrics.bookmark_count ?? 0,
    },
    media: (tweet.attachments?.media_keys ?? []).map((key) => mediaOf(key, includes?.media)),
    article: tweet.article ? { id: articleIdOf(tweet, text), title: tweet.article.title ?? "" } : null,
  };
}

/** The kind of a post seen one level deep (its own parent is not expanded). */
function roughKind(tweet: XTweet): NetworkPost["kind"] {
  const refs = tweet.referenced_tweets ?? [];
  if (refs.some((ref) => ref.type === "retweeted")) return "repost";
  if (refs.some((ref) => ref.type === "replied_to")) return tweet.in_reply_to_user_id === tweet.author_id ? "post" : "reply";
  return refs.some((ref) => ref.type === "quoted") ? "quote" : "post";
}

function mediaOf(key: string, media: readonly XMedia[] | undefined): PostMedia {
  const found = media?.find((item) => item.media_key === key);
  const type = found && MEDIA_TYPES.has(found.type) ? (found.type as PostMedia["type"]) : "photo";
  // Videos and GIFs have no `url`: their still frame is what a reader sees first.
  return { key, type, url: found?.url ?? found?.preview_image_url ?? null, altText: found?.alt_text ?? null };
}

/** The article's id from its link (`x.com/i/article/<id>`), else the carrying post's. */
function articleIdOf(tweet: XTweet, text: string): string {
  const links = (tweet.entities?.urls ?? []).map((url) => url.expanded_url ?? "");
  for (const candidate of [...links, text]) {
    const match = ARTICLE_LINK.exec(candidate);
    if (match) return match[1];
  }
  return tweet.id;
}
