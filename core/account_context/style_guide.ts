/**
 * `POST /v1/context/style-guide/regenerate` (spec: free AI call; "reads stored posts,
 * or live when fewer than 5 recent posts are stored"; Limits 11: the live fallback
 * uses up to 4 requests, at most 3 attempts per account per day, and draws on the
 * platform ceiling; supplement 3.2: once per hour per account; `400 not_enough_posts`).
 * Stored posts are the account's synced timeline of the last 90 days; the live
 * fallback reads further back.
 */
import type { AccountContext } from "../context.ts";
import { ApiError, retryableError } from "../errors.ts";
import { requireAllowances } from "../limits/allowances.ts";
import { PLATFORM_LIVE_DATA, STYLE_GUIDE_LIVE_ATTEMPTS } from "../limits/allowance_catalog.ts";
import { actionCapError } from "../limits/allowance_errors.ts";
import { callNetwork } from "../network/call_network.ts";
import type { NetworkPost } from "../network/network_records.ts";
import { modelApiError } from "../model/model_api_error.ts";
import { saveStyleGuide } from "./context_queries.ts";
import { DAY_MS } from "../time/durations.ts";
import { pageWalker } from "../network/page_walker.ts";

/** Posts a guide needs (spec: "fewer than 5 recent posts" falls back to live). */
export const MIN_POSTS = 5;
const STORED_DAYS = 90;
const LIVE_REQUESTS = 4;

/** Writes a new generated guide from the account's posts and answers it. */
export async function regenerateStyleGuide(ctx: AccountContext) {
  await oncePerHour(ctx);
  const now = ctx.services.clock.now();
  const since = new Date(now - STORED_DAYS * DAY_MS).toISOString();
  let posts = await originals(ctx, { since, pages: 1 });
  let source: "stored" | "live" = "stored";
  if (posts.length < MIN_POSTS) {
    const live = [
      { spec: STYLE_GUIDE_LIVE_ATTEMPTS, units: 1 },
      { spec: PLATFORM_LIVE_DATA, units: LIVE_REQUESTS },
    ];
    await requireAllowances(ctx, ctx.principal.mainAccountId, live, actionCapError);
    posts = await originals(ctx, { pages: LIVE_REQUESTS });
    source = "live";
  }
  if (posts.length < MIN_POSTS) {
    throw new ApiError("not_enough_posts", `A style guide needs at least ${MIN_POSTS} original posts; the account has ${posts.length}`);
  }
  let text: string;
  try {
    ({ text } = await ctx.services.model.generate({ task: "style_guide", input: { posts: posts.map((post) => post.text) } }));
  } catch (error) {
    throw modelApiError(error) ?? error;
  }
  const generatedAt = await saveStyleGuide(ctx.services.sql, ctx.account.id, text);
  return { data: { generated: text, generated_at: generatedAt.toISOString(), posts_used: posts.length, source } };
}

async function originals(ctx: AccountContext, options: { since?: string; pages: number }): Promise<NetworkPost[]> {
  const posts: NetworkPost[] = [];
  const readPage = (cursor: string | undefined) =>
    callNetwork(() => ctx.services.network.timeline(ctx.account.id, { limit: 100, cursor, since: options.since, excludeReplies: true, excludeReposts: true }));
  await pageWalker(options.pages).walk("timeline", readPage, undefined, (post) => {
    if (post.kind === "post" && !post.isThreadContinuation) posts.push(post);
  });
  return posts;
}

/** Supplement 3.2: "once per hour per account". */
async function oncePerHour(ctx: AccountContext): Promise<void> {
  const now = ctx.services.clock.now();
  const check = { key: `sg:${ctx.account.id}`, limit: 1, windowSeconds: 3_600, cost: 1 };
  const result = await ctx.services.requestCounters.consume([check], now);
  if (!result.allowed) {
    const retryAfter = result.windows[0].resetAt - Math.floor(now / 1000);
    throw retryableError(
      "rate_limited",
      `The style guide of account "${ctx.account.id}" can be regenerated once an hour; retry in ${Math.max(1, retryAfter)} s`,
      retryAfter,
    );
  }
}
