/**
 * Time-ordered lists: a user's posts (`GET /2/users/:id/tweets`, `exclude=replies,
 * retweets`), their mentions (`/2/users/:id/mentions`) and recent search
 * (`/2/tweets/search/recent`), all newest first with `start_time` / `end_time`
 * (x_time_window.ts). X's `exclude=replies` keeps an author's answers to their own
 * posts, which is the port's rule too (thread continuations stay).
 */
import type { SocialNetwork } from "../../../core/network/social_network.ts";
import type { XApiContext } from "./x_api_context.ts";
import { xId } from "./x_ids.ts";
import { readPostPage } from "./x_page_reads.ts";
import { planPage } from "./x_paging.ts";
import { recentSearchQuery } from "./x_search_query.ts";
import { timeWindow } from "./x_time_window.ts";
import { DAY_MS } from "../../../core/time/durations.ts";

/** How far back recent search reaches on X. */
export const SEARCH_WINDOW_DAYS = 7;

// X refuses a start_time past its 7 days at the moment it reads the request: a minute of slack.
const SEARCH_SLACK_MS = 60_000;

/** The port's timeline, mentions and search over X. */
export function xTimelineReads(ctx: XApiContext): Pick<SocialNetwork, "timeline" | "mentions" | "search"> {
  return {
    async timeline(userId, options = {}) {
      const plan = planPage(options, 20, 100, { min: 5, max: 100 });
      const window = timeWindow(options, ctx.clock.now());
      if (window.empty) return { items: [] };
      const exclude = [...(options.excludeReplies ? ["replies"] : []), ...(options.excludeReposts ? ["retweets"] : [])].join(",");
      const path = `/2/users/${xId(userId, "user")}/tweets`;
      return readPostPage(
        ctx,
        { path, query: { ...window.params, exclude }, subject: { resource: "user", ref: userId } },
        plan,
        "pagination_token",
        (post) => window.contains(post.createdAt) && !(options.excludeReplies && post.kind === "reply") && !(options.excludeReposts && post.kind === "repost"),
      );
    },
    async mentions(userId, options = {}) {
      const plan = planPage(options, 20, 100, { min: 5, max: 100 });
      const window = timeWindow(options, ctx.clock.now());
      if (window.empty) return { items: [] };
      const path = `/2/users/${xId(userId, "user")}/mentions`;
      return readPostPage(ctx, { path, query: window.params, subject: { resource: "user", ref: userId } }, plan, "pagination_token", (post) =>
        window.contains(post.createdAt),
      );
    },
    async search(options) {
      const plan = planPage(options, 20, 100, { min: 10, max: 100 });
      const query = recentSearchQuery(options);
      const now = ctx.clock.now();
      const window = timeWindow(options, now, now - SEARCH_WINDOW_DAYS * DAY_MS + SEARCH_SLACK_MS);
      if (query === undefined || window.empty) return { items: [] };
      const minLikes = options.minLikes ?? 0;
      return readPostPage(
        ctx,
        { path: "/2/tweets/search/recent", query: { query, ...window.params }, subject: { resource: "post", ref: options.query } },
        plan,
        "next_token",
        (post) => window.contains(post.createdAt) && post.metrics.likes >= minLikes,
      );
    },
  };
}
