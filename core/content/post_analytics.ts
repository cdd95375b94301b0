/**
 * `GET /v1/posts/analytics` (spec: analytics range at most 366 days, `400 range_too_large`;
 * Versioning 4): a UTC-day series over the synced posts, each counted on the day it was
 * posted with the counters it has now, plus the followers recorded each day. `totals` is
 * computed from the days, so the two always agree, and a post's counters here are the
 * ones `GET /v1/posts` shows.
 */
import type { AccountContext } from "../context.ts";
import type { Queryable } from "../db/sql.ts";
import { ApiError } from "../errors.ts";
import type { PostAnalytics, PostAnalyticsInput } from "./content_schema.ts";
import { analyticsDays, followersOn } from "./own_content_queries.ts";
import { DAY_MS } from "../time/durations.ts";

/** Longest range, in days of elapsed time between `since` and `until` (ARCHITECTURE: contract decisions). */
export const MAX_ANALYTICS_DAYS = 366;

/** Days of the default range when `since` is absent (today and the 29 days before). */
export const DEFAULT_ANALYTICS_DAYS = 30;

const COUNTS = ["posts", "replies_sent", "reposts_sent", "likes", "replies", "reposts", "quotes", "bookmarks", "impressions"] as const;

/** The account's analytics over [since, until). */
export async function postAnalytics(ctx: AccountContext, input: PostAnalyticsInput): Promise<{ data: PostAnalytics }> {
  const until = input.until ? new Date(input.until) : new Date(ctx.services.clock.now());
  // Default: the last 30 UTC days, today included.
  const since = input.since ? new Date(input.since) : new Date((Math.floor((until.getTime() - 1) / DAY_MS) - (DEFAULT_ANALYTICS_DAYS - 1)) * DAY_MS);
  if (since >= until) throw new ApiError("invalid_parameter", `Invalid "since": must be before "until"`);
  if (until.getTime() - since.getTime() > MAX_ANALYTICS_DAYS * DAY_MS) {
    throw new ApiError(
      "range_too_large",
      `The range from "since" to "until" spans more than ${MAX_ANALYTICS_DAYS} days; ask for at most ${MAX_ANALYTICS_DAYS}`,
    );
  }
  return { data: await analyticsOf(ctx.services.sql, ctx.account.id, since, until) };
}

/** The analytics of `accountId` over a checked range [since, until): the days, their totals and the followers. */
export async function analyticsOf(sql: Queryable, accountId: string, since: Date, until: Date): Promise<PostAnalytics> {
  const firstDay = since.toISOString().slice(0, 10);
  const lastDay = new Date(until.getTime() - 1).toISOString().slice(0, 10);
  const [days, before] = await Promise.all([analyticsDays(sql, accountId, since, until, firstDay, lastDay), followersOn(sql, accountId, firstDay)]);
  const totals = Object.fromEntries(COUNTS.map((name) => [name, days.reduce((sum, day) => sum + day[name], 0)])) as PostAnalytics["totals"];
  const recorded = days.filter((day) => day.followers !== null);
  const start = before ?? recorded[0]?.followers ?? null;
  const end = recorded.at(-1)?.followers ?? (await followersOn(sql, accountId, lastDay));
  return {
    since: since.toISOString(),
    until: until.toISOString(),
    totals,
    followers: { start, end, change: start === null || end === null ? null : end - start },
    days,
  };
}
