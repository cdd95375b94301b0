/** A clock tests move by hand. */
import type { Clock } from "../../core/clock.ts";

/** A clock at `start` that only moves when told. */
export function manualClock(start: string | number): Clock & { set(time: string | number): void; advance(ms: number): void } {
  let now = typeof start === "string" ? Date.parse(start) : start;
  return {
    now: () => now,
    set(time) {
      now = typeof time === "string" ? Date.parse(time) : time;
    },
    advance(ms) {
      now += ms;
    },
  };
}

/**
 * `time` (`HH:MM:SS` UTC) on the UTC day `days` after today, as ISO-8601: for suites whose
 * clock starts at the real now and later jumps to a fresh day, so no fixed date in the
 * file can fall on (or before) the day the suite runs.
 */
export function daysFromToday(days: number, time = "00:00:00"): string {
  const today = Math.floor(Date.now() / 86_400_000);
  return `${new Date((today + days) * 86_400_000).toISOString().slice(0, 10)}T${time}Z`;
}
