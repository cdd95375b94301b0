/**
 * When a Worker runs: its weekdays at a wall time in its own time zone, read the way
 * queue slots are (core/queue/slot_occurrences.ts), so a 09:00 Worker stays at 09:00
 * local across daylight-saving changes.
 */
import { slotOccurrences } from "../queue/slot_occurrences.ts";
import { DAY_MS } from "../time/durations.ts";

/** A Worker's weekly schedule: weekdays (0 = Sunday) and a wall time `HH:MM`. */
export interface WorkerSchedule {
  days: readonly number[];
  time: string;
}

const WEEK_MS = 7 * DAY_MS;

/**
 * The first run strictly after `afterMs`. A Worker that missed runs (the server was down)
 * runs once and moves on to its next future time, instead of catching up on every slot.
 */
export function nextRunAfter(schedule: WorkerSchedule, timeZone: string, afterMs: number): Date {
  for (const instant of slotOccurrences([{ days: [...schedule.days], time: schedule.time }], timeZone, afterMs + 1, afterMs + 2 * WEEK_MS)) {
    return new Date(instant);
  }
  throw new Error(`Worker schedule ${JSON.stringify(schedule)} in "${timeZone}" has no run within two weeks`);
}
