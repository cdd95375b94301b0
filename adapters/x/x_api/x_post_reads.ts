/**
 * Posts by id and what answers a post: `GET /2/tweets/:id`, `/2/tweets?ids=` (100 a
 * request), replies, and `/2/tweets/:id/quote_tweets`. X has no replies endpoint:
 * replies are recent search's `in_reply_to_tweet_id:<id>` (direct replies only, so no
 * `conversation_id:` sweep and filter), which reaches 7 days back like all recent
 * search; `sort: "relevance"` asks X's `sort_order=relevancy`, X's own ranking rather
 * than the simulated network's most-liked-first.
 */
import type { NetworkPost } from "../../../core/network/network_records.ts";
import type { SocialNetwork } from "../../../core/network/social_network.ts";
import type { XApiContext } from "./x_api_context.ts";
import type { XActor } from "./x_api_client.ts";
import { TWEET_PARAMS } from "./x_api_fields.ts";
import type { XTweet } from "./x_api_types.ts";
import { isXId, xId } from "./x_ids.ts";
import { readPostPage } from "./x_page_reads.ts";
import { planPage } from "./x_paging.ts";
import { postFromX } from "./x_post_record.ts";

const BATCH = 100;

/** The port's post reads over X. */
export function xPostReads(ctx: XApiContext): Pick<SocialNetwork, "postById" | "postsByIds" | "replies" | "quotes"> {
  const { client } = ctx;
  const postById = async (id: string, actor?: XActor): Promise<NetworkPost> => {
    const body = await client.data<XTweet>({
      path: `/2/tweets/${xId(id, "post")}`,
      query: TWEET_PARAMS,
      actingAs: actor,
      subject: { resource: "post", ref: id },
    });
    return postFromX(body.data, body.includes);
  };
  return {
    postById: (id) => postById(id),
    async postsByIds(ids) {
      const wanted = [...new Set(ids.filter(isXId))];
      const found = new Map<string, NetworkPost>();
      for (let start = 0; start < wanted.length; start += BATCH) {
        const chunk = wanted.slice(start, start + BATCH);
        // Missing and protected posts come back as partial errors (alone, when none is readable): left out.
        const body = await client.request<XTweet[]>({
          path: "/2/tweets",
          query: { ...TWEET_PARAMS, ids: chunk.join(",") },
          subject: { resource: "post", ref: chunk[0] },
        });
        for (const tweet of body.data ?? []) found.set(tweet.id, postFromX(tweet, body.includes));
      }
      return ids.flatMap((id) => found.get(id) ?? []);
    },
    async replies(postId, options = {}) {
      const plan = planPage(options, 20, 100, { min: 10, max: 100 });
      const query = { query: `in_reply_to_tweet_id:${xId(postId, "post")}`, sort_order: options.sort === "relevance" ? "relevancy" : undefined };
      const page = await readPostPage(ctx, { path: "/2/tweets/search/recent", query, subject: { resource: "post", ref: postId } }, plan, "next_token");
      // Search answers nothing for a missing or protected post: only then ask which it is.
      if (page.items.length === 0 && options.cursor === undefined) await postById(postId);
      return page;
    },
    quotes: async (postId, page = {}) =>
      readPostPage(
        ctx,
        { path: `/2/tweets/${xId(postId, "post")}/quote_tweets`, subject: { resource: "post", ref: postId } },
        planPage(page, 20, 100, { min: 10, max: 100 }),
      ),
  };
}
