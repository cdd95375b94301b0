/**
 * The `purge_old_events` job (hourly): deletes events older than their 30 days (docs/webhooks.md,
 * "Retention"), in batches so no statement holds many rows. Running it twice deletes
 * nothing more. A stream resuming from a purged event id simply continues after it.
 */
import type { Queryable } from "../db/sql.ts";
import { deleteEventsBefore } from "./events_queries.ts";
import { EVENT_RETENTION_DAYS } from "./event_types.ts";
import type { JobTasks } from "../jobs/job_task.ts";
import type { Clock } from "../clock.ts";

/** Events deleted per statement. */
const BATCH = 1000;

/** Deletes every event created more than the retention before `now`; answers how many went. */
export async function purgeOldEvents(sql: Queryable, now: Date): Promise<number> {
  const before = new Date(now.getTime() - EVENT_RETENTION_DAYS * 86_400_000);
  let total = 0;
  for (;;) {
    const deleted = await deleteEventsBefore(sql, before, BATCH);
    total += deleted;
    if (deleted < BATCH) return total;
  }
}

/** The outbox's job kind (assembled in jobs/task_list.ts). */
export const eventsJobs = {
  // Hourly: an event is gone at most an hour after its 30 days.
  purge_old_events: { handler: (deps: { sql: Queryable; clock: Clock }) => purgeOldEvents(deps.sql, new Date(deps.clock.now())), everySeconds: 60 * 60 },
} satisfies JobTasks;
