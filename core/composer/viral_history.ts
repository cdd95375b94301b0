/**
 * The account's own posts the viral score learns from (spec: "originals from the past
 * 90 days, excluding the last 3 days"; the last 3 are left out because counts are
 * still arriving). Reading the account's own posts is not a live lookup.
 */
import type { AccountContext } from "../context.ts";
import { callNetwork } from "../network/call_network.ts";
import type { NetworkPost } from "../network/network_records.ts";
import { viralFeatureRow } from "./viral_features.ts";
import type { HistoryPost } from "./viral_model.ts";
import { DAY_MS } from "../time/durations.ts";
import { pageWalker } from "../network/page_walker.ts";

/** Pages of 100 read at most (a very active account's 90 days are cut at 500 posts). */
const MAX_PAGES = 5;

/** The usable history of the context's account and the window it came from. */
export async function accountHistory(ctx: AccountContext): Promise<{ posts: HistoryPost[]; since: string; until: string }> {
  const now = ctx.services.clock.now();
  const since = new Date(now - 90 * DAY_MS).toISOString();
  const until = new Date(now - 3 * DAY_MS).toISOString();
  const originals: NetworkPost[] = [];
  const readPage = (cursor: string | undefined) =>
    callNetwork(() => ctx.services.network.timeline(ctx.account.id, { since, until, limit: 100, cursor, excludeReplies: true, excludeReposts: true }));
  await pageWalker(MAX_PAGES).walk("timeline", readPage, undefined, (post) => {
    if (post.kind === "post" && !post.isThreadContinuation) originals.push(post);
  });
  const posts = originals.map((post) => ({
    row: viralFeatureRow(post.text, {
      image: post.media.some((media) => media.type === "photo"),
      video: post.media.some((media) => media.type === "video" || media.type === "animated_gif"),
    }),
    counts: {
      likes: post.metrics.likes,
      replies: post.metrics.replies,
      reposts_and_quotes: post.metrics.reposts + post.metrics.quotes,
      views: post.metrics.impressions,
    },
    at: Date.parse(post.createdAt),
  }));
  // Oldest first, so the back-test folds are spread over time.
  posts.sort((a, b) => a.at - b.at);
  return { posts, since, until };
}
