/**
 * How much engagement a post earns. Expected engagements are followers times the rate
 * for that size (`core/network/engagement_rate.ts`), times the post's virality: a
 * log-normal spread with a 3% chance of a 5-20x breakout, so outliers exist and a
 * post's outlier score is meaningful. Counts arrive over time: likes, bookmarks and
 * impressions follow a saturating curve that is complete 72 hours after posting, and
 * replies, quotes and reposts are individual events within 24 hours.
 */
import { expectedEngagementRate } from "../../../core/network/engagement_rate.ts";
import type { PostMetrics } from "../../../core/network/network_records.ts";
import type { Random } from "./prng.ts";
import { HOUR_MS } from "../../../core/time/durations.ts";

/** The final counts a post is heading for. */
export type Potential = PostMetrics;

/** A post's virality: median about 1, with rare breakouts. */
export function drawVirality(random: Random): number {
  const spread = Math.exp(0.75 * random.normal() - 0.28);
  return random.chance(0.03) ? spread * random.range(5, 20) : spread;
}

/** Final counts for a post by an account with `followers`, `virality` and a kind factor. */
export function potentialOf(followers: number, virality: number, factor = 1): Potential {
  const engagements = followers * expectedEngagementRate(followers) * virality * factor;
  const likes = Math.round(engagements * 0.76);
  return {
    likes,
    replies: engagements * 0.09,
    reposts: engagements * 0.12,
    quotes: engagements * 0.03,
    bookmarks: Math.round(likes * 0.12),
    impressions: Math.round(engagements * 60 + followers * 0.04 * Math.min(virality, 3)),
  };
}

/** Share of a count that has arrived `ageMs` after posting (0 before, exactly 1 from 72 hours on). */
export function arrived(ageMs: number, tauHours = 4): number {
  if (ageMs <= 0) return 0;
  const full = 1 - Math.exp(-72 / tauHours);
  return Math.min(1, (1 - Math.exp(-ageMs / (tauHours * HOUR_MS))) / full);
}

/** Likes, bookmarks and impressions at `ageMs`, with the counted events given. */
export function metricsAt(potential: Potential, ageMs: number, events: { replies: number; reposts: number; quotes: number }): PostMetrics {
  return {
    likes: Math.round(potential.likes * arrived(ageMs)),
    replies: events.replies,
    reposts: events.reposts,
    quotes: events.quotes,
    bookmarks: Math.round(potential.bookmarks * arrived(ageMs)),
    impressions: Math.round(potential.impressions * arrived(ageMs, 8)),
  };
}
