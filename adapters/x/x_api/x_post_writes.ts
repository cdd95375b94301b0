/**
 * Publishing, deleting and reposting with a user-context token: `POST /2/tweets`
 * (`text`, `reply.in_reply_to_tweet_id`, `quote_tweet_id`, `media.media_ids`),
 * `DELETE /2/tweets/:id`, `POST /2/users/:id/retweets`, `DELETE
 * /2/users/:id/retweets/:tweet_id`. Neither write answers the full post, so each reads
 * it back (a repost by finding it on the reposter's timeline: X answers only
 * `retweeted: true`).
 *
 * X has no client tokens. A publish with a token is made idempotent in two ways: this
 * process remembers the token's post, and, after a restart, the author's posts of the
 * last 24 hours are searched for the same text answering the same post (X itself
 * refuses identical text as "duplicate content", and that refusal is reconciled the
 * same way). So `publishThreadParts` resumes a thread: `findPublished(token)` knows
 * the parts this process published, and `publishPost` finds the others by their text.
 */
import { NetworkNotFoundError, NetworkRejectedError, NetworkUpstreamError } from "../../../core/network/network_errors.ts";
import type { NetworkPost } from "../../../core/network/network_records.ts";
import type { PublishPostInput, SocialNetwork } from "../../../core/network/social_network.ts";
import type { XApiContext } from "./x_api_context.ts";
import type { XActor } from "./x_api_client.ts";
import { TWEET_PARAMS } from "./x_api_fields.ts";
import type { XTweet } from "./x_api_types.ts";
import { isXId, xId } from "./x_ids.ts";
import { postFromX } from "./x_post_record.ts";
import { DAY_MS } from "../../../core/time/durations.ts";

/** Pages of 100 of the author's posts searched when reconciling by text. */
const RECONCILE_PAGES = 3;

/** The port's post writes over X. */
export function xPostWrites(ctx: XApiContext): Pick<SocialNetwork, "publishPost" | "findPublished" | "deletePost" | "repost" | "undoRepost"> {
  const { client } = ctx;
  // Client tokens of this process's publishes (`<author>:<token>` -> post id).
  const published = new Map<string, string>();
  const readOwn = async (id: string, actor: XActor | undefined) => {
    const body = await client.data<XTweet>({
      path: `/2/tweets/${xId(id, "post")}`,
      query: TWEET_PARAMS,
      actingAs: actor,
      subject: { resource: "post", ref: id },
    });
    return postFromX(body.data, body.includes);
  };

  /** The author's newest post since `sinceMs` that `matches`, read from their own timeline. */
  const findOwn = async (authorId: string, sinceMs: number, actor: XActor | undefined, matches: (post: NetworkPost) => boolean) => {
    const start_time = new Date(Math.floor(sinceMs / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
    let token: string | undefined;
    for (let page = 0; page < RECONCILE_PAGES; page++) {
      const body = await client.list<XTweet>({
        path: `/2/users/${xId(authorId, "user")}/tweets`,
        query: { ...TWEET_PARAMS, start_time, max_results: 100, pagination_token: token },
        actingAs: actor,
        subject: { resource: "user", ref: authorId },
      });
      const found = body.data.map((tweet) => postFromX(tweet, body.includes)).find(matches);
      if (found || !body.meta?.next_token) return found;
      token = body.meta.next_token;
    }
    return undefined;
  };
  const sameText = (input: PublishPostInput) => (post: NetworkPost) =>
    post.text.trim() === input.text.trim() && post.replyToId === (input.replyToId ?? null) && post.quotedId === (input.quoteOfId ?? null);

  return {
    async publishPost(input) {
      const actor = await ctx.actorFor(input.authorId);
      const key = input.token === undefined ? undefined : `${input.authorId}:${input.token}`;
      const reconcile = async () => {
        const landed = key === undefined ? undefined : await findOwn(input.authorId, ctx.clock.now() - DAY_MS, actor, sameText(input));
        if (landed && key !== undefined) published.set(key, landed.id);
        return landed;
      };
      if (key !== undefined) {
        const known = published.get(key);
        if (known) return readOwn(known, actor);
        const landed = await reconcile();
        if (landed) return landed;
      }
      const mediaIds = input.mediaKeys ?? [];
      if (!mediaIds.every(isXId)) {
        throw new NetworkRejectedError(
          "invalid",
          "X attaches media by the media id its upload endpoint (POST /2/media/upload) returns; these keys are not X media ids",
        );
      }
      const body = {
        text: input.text,
        ...(input.replyToId === undefined ? {} : { reply: { in_reply_to_tweet_id: input.replyToId } }),
        ...(input.quoteOfId === undefined ? {} : { quote_tweet_id: input.quoteOfId }),
        ...(mediaIds.length === 0 ? {} : { media: { media_ids: mediaIds } }),
      };
      let id: string;
      try {
        const created = await client.data<{ id: string }>({
          method: "POST",
          path: "/2/tweets",
          body,
          actingAs: actor,
          subject: { resource: "post", ref: input.replyToId ?? input.quoteOfId ?? "" },
        });
        id = created.data.id;
      } catch (error) {
        // X refuses identical text: with a token, that is a retry of a post that landed.
        const landed = error instanceof NetworkRejectedError && error.reason === "duplicate" ? await reconcile() : undefined;
        if (landed) return landed;
        throw error;
      }
      if (key !== undefined) published.set(key, id);
      // The post exists now: a failed read-back must not report the publish as failed (a retry would double it).
      return readOwn(id, actor).catch(() => sentPost(id, input, ctx.clock.now()));
    },

    async findPublished(query) {
      const actor = await ctx.actorFor(query.authorId).catch(() => undefined);
      if (query.token !== undefined) {
        const known = published.get(`${query.authorId}:${query.token}`);
        if (!known) return undefined;
        return readOwn(known, actor).catch((error: unknown) => {
          if (error instanceof NetworkNotFoundError) return undefined;
          throw error;
        });
      }
      if (query.text === undefined) return undefined;
      const since = query.since === undefined ? Number.NaN : Date.parse(query.since);
      const text = query.text.trim();
      return findOwn(query.authorId, Number.isNaN(since) ? ctx.clock.now() - DAY_MS : since, actor, (post) => post.text.trim() === text);
    },

    async deletePost(authorId, postId) {
      const actor = await ctx.actorFor(authorId);
      try {
        await client.request({ method: "DELETE", path: `/2/tweets/${xId(postId, "post")}`, actingAs: actor, subject: { resource: "post", ref: postId } });
      } catch (error) {
        // X cannot tell "already deleted" from "never existed"; the port makes a repeat delete a no-op.
        if (!(error instanceof NetworkNotFoundError)) throw error;
      }
    },

    async repost(userId, postId) {
      const actor = await ctx.actorFor(userId);
      const path = `/2/users/${xId(userId, "user")}/retweets`;
      const done = await client.data<{ retweeted?: boolean; rest_id?: string }>({
        method: "POST",
        path,
        body: { tweet_id: xId(postId, "post") },
        actingAs: actor,
        subject: { resource: "post", ref: postId },
      });
      if (done.data.rest_id) return readOwn(done.data.rest_id, actor);
      const repost = await findOwn(userId, ctx.clock.now() - 7 * DAY_MS, actor, (post) => post.repostedId === postId);
      if (!repost) throw new NetworkUpstreamError(`X accepted the repost of "${postId}" but does not list it yet`);
      return repost;
    },

    async undoRepost(userId, postId) {
      const actor = await ctx.actorFor(userId);
      const path = `/2/users/${xId(userId, "user")}/retweets/${xId(postId, "post")}`;
      try {
        await client.request({ method: "DELETE", path, actingAs: actor, subject: { resource: "post", ref: postId } });
      } catch (error) {
        if (!(error instanceof NetworkNotFoundError)) throw error;
      }
    },
  };
}

/** The post as sent, for when X has it but does not show it yet (read-after-write lag). */
function sentPost(id: string, input: PublishPostInput, nowMs: number): NetworkPost {
  return {
    id,
    authorId: input.authorId,
    text: input.text,
    createdAt: new Date(nowMs).toISOString(),
    kind: input.replyToId ? "reply" : input.quoteOfId ? "quote" : "post",
    conversationId: input.replyToId ?? id,
    replyToId: input.replyToId ?? null,
    replyToUserId: null,
    quotedId: input.quoteOfId ?? null,
    repostedId: null,
    isThreadContinuation: false,
    mentionedUserIds: [],
    lang: "und",
    metrics: { likes: 0, replies: 0, reposts: 0, quotes: 0, impressions: 0, bookmarks: 0 },
    media: (input.mediaKeys ?? []).map((key) => ({ key, type: "photo" as const, url: null, altText: null })),
    article: null,
  };
}
