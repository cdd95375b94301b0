/**
 * Best times to post (beyond the spec): the account's own posts of the last `days`, grouped by
 * weekday and hour in a time zone (the queue's by default, so the answer lines up with its
 * slots), each slot scored by its impressions per post against the account's average. A slot
 * with few posts is pulled toward the average (the weight of `PRIOR_POSTS` average posts), so one
 * lucky post does not make an hour the best; only slots with `MIN_POSTS` posts are recommended.
 */
import type { AccountContext } from "../context.ts";
import { effectiveQueueSettings } from "../queue/queue_defaults.ts";
import { queueSettingsOf } from "../queue/queue_queries.ts";
import { DAY_MS } from "../time/durations.ts";
import type { BestTimes, BestTimesInput } from "./best_times_schema.ts";
import { postsByWeekdayHour, type WeekdayHourRow } from "./best_times_queries.ts";

/** The average posts a slot's figure is blended with. */
export const PRIOR_POSTS = 3;
/** Posts a slot needs to be recommended. */
export const MIN_POSTS = 3;
/** Slots recommended. */
const BEST_COUNT = 5;

export async function bestTimesToPost(ctx: AccountContext, input: BestTimesInput): Promise<{ data: BestTimes }> {
  const { sql, clock } = ctx.services;
  const timezone = input.timezone ?? effectiveQueueSettings(await queueSettingsOf(sql, ctx.account.id)).timezone;
  const until = new Date(clock.now());
  const since = new Date(until.getTime() - input.days * DAY_MS);
  const rows = await postsByWeekdayHour(sql, ctx.account.id, timezone, since, until);
  return { data: scoreSlots(rows, { timezone, since, until }) };
}

/** Scores grouped posts (pure: the rule the tests pin). */
export function scoreSlots(rows: readonly WeekdayHourRow[], range: { timezone: string; since: Date; until: Date }): BestTimes {
  const posts = rows.reduce((sum, row) => sum + row.posts, 0);
  const impressions = rows.reduce((sum, row) => sum + row.impressions, 0);
  const average = posts === 0 ? 0 : impressions / posts;
  const slots = rows.map((row) => ({
    weekday: row.weekday,
    hour: row.hour,
    posts: row.posts,
    avg_impressions: round(row.impressions / row.posts),
    avg_engagements: round(row.engagements / row.posts),
    engagement_rate: row.impressions === 0 ? null : round(row.engagements / row.impressions, 4),
    score: average === 0 ? 1 : round((row.impressions + PRIOR_POSTS * average) / (row.posts + PRIOR_POSTS) / average, 3),
  }));
  const best = slots
    .filter((slot) => slot.posts >= MIN_POSTS)
    .sort((a, b) => b.score - a.score || b.posts - a.posts || a.weekday - b.weekday || a.hour - b.hour)
    .slice(0, BEST_COUNT);
  return {
    timezone: range.timezone,
    since: range.since.toISOString(),
    until: range.until.toISOString(),
    posts,
    avg_impressions: round(average),
    slots,
    best,
  };
}

function round(value: number, digits = 1): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
