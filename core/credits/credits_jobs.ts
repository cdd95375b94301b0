/** The `reset_credit_pools` job: starts new credit periods (the credits area owns the rule). */
import type { Sql } from "../db/sql.ts";
import { renewExpiredPools } from "./credits.ts";
import { tableExists } from "../jobs/jobs_queries.ts";
import type { JobTasks } from "../jobs/job_task.ts";
import type { Clock } from "../clock.ts";

const BATCH = 500;
const MAX_ROUNDS = 100;

/**
 * Renews the credit pools whose period has ended and returns how many (spec, Credits: "Paid
 * plans have a monthly pool resetting on the billing date; trials a daily pool").
 * `renewExpiredPools` re-checks each pool under its row lock, so a second run (jobs run at
 * least once) renews nothing twice.
 */
export async function resetCreditPools(sql: Sql, now: Date): Promise<number> {
  // `credit_pools` comes with the credits area's migration (0004); before it there are no pools.
  if (!(await tableExists(sql, "credit_pools"))) return 0;
  // Batches keep each read short; the round cap bounds a run even if some pool never renews.
  let renewed = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const count = await renewExpiredPools(sql, now, BATCH);
    renewed += count;
    if (count < BATCH) break;
  }
  return renewed;
}

/** The credits area's job kind (assembled in jobs/task_list.ts). */
export const creditsJobs = {
  // Hourly, so a pool whose billing date passed is reset within the hour.
  reset_credit_pools: {
    handler: (deps: { sql: Sql; clock: Clock }) => resetCreditPools(deps.sql, new Date(deps.clock.now())),
    everySeconds: 60 * 60,
  },
} satisfies JobTasks;
