/**
 * The instants a weekly slot set produces in a time zone: every slot time on every
 * weekday it names, read as a wall time in the zone (DST-correct, see zoned_time.ts).
 */
import type { QueueSlot } from "./queue_settings_schema.ts";
import { dayTimesToUtc, wallTimeAt } from "./zoned_time.ts";
import { HOUR_MS, DAY_MS } from "../time/durations.ts";

// No zone is more than 14 hours ahead of UTC, so every instant of a local date D is at
// or after midnight UTC of D minus 14 hours.
const MAX_OFFSET_MS = 14 * HOUR_MS;

/** Minutes after midnight of each slot, per weekday (0 = Sunday). */
function minutesByWeekday(slots: readonly QueueSlot[]): number[][] {
  const byDay: number[][] = [[], [], [], [], [], [], []];
  for (const slot of slots) {
    const [hours, minutes] = slot.time.split(":").map(Number);
    for (const day of slot.days) byDay[day].push(hours * 60 + minutes);
  }
  return byDay.map((list) => list.sort((a, b) => a - b));
}

/**
 * The distinct instants (ms) of `slots` in `timeZone` from `fromMs` to `untilMs`, both
 * inclusive, in time order. Two wall times can land on one instant (a slot inside a
 * spring-forward gap moves onto the next hour); it is produced once.
 */
export function* slotOccurrences(slots: readonly QueueSlot[], timeZone: string, fromMs: number, untilMs: number): Generator<number> {
  const byDay = minutesByWeekday(slots);
  if (byDay.every((list) => list.length === 0) || untilMs < fromMs) return;
  const start = wallTimeAt(timeZone, fromMs);
  // Start a day early: a late slot of the previous date can be pushed past midnight.
  let dateMs = Date.UTC(start.year, start.month - 1, start.day) - DAY_MS;
  let pending: number[] = [];
  let last = Number.NEGATIVE_INFINITY;
  while (dateMs - MAX_OFFSET_MS <= untilMs) {
    const date = new Date(dateMs);
    const minutes = byDay[date.getUTCDay()];
    if (minutes.length > 0) {
      const instants = dayTimesToUtc(timeZone, { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() }, minutes);
      pending.push(...instants.filter((instant) => instant >= fromMs && instant <= untilMs));
      pending.sort((a, b) => a - b);
    }
    // Instants before the earliest one a later date can produce are final.
    const settled = dateMs + DAY_MS - MAX_OFFSET_MS;
    let cut = 0;
    while (cut < pending.length && pending[cut] < settled) cut++;
    for (const instant of pending.slice(0, cut)) {
      if (instant !== last) yield instant;
      last = instant;
    }
    pending = pending.slice(cut);
    dateMs += DAY_MS;
  }
  for (const instant of pending) {
    if (instant !== last) yield instant;
    last = instant;
  }
}
