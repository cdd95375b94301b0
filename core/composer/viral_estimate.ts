/**
 * The viral score's answer from a fitted model (supplement: Content, viral-score):
 * per counter a median multiple with `p75` and `p90` (multiples of the account's
 * median post, on counts + 1 so a median of 0 replies still divides) and `expected`
 * (the median count); `helped` and `hurt` name each feature's effect on likes; `score`
 * is the chance, 0-100, that the draft beats the account's median post.
 */
import { quantile } from "./ridge_regression.ts";
import { VIRAL_FEATURES } from "./viral_features.ts";
import { centreOf, contributions, COUNTERS, timingEffects, usesPrior, type AccountModel, type Counter } from "./viral_model.ts";

/** One counter's estimate. */
export interface CounterEstimate {
  median_multiple: number;
  p75: number;
  p90: number;
  expected: number | null;
  /** Spec: `reposts_and_quotes` and `views` carry `confidence: low`. */
  confidence: "normal" | "low";
}

/** A feature that moved the estimate: `effect` multiplies expected likes, `by_counter` each counter. */
export interface FeatureEffect {
  feature: string;
  label: string;
  effect: number;
  by_counter: Record<Counter, number>;
}

/** Effects smaller than this (0.5%) are not listed. */
const NOISE = 0.005;

/** The confidence of each counter (spec: repost+quote and view counts are low confidence). */
export const CONFIDENCE: Record<Counter, "normal" | "low"> = { likes: "normal", replies: "normal", reposts_and_quotes: "low", views: "low" };

/** Rounds to 2 decimals. */
export const round2 = (value: number) => Math.round(value * 100) / 100;

/** The estimate of `row` posted at `at` by the account `model` was fitted on. */
export function accountEstimate(model: AccountModel, row: readonly number[], at: number | undefined) {
  const counters = {} as Record<Counter, CounterEstimate>;
  for (const counter of COUNTERS) {
    const fit = model[counter];
    const centre = centreOf(fit, row, at);
    const count = (q: number) => Math.max(0, Math.expm1(centre + quantile(fit.residuals, q)));
    const multiple = (value: number) => round2((value + 1) / (fit.median + 1));
    counters[counter] = {
      median_multiple: multiple(count(0.5)),
      p75: multiple(count(0.75)),
      p90: multiple(count(0.9)),
      expected: Math.round(count(0.5)),
      confidence: CONFIDENCE[counter],
    };
  }
  const likes = model.likes;
  const bar = Math.log1p(likes.median);
  const centre = centreOf(likes, row, at);
  const score = Math.round((100 * likes.residuals.filter((residual) => centre + residual > bar).length) / Math.max(likes.residuals.length, 1));

  const perCounter = Object.fromEntries(COUNTERS.map((counter) => [counter, contributions(model[counter], row)])) as Record<Counter, number[]>;
  const timing = Object.fromEntries(COUNTERS.map((counter) => [counter, timingEffects(model[counter], at)])) as Record<
    Counter,
    { hour: number; weekday: number }
  >;
  const effects: FeatureEffect[] = VIRAL_FEATURES.map((feature, j) => {
    const label = usesPrior(likes, row, j) ? `${feature.label} (population prior: the account's posts never differ in this)` : feature.label;
    return effectOf(feature.name, label, (counter) => perCounter[counter][j]);
  });
  if (at !== undefined) {
    const hour = new Date(at).getUTCHours();
    effects.push(effectOf("hour", `Posting at ${String(hour).padStart(2, "0")}:00 UTC, against the account's other hours`, (counter) => timing[counter].hour));
    effects.push(
      effectOf("weekday", `Posting on ${WEEKDAYS[new Date(at).getUTCDay()]}, against the account's other days`, (counter) => timing[counter].weekday),
    );
  }
  return { counters, score, ...split(effects) };
}

/** Effects above the noise floor, strongest first: `helped` above 1, `hurt` below. */
export function split(effects: FeatureEffect[]): { helped: FeatureEffect[]; hurt: FeatureEffect[] } {
  const listed = effects.filter((entry) => Math.abs(entry.effect - 1) >= NOISE).sort((a, b) => Math.abs(Math.log(b.effect)) - Math.abs(Math.log(a.effect)));
  return { helped: listed.filter((entry) => entry.effect > 1), hurt: listed.filter((entry) => entry.effect < 1) };
}

/** A feature's effect from its log-scale contribution per counter. */
export function effectOf(feature: string, label: string, logEffect: (counter: Counter) => number): FeatureEffect {
  const by_counter = Object.fromEntries(COUNTERS.map((counter) => [counter, round3(Math.exp(logEffect(counter)))])) as Record<Counter, number>;
  return { feature, label, effect: by_counter.likes, by_counter };
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
