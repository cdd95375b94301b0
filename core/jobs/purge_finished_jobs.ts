/** The `purge_finished_jobs` job: keeps the jobs table from growing without bound. */
import type { Queryable } from "../db/sql.ts";
import { deleteFinishedJobs } from "./jobs_queries.ts";
import type { JobTasks } from "./job_task.ts";
import type { Clock } from "../clock.ts";

/** Finished jobs are kept this long for inspection (`last_error` of failed ones in particular). */
const RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** Rows deleted per statement, so one run never holds a long lock on a backlog. */
const CHUNK = 5000;

/**
 * Deletes jobs that finished (done or failed) more than 7 days before `now` and returns how
 * many. Periodic runs' unique keys go with them, which is fine: their time slot is long past.
 */
export async function purgeFinishedJobs(sql: Queryable, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - RETENTION_MS);
  let total = 0;
  for (;;) {
    const deleted = await deleteFinishedJobs(sql, { before: cutoff, limit: CHUNK });
    total += deleted;
    if (deleted < CHUNK) return total;
  }
}

/** The queue's own job kind (assembled in jobs/task_list.ts). */
export const queueJobs = {
  purge_finished_jobs: {
    handler: (deps: { sql: Queryable; clock: Clock }) => purgeFinishedJobs(deps.sql, new Date(deps.clock.now())),
    everySeconds: 24 * 60 * 60,
  },
} satisfies JobTasks;
