/**
 * Wall-clock time in an IANA time zone, with `Intl` only (no time-zone data of our own).
 * Queue slots are wall times in the account's zone (supplement: Queue, `timezone`), so a
 * 09:00 slot stays 09:00 across daylight-saving changes. Disambiguation follows
 * Temporal's "compatible" rule: a wall time that occurs twice (clocks go back) is the
 * earlier instant; one that never occurs (clocks go forward) moves forward by the gap
 * (02:30 on a spring-forward night in New York is 03:30 EDT).
 */
import { DAY_MS } from "../time/durations.ts";

/** A calendar date and a wall time (month 1-12). */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * The zone's canonical name for `name` (`europe/london` -> `Europe/London`), or undefined
 * when `Intl` does not know it. Offsets such as `+01:00` are refused: a queue needs a
 * zone whose daylight-saving rules are known.
 */
export function canonicalTimeZone(name: string): string | undefined {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(name)) return undefined;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** The wall time (to the second) at `instantMs` in `timeZone`, as milliseconds of a UTC date with the same fields. */
function wallMsAt(timeZone: string, instantMs: number): number {
  const fields: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(instantMs)) {
    if (part.type !== "literal") fields[part.type] = Number(part.value);
  }
  return Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute, fields.second);
}

/** The zone's offset from UTC at `instantMs`, in milliseconds (positive east of Greenwich). */
export function offsetAt(timeZone: string, instantMs: number): number {
  const whole = Math.floor(instantMs / 1000) * 1000;
  return wallMsAt(timeZone, whole) - whole;
}

/** The wall time at `instantMs` in `timeZone`. */
export function wallTimeAt(timeZone: string, instantMs: number): WallTime {
  const wall = new Date(wallMsAt(timeZone, instantMs));
  return { year: wall.getUTCFullYear(), month: wall.getUTCMonth() + 1, day: wall.getUTCDate(), hour: wall.getUTCHours(), minute: wall.getUTCMinutes() };
}

/** The UTC instant (ms) of a wall time in `timeZone`, DST-correct ("compatible" disambiguation). */
export function wallTimeToUtc(timeZone: string, wall: WallTime): number {
  const local = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  // Offsets a day either side bracket any transition near this wall time (zones move at
  // most 14 hours from UTC, and never change twice within two days).
  const before = offsetAt(timeZone, local - DAY_MS);
  const after = offsetAt(timeZone, local + DAY_MS);
  if (before === after) return local - before;
  const valid = [local - before, local - after].filter((candidate) => candidate + offsetAt(timeZone, candidate) === local);
  if (valid.length > 0) return Math.min(...valid);
  // The wall time falls in a spring-forward gap: read it with the offset in force before
  // the change, which lands the same distance past the gap.
  return local - before;
}

/**
 * A day's wall times (minutes after midnight) as UTC instants. One pair of `Intl` calls
 * covers a day without a transition; only days near one take the exact path per time.
 */
export function dayTimesToUtc(timeZone: string, date: { year: number; month: number; day: number }, minutes: readonly number[]): number[] {
  const midnight = Date.UTC(date.year, date.month - 1, date.day);
  const start = offsetAt(timeZone, midnight - DAY_MS);
  const end = offsetAt(timeZone, midnight + 2 * DAY_MS);
  if (start === end) return minutes.map((minute) => midnight + minute * 60_000 - start);
  return minutes.map((minute) => wallTimeToUtc(timeZone, { ...date, hour: Math.floor(minute / 60), minute: minute % 60 }));
}
