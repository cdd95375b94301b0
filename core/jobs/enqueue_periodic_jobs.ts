/** The periodic scheduler: enqueues each time slot's run of a periodic kind, once across processes. */
import type { Queryable } from "../db/sql.ts";
import { enqueueJobOnce } from "./jobs_queries.ts";

/** A kind that runs every `everySeconds`, in slots aligned to the Unix epoch (so to UTC hours and days). */
export interface PeriodicJob {
  kind: string;
  everySeconds: number;
  payload?: unknown;
}

/**
 * Enqueues the current slot's run of each of `schedules` unless some process already did
 * (the job's unique key is `<kind>@<slot start ISO>`), due at the slot's start. Returns the
 * kinds it enqueued.
 */
export async function enqueuePeriodicJobs(sql: Queryable, schedules: readonly PeriodicJob[], now: Date): Promise<string[]> {
  const enqueued: string[] = [];
  for (const schedule of schedules) {
    const slot = periodicSlot(schedule, now);
    const inserted = await enqueueJobOnce(sql, {
      kind: schedule.kind,
      payload: schedule.payload,
      runAt: slot,
      uniqueKey: `${schedule.kind}@${slot.toISOString()}`,
    });
    if (inserted) enqueued.push(schedule.kind);
  }
  return enqueued;
}

/** The start of the slot of `schedule` that contains `now`. */
export function periodicSlot(schedule: PeriodicJob, now: Date): Date {
  const period = schedule.everySeconds * 1000;
  return new Date(Math.floor(now.getTime() / period) * period);
}
