/**
 * `POST /v1/posts/triage` (spec: Other endpoints; AI credits; Limits 8 and 11; Errors,
 * Special cases). The order of checks, all or nothing:
 *
 * 1. Credits: the credit step refuses up front when fewer than 2 remain (metered 2).
 * 2. ONE allowance call takes, together, 1 run of the plan's daily cap, 1 or 2 live
 *    lookups (single word / multi-word, Limits 8) and as many units of the platform
 *    ceiling (Limits 11). If any is full none is taken. The answer names the account's
 *    own allowance first: the cap -> `429 ai_action_limited` scope account; the live
 *    allowance -> bare `429 lookup_quota_exceeded` (code and message only); only the
 *    platform ceiling -> `429 ai_action_limited` scope platform.
 * 3. The search. Unreachable network -> every unit is given back and no credit kept.
 * 4. Judging, then 2 credits kept only when posts were found ("none when nothing is
 *    found"). A run that found nothing still used its lookups and its cap slot: the
 *    search was made.
 */
import type { AccountContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { chargeCall } from "../credits/credit_call.ts";
import { consumeAllowances, releaseAllowances } from "../limits/allowances.ts";
import { dailyActionCap, LIVE_LOOKUPS, PLATFORM_LIVE_DATA } from "../limits/allowance_catalog.ts";
import { actionCapError, lookupQuotaError } from "../limits/allowance_errors.ts";
import type { AllowanceRefusal } from "../limits/allowance_outcome.ts";
import { networkApiError } from "../network/network_api_error.ts";
import type { NetworkPost, NetworkUser } from "../network/network_records.ts";
import { postUrl } from "../network/post_url.ts";
import type { TriageInput } from "./posts_analysis_schema.ts";
import { textFeatures } from "./text_features.ts";
import { judgePost } from "./triage_classifier.ts";
import { laneOf } from "./triage_lanes.ts";
import { isMultiWord, searchTopic } from "./triage_search.ts";
import { wordRarity } from "./word_rarity.ts";

/** Credits per run that found posts (spec AI credits: "a flat 2 credits per run"). */
export const TRIAGE_CREDITS = 2;

/** Posts returned at most (spec: "up to 40 recent public posts"). */
const MAX_POSTS = 40;

/** Questions each judged post answers (the six `answers`). */
const QUESTIONS = 6;

/** Runs triage for `query` over the last `max_age_days`. */
export async function triage(ctx: AccountContext, input: TriageInput) {
  const started = performance.now();
  const owner = ctx.principal.mainAccountId;
  const units = isMultiWord(input.query) ? 2 : 1;
  const charges = [
    { spec: dailyActionCap("triage", ctx.principal.plan.id), units: 1 },
    { spec: LIVE_LOOKUPS, units },
    { spec: PLATFORM_LIVE_DATA, units },
  ];
  const outcome = await consumeAllowances(ctx, owner, charges);
  if (outcome.status !== "allowed") throw refusalError(outcome);

  let posts: NetworkPost[];
  let authors: Map<string, NetworkUser>;
  try {
    posts = await searchTopic(ctx, input.query, input.max_age_days);
    const users = posts.length > 0 ? await ctx.services.network.usersByIds([...new Set(posts.map((post) => post.authorId))]) : [];
    authors = new Map(users.map((user) => [user.id, user]));
  } catch (error) {
    const failure = networkApiError(error);
    // Nothing was read: the run costs nothing (cap slot and lookups back, credits refunded by the credit step).
    if (failure instanceof ApiError && (failure.code === "upstream_unavailable" || failure.code === "upstream_timeout")) {
      await releaseAllowances(ctx, owner, charges, { chargedAt: outcome.checkedAt });
    }
    throw failure;
  }

  const features = posts.map((post) => textFeatures(post.text));
  const rarity = wordRarity(features.map((feature) => feature.contentWords));
  const judged = posts.map((post, i) => ({ post, verdict: judgePost(post.text, features[i], rarity[i]) }));
  judged.sort((a, b) => b.verdict.score - a.verdict.score);
  const credits = judged.length > 0 ? TRIAGE_CREDITS : 0;
  if (credits > 0) await chargeCall(ctx, credits);

  return {
    data: {
      query: input.query,
      max_age_days: input.max_age_days,
      posts: judged.slice(0, MAX_POSTS).map(({ post, verdict }) => ({
        id: post.id,
        url: postUrl(authors.get(post.authorId)?.username ?? "i", post.id),
        text: post.text,
        created_at: post.createdAt,
        ...laneOf(verdict.score),
        kind: verdict.kind,
        answers: verdict.answers,
        signals: verdict.signals,
        metrics: {
          likes: post.metrics.likes,
          replies: post.metrics.replies,
          reposts: post.metrics.reposts,
          quotes: post.metrics.quotes,
          views: post.metrics.impressions,
        },
        author: authorBlock(post.authorId, authors.get(post.authorId)),
      })),
      posts_searched: posts.length,
      receipt: {
        posts_judged: judged.length,
        questions_answered: judged.length * QUESTIONS,
        ms: Math.round(performance.now() - started),
        // The judge is the rule set above; no model is called, so nothing is spent on one.
        model_spend: 0,
        judge: "measured text features",
      },
    },
    meta: { credits_charged: credits, account_id: ctx.account.id, live_lookups: units },
  };
}

/** The error for a refused allowance call (see the order above). */
function refusalError(refusal: AllowanceRefusal): ApiError {
  if (refusal.status === "refused" && refusal.blocked.name === LIVE_LOOKUPS.name) return lookupQuotaError(refusal, { bare: true });
  // The plan's cap (scope account), the platform ceiling (scope platform), or counters
  // that cannot answer (rule 9: refused, answered as a short platform wait).
  return actionCapError(refusal);
}

function authorBlock(id: string, user: NetworkUser | undefined) {
  return {
    id,
    username: user?.username ?? null,
    name: user?.name ?? null,
    avatar_url: user?.avatarUrl ?? null,
    followers_count: user?.followersCount ?? null,
    verified: user?.verified ?? false,
  };
}
