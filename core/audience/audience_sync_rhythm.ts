/**
 * The audience sync's bounds and rhythm (docs/areas.md "Audience"): pages per run and per day, how often a
 * list is read again, and the page accounting every list's run shares.
 */
import type { Clock } from "../clock.ts";
import type { Sql } from "../db/sql.ts";
import type { PageWalker } from "../network/page_walker.ts";
import type { SocialNetwork } from "../network/social_network.ts";
import type { AudienceSyncState } from "./audience_sync_queries.ts";
import { DAY_MS } from "../time/durations.ts";

/** The sync's bounds and rhythm. */
export const AUDIENCE_SYNC_LIMITS = {
  /** Network pages one run reads at most, per list. */
  pagesPerRun: 10,
  /** Network pages one list of one account reads per UTC day at most. */
  pagesPerDay: 200,
  /** People per page asked for (the port's maximum for followers, following and reposters). */
  pageSize: 1000,
  /** The engagement window (spec: Contact list member, `engaged_count`). */
  windowDays: 90,
  /** Time between two runs of a list that is up to date (newcomers, engagers). */
  everySeconds: 60 * 60,
  /** Time before the next run of a list whose walk or reading the run's budget cut. */
  continueSeconds: 5 * 60,
  /** A new full walk of followers and following starts this long after the last complete one. */
  rewalkSeconds: 24 * 60 * 60,
  /** Retry time of a paused list (a rate limit's own wait when longer). */
  retrySeconds: 15 * 60,
} as const;

/** What the sync needs: the job runner's deps or the server's services. */
export interface AudienceSyncDeps {
  sql: Sql;
  clock: Clock;
  network: SocialNetwork;
}

/**
 * Whether a list's run is due at `nowMs`: its next run's time has come, or, for the engagers,
 * the content sync has stored replies or reposts since the `engagementVersion` their last run
 * counted from. Their recount then follows the content it counts instead of waiting out the
 * hour (a run that came first, as on a server's first start, would otherwise show no
 * engagement for that hour). A paused list still waits for its retry time, and a list whose
 * pages of the day are spent for the next day. `accountsDueForAudienceSync` says the same in SQL.
 */
export function isListDue(state: AudienceSyncState, nowMs: number, engagementVersion: number): boolean {
  if (!state.next_sync_at || state.next_sync_at.getTime() <= nowMs) return true;
  if (state.kind !== "engagers" || state.status === "paused" || engagementVersion <= state.counted_engagement_version) return false;
  const today = new Date(nowMs).toISOString().slice(0, 10);
  return state.budget_day !== today || state.pages_today < AUDIENCE_SYNC_LIMITS.pagesPerDay;
}

/** The day's page count after this run. */
export function spent(state: AudienceSyncState, walker: PageWalker, now: Date): Pick<AudienceSyncState, "budget_day" | "pages_today" | "last_synced_at"> {
  const today = now.toISOString().slice(0, 10);
  const usedToday = state.budget_day === today ? state.pages_today : 0;
  return { budget_day: today, pages_today: usedToday + walker.read(), last_synced_at: now };
}

/** The next run in `seconds`, or at the next UTC day when today's pages are used up. */
export function nextRun(state: AudienceSyncState, now: Date, seconds: number): Date {
  if (state.pages_today >= AUDIENCE_SYNC_LIMITS.pagesPerDay) return nextUtcDay(now.getTime());
  return new Date(now.getTime() + seconds * 1000);
}

/** The start of the next UTC day. */
export function nextUtcDay(nowMs: number): Date {
  return new Date((Math.floor(nowMs / DAY_MS) + 1) * DAY_MS);
}
