/**
 * The port's `since` (inclusive) and `until` (exclusive) as X's `start_time` and
 * `end_time`. X takes whole seconds, so the bounds are rounded outward and the exact
 * ones applied to what comes back. X refuses an `end_time` less than 10 seconds before
 * the request (recent search), so a later `until` is left to the filter; and recent
 * search refuses a `start_time` older than its 7 days, so an older `since` is left out
 * (X's default is those 7 days) rather than clamped to a moment that moves between
 * pages and would change the query a pagination token belongs to.
 */

/** A window as sent to X and as checked on what X answers. */
export interface TimeWindow {
  params: { start_time?: string; end_time?: string };
  /** Whether a post created at this ISO time is inside the asked window. */
  contains(createdAt: string): boolean;
  /** Nothing can match: answer without asking X. */
  empty: boolean;
}

const END_TIME_LAG_MS = 10_000;

/** The window of `options` at `nowMs`; `oldestMs` is the earliest `start_time` X accepts here. */
export function timeWindow(options: { since?: string; until?: string }, nowMs: number, oldestMs = Number.NEGATIVE_INFINITY): TimeWindow {
  const sinceMs = parseTime(options.since);
  const untilMs = parseTime(options.until);
  const params: TimeWindow["params"] = {};
  if (sinceMs !== undefined && sinceMs >= oldestMs) params.start_time = seconds(Math.floor(sinceMs / 1000));
  if (untilMs !== undefined && untilMs <= nowMs - END_TIME_LAG_MS) params.end_time = seconds(Math.ceil(untilMs / 1000));
  return {
    params,
    empty: sinceMs !== undefined && untilMs !== undefined && sinceMs >= untilMs,
    contains(createdAt) {
      const ms = Date.parse(createdAt);
      return (sinceMs === undefined || ms >= sinceMs) && (untilMs === undefined || ms < untilMs);
    },
  };
}

function parseTime(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/** `YYYY-MM-DDTHH:mm:ssZ`, the form X documents. */
function seconds(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}
