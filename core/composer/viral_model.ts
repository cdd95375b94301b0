/**
 * The account model of the viral score (supplement: Content, viral-score). For each
 * counter, a ridge regression of log(1 + count) on the measured features of the
 * account's own posts; the spread of its residuals gives the p25-p90 band; posting
 * hour and weekday enter as the account's own mean residual at that time, shrunk
 * toward 0 by how few posts back it (n / (n + 5)). A feature the history never varies
 * in falls back to the population prior (`viral_priors.ts`).
 */
import { fitRidge, predictRidge, quantile, standardise, type RidgeModel } from "./ridge_regression.ts";
import { VIRAL_FEATURES } from "./viral_features.ts";
import { priorEffect } from "./viral_priors.ts";

/** The counters scored (spec: likes, replies, reposts+quotes, views). */
export const COUNTERS = ["likes", "replies", "reposts_and_quotes", "views"] as const;

/** One of `COUNTERS`. */
export type Counter = (typeof COUNTERS)[number];

/** A post of the history, measured. */
export interface HistoryPost {
  row: number[];
  counts: Record<Counter, number>;
  /** Posting time, epoch ms. */
  at: number;
}

/** Penalty of the ridge fits: strong, as a history is tens of noisy posts. */
const LAMBDA = 4;
/** Shrinkage of the timing effects: with 5 posts at an hour, half of their mean residual counts. */
const TIMING_PRIOR = 5;

/** One counter's fit. */
export interface CounterFit {
  counter: Counter;
  model: RidgeModel;
  /** In-sample residuals on the log(1 + count) scale. */
  residuals: number[];
  /** The account's median count: what a multiple of 1 means. */
  median: number;
  hours: number[];
  weekdays: number[];
}

/** A fitted account model. */
export type AccountModel = Record<Counter, CounterFit>;

/** Fits every counter on `history`. */
export function fitAccountModel(history: readonly HistoryPost[]): AccountModel {
  const rows = history.map((post) => post.row);
  const fit = (counter: Counter): CounterFit => {
    const y = history.map((post) => Math.log1p(post.counts[counter]));
    const model = fitRidge(rows, y, LAMBDA);
    const residuals = y.map((value, i) => value - predictRidge(model, rows[i]));
    return {
      counter,
      model,
      residuals,
      median: quantile(
        history.map((post) => post.counts[counter]),
        0.5,
      ),
      hours: history.map((post) => new Date(post.at).getUTCHours()),
      weekdays: history.map((post) => new Date(post.at).getUTCDay()),
    };
  };
  return Object.fromEntries(COUNTERS.map((counter) => [counter, fit(counter)])) as AccountModel;
}

/** The shrunk mean residual of posts at `hour` (within an hour either side, UTC) and on `weekday`. */
export function timingEffects(fit: CounterFit, at: number | undefined): { hour: number; weekday: number } {
  if (at === undefined) return { hour: 0, weekday: 0 };
  const hour = new Date(at).getUTCHours();
  const weekday = new Date(at).getUTCDay();
  const near = fit.residuals.filter((_, i) => Math.min(Math.abs(fit.hours[i] - hour), 24 - Math.abs(fit.hours[i] - hour)) <= 1);
  const sameDay = fit.residuals.filter((_, i) => fit.weekdays[i] === weekday);
  const shrunk = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / (values.length + TIMING_PRIOR);
  return { hour: shrunk(near), weekday: shrunk(sameDay) };
}

/** The UTC hours whose posts did best for this counter (shrunk mean residual), best first. */
export function bestHours(fit: CounterFit, count = 3): number[] {
  const effects = Array.from({ length: 24 }, (_, hour) => ({ hour, effect: timingEffects(fit, Date.UTC(2026, 0, 5, hour)).hour }));
  return effects
    .sort((a, b) => b.effect - a.effect)
    .slice(0, count)
    .map((entry) => entry.hour);
}

/**
 * Per-feature contributions of `row` on the log scale (0 = like the account's average
 * post). A feature the history never varied in has no fitted coefficient, so its
 * change from the history's constant value takes the population prior instead.
 */
export function contributions(fit: CounterFit, row: readonly number[]): number[] {
  return standardise(fit.model, row).map((value, j) =>
    fit.model.active[j] ? value * fit.model.coefficients[j] : priorEffect(VIRAL_FEATURES[j].name, fit.counter, row[j] - fit.model.means[j]),
  );
}

/** Whether feature `j` of `row` is judged by the population prior (the history never varied in it). */
export function usesPrior(fit: CounterFit, row: readonly number[], j: number): boolean {
  return !fit.model.active[j] && row[j] !== fit.model.means[j];
}

/** The log(1 + count) estimate for `row` posted at `at`. */
export function centreOf(fit: CounterFit, row: readonly number[], at: number | undefined): number {
  const timing = timingEffects(fit, at);
  return fit.model.intercept + contributions(fit, row).reduce((sum, value) => sum + value, 0) + timing.hour + timing.weekday;
}

/**
 * Five-fold back-test on the likes model (folds by position, so deterministic): each
 * held-out post is predicted by a fit without it. `direction` is the share whose
 * "beats the account's median?" was called right; `band` the share inside the
 * predicted p25-p75 band (about 0.5 when the band is honest).
 */
export function backtest(history: readonly HistoryPost[]): { direction: number; band: number; heldOut: number } {
  let direction = 0;
  let band = 0;
  for (let fold = 0; fold < 5; fold++) {
    const train = history.filter((_, i) => i % 5 !== fold);
    const test = history.filter((_, i) => i % 5 === fold);
    if (train.length < 5 || test.length === 0) continue;
    const fit = fitAccountModel(train).likes;
    const low = quantile(fit.residuals, 0.25);
    const high = quantile(fit.residuals, 0.75);
    const bar = Math.log1p(fit.median);
    for (const post of test) {
      const centre = predictRidge(fit.model, post.row);
      const actual = Math.log1p(post.counts.likes);
      if (actual >= centre + low && actual <= centre + high) band += 1;
      const likelyAbove = fit.residuals.filter((residual) => centre + residual > bar).length / fit.residuals.length >= 0.5;
      if (likelyAbove === actual > bar) direction += 1;
    }
  }
  const heldOut = history.length;
  return { direction: heldOut ? direction / heldOut : 0, band: heldOut ? band / heldOut : 0, heldOut };
}
