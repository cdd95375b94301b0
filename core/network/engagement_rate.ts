/**
 * Engagement relative to an account's size. The spec defines `outlier_score` as "the
 * engagement rate divided by the expected rate for the author's follower tier (1.0 =
 * expected)" (Other endpoints: GET /v1/inspiration). The expected rate falls with
 * audience size, as it does on X: a 500-follower account's post gets a larger share
 * of its followers than a 2M-follower account's. The simulated world draws its
 * engagement from the same curve, so scores there mean what they say.
 */
import type { PostMetrics } from "./network_records.ts";

/** Engagements (likes + replies + reposts + quotes) per follower a typical post gets at this size. */
export function expectedEngagementRate(followers: number): number {
  return 0.06 * Math.max(followers, 10) ** -0.27;
}

/** How many times the expected engagement a post got (1.0 = typical for its author's size). */
export function outlierScore(metrics: PostMetrics, followers: number): number {
  const engagements = metrics.likes + metrics.replies + metrics.reposts + metrics.quotes;
  return engagements / Math.max(followers, 1) / expectedEngagementRate(followers);
}
