/** The `purge_idempotency_keys` job: forgets idempotency keys past their 24-hour life. */
import type { Queryable } from "../db/sql.ts";
import { purgeExpiredKeys } from "./idempotency_queries.ts";
import { tableExists } from "../jobs/jobs_queries.ts";
import type { JobTasks } from "../jobs/job_task.ts";

/**
 * Deletes `idempotency_keys` rows past retention (spec, Idempotency: "Keys are retained 24
 * hours"; the idempotency area owns the rule) and returns how many. Idempotent: a second run
 * finds nothing past the cutoff.
 */
export async function purgeIdempotencyKeys(sql: Queryable): Promise<number> {
  // The table comes with the idempotency area's migration (0003); on a database not yet
  // migrated that far there is nothing to purge. A separate statement, because a DELETE
  // naming a missing table fails when parsed, before any condition could skip it.
  if (!(await tableExists(sql, "idempotency_keys"))) return 0;
  // Runs hourly (`idempotencyJobs`), so each run deletes about one hour of keys: one statement suffices.
  return purgeExpiredKeys(sql);
}

/** The idempotency area's job kind (assembled in jobs/task_list.ts). */
export const idempotencyJobs = {
  purge_idempotency_keys: { handler: (deps: { sql: Queryable }) => purgeIdempotencyKeys(deps.sql), everySeconds: 60 * 60 },
} satisfies JobTasks;
