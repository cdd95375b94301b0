/**
 * The population baseline of the viral score (spec: with fewer than 10 usable posts
 * `baseline.kind` is `population` and `expected` is null): a typical post at the
 * author's follower tier (`expectedEngagementRate`, the curve the world's engagement
 * follows), moved by the feature priors (`viral_priors.ts`), with a log-normal spread
 * around it. The spread is Threadline's choice, stated here, not fitted.
 */
import { expectedEngagementRate } from "../network/engagement_rate.ts";
import { VIRAL_FEATURES } from "./viral_features.ts";
import { CONFIDENCE, effectOf, round2, split, type CounterEstimate } from "./viral_estimate.ts";
import { COUNTERS, type Counter } from "./viral_model.ts";
import { priorEffect } from "./viral_priors.ts";

/** Log-scale spread of engagement around a tier's typical post. */
const SIGMA = 0.75;
const Z75 = 0.6745;
const Z90 = 1.2816;

/** The population estimate for a feature row and the author's follower count. */
export function populationEstimate(row: readonly number[], followers: number) {
  // Against a typical post: no flags set, an average hook (0.5); length has no prior.
  const effects = VIRAL_FEATURES.map((feature, j) =>
    effectOf(feature.name, feature.label, (counter) => priorEffect(feature.name, counter, feature.name === "hook" ? row[j] - 0.5 : row[j])),
  );
  const counters = {} as Record<Counter, CounterEstimate>;
  let likesLog = 0;
  for (const counter of COUNTERS) {
    const centre = effects.reduce((sum, entry) => sum + Math.log(entry.by_counter[counter]), 0);
    if (counter === "likes") likesLog = centre;
    counters[counter] = {
      median_multiple: round2(Math.exp(centre)),
      p75: round2(Math.exp(centre + Z75 * SIGMA)),
      p90: round2(Math.exp(centre + Z90 * SIGMA)),
      expected: null,
      confidence: CONFIDENCE[counter],
    };
  }
  const rate = expectedEngagementRate(followers);
  return {
    counters,
    score: Math.round(100 * normalCdf(likesLog / SIGMA)),
    ...split(effects),
    tier: { followers, engagement_rate: Math.round(rate * 1e5) / 1e5, typical_engagements: Math.round(followers * rate) },
  };
}

/** Standard normal CDF (Abramowitz-Stegun 7.1.26, error under 1.5e-7). */
function normalCdf(x: number): number {
  const t = 1 / (1 + 0.3275911 * (Math.abs(x) / Math.SQRT2));
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-(x * x) / 2);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}
