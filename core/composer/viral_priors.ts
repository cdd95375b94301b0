/**
 * Population priors of the viral score: the log-scale effect of each feature on each
 * counter for a typical account, used for the population baseline and, on the account
 * baseline, for a feature the account's own posts never vary in (so its history cannot
 * say). Threadline's choices, stated here, not fitted: questions draw replies, figures
 * and lists get shared, media gets seen, links and hashtag piles cost reach.
 */
import type { ViralFeature } from "./viral_features.ts";
import type { Counter } from "./viral_model.ts";

/** Log-scale effect per unit of the feature (0 to 1 for flags and hook strength). */
const PRIORS: Partial<Record<ViralFeature, Partial<Record<Counter, number>>>> = {
  question: { replies: 0.25, likes: -0.03 },
  numbers: { likes: 0.06, reposts_and_quotes: 0.08 },
  list: { likes: 0.05, reposts_and_quotes: 0.1 },
  hook: { likes: 0.2, replies: 0.15, views: 0.15 },
  image: { likes: 0.1, views: 0.1 },
  video: { likes: 0.08, views: 0.2 },
  link: { likes: -0.15, views: -0.2, reposts_and_quotes: -0.05 },
  hashtags: { likes: -0.04, views: -0.02 },
};

/** The prior log effect on `counter` of moving `feature` by `delta`. */
export function priorEffect(feature: ViralFeature, counter: Counter, delta: number): number {
  return delta * (PRIORS[feature]?.[counter] ?? 0);
}
