/**
 * `POST /v1/posts/viral-score` (spec: Other endpoints; AI credits; supplement: Content).
 * Order: the daily cap (1 run of `viral_score_runs`; full -> `429 ai_action_limited`
 * scope account), then the reads (unreachable network -> the run is given back), then
 * the estimate, then credits. Credits, made deterministic from the spec's "most calls
 * 0 credits, about one in ten 1 credit, first call per account 1 extra": every 10th
 * run of the owner's UTC day costs 1 (the cap counter's count after this run), and the
 * owner's first run ever costs 1 more (migration 0009).
 */
import type { AccountContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { chargeCall } from "../credits/credit_call.ts";
import { releaseAllowances, requireAllowances } from "../limits/allowances.ts";
import { dailyActionCap } from "../limits/allowance_catalog.ts";
import { actionCapError } from "../limits/allowance_errors.ts";
import { callNetwork } from "../network/call_network.ts";
import { accountEstimate, round2 } from "./viral_estimate.ts";
import { viralFeatureRow } from "./viral_features.ts";
import { accountHistory } from "./viral_history.ts";
import { backtest, bestHours, COUNTERS, fitAccountModel, type HistoryPost } from "./viral_model.ts";
import type { ViralScoreInput } from "./posts_analysis_schema.ts";
import { populationEstimate } from "./viral_population.ts";
import { viralWarnings } from "./viral_warnings.ts";
import { recordFirstCall } from "./viral_score_queries.ts";

/** Usable posts below which the baseline is the population (spec: "fewer than 10 usable posts"). */
export const MIN_BASELINE_POSTS = 10;

/** Every this-many runs of a day costs 1 credit (spec: "about one in ten 1 credit"). */
const PAID_EVERY = 10;

/** Scores a draft against the account's own history (or the population). */
export async function viralScore(ctx: AccountContext, input: ViralScoreInput) {
  const owner = ctx.principal.mainAccountId;
  const cap = [{ spec: dailyActionCap("viral_score", ctx.principal.plan.id), units: 1 }];
  const outcome = await requireAllowances(ctx, owner, cap, actionCapError);
  const runOfDay = outcome.allowances[0].used;

  let history: { posts: HistoryPost[]; since: string; until: string };
  let followers: number;
  try {
    history = input.baseline === "account" ? await accountHistory(ctx) : { posts: [], since: "", until: "" };
    followers = (await callNetwork(() => ctx.services.network.userById(ctx.account.id))).followersCount;
  } catch (error) {
    if (error instanceof ApiError && (error.code === "upstream_unavailable" || error.code === "upstream_timeout")) {
      await releaseAllowances(ctx, owner, cap, { chargedAt: outcome.checkedAt });
    }
    throw error;
  }

  const row = viralFeatureRow(input.text, { image: input.has_image ?? false, video: input.has_video ?? false });
  const at = input.post_at === undefined ? undefined : Date.parse(input.post_at);
  const usable = history.posts.length;
  const fromAccount = input.baseline === "account" && usable >= MIN_BASELINE_POSTS;
  const population = populationEstimate(row, followers);
  const model = fromAccount ? fitAccountModel(history.posts) : undefined;
  const estimate = model ? accountEstimate(model, row, at) : population;
  const tested = model ? backtest(history.posts) : undefined;

  const credits = (runOfDay % PAID_EVERY === 0 ? 1 : 0) + ((await recordFirstCall(ctx.services.sql, owner, new Date(ctx.services.clock.now()))) ? 1 : 0);
  if (credits > 0) await chargeCall(ctx, credits);

  return {
    data: {
      score: estimate.score,
      counters: estimate.counters,
      helped: estimate.helped,
      hurt: estimate.hurt,
      warnings: viralWarnings(input, { now: ctx.services.clock.now(), usable, fromAccount }),
      // Share of held-out posts whose "beats the account's median?" the model called right.
      accuracy: tested ? round2(tested.direction) : null,
      backtest: tested
        ? { method: "5-fold, likes", held_out_posts: tested.heldOut, direction_hit_rate: round2(tested.direction), within_p25_p75: round2(tested.band) }
        : null,
      baseline: {
        kind: fromAccount ? ("account" as const) : ("population" as const),
        requested: input.baseline,
        posts_used: fromAccount ? usable : 0,
        usable_posts: usable,
        window: input.baseline === "account" ? { since: history.since, until: history.until } : null,
        medians: model ? Object.fromEntries(COUNTERS.map((counter) => [counter, model[counter].median])) : null,
        best_hours_utc: model ? bestHours(model.likes) : null,
        tier: population.tier,
      },
    },
    meta: { credits_charged: credits, account_id: ctx.account.id },
  };
}
