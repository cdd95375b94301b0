/**
 * The Worker jobs (docs/areas.md "Articles and Workers"; spec rule 7): `dispatch_workers` runs every 5 minutes and
 * enqueues one `run_worker` per due Worker and run (core/workers/run_worker.ts); each
 * `run_worker` writes the Worker's suggestions through the Model port.
 */
import type { Clock } from "../clock.ts";
import type { Sql } from "../db/sql.ts";
import type { Model } from "../model/model.ts";
import type { SocialNetwork } from "../network/social_network.ts";
import { dispatchDueWorkers, runWorker, type RunWorkerPayload } from "./run_worker.ts";
import type { JobTasks } from "../jobs/job_task.ts";

/** What the Worker jobs use (the job runner's deps; `model` is absent only in runners built without one). */
export interface WorkerJobDeps {
  sql: Sql;
  clock: Clock;
  network: SocialNetwork;
  model?: Model;
}

/** How often due Workers are dispatched: a Worker runs at most this late. */
export const DISPATCH_WORKERS_EVERY_SECONDS = 300;

/** The Workers area's job kinds (assembled in jobs/task_list.ts). */
export const workersJobs = {
  // Every 5 minutes: a Worker's run starts at most 5 minutes after its scheduled time.
  dispatch_workers: {
    handler: (deps: Pick<WorkerJobDeps, "sql" | "clock">) => dispatchDueWorkers(deps.sql, new Date(deps.clock.now())),
    everySeconds: DISPATCH_WORKERS_EVERY_SECONDS,
  },
  run_worker: {
    // One run of one Worker; fails (and retries) when the runner has no model.
    handler: async (deps: WorkerJobDeps, payload: RunWorkerPayload) => {
      if (!deps.model) throw new Error(`The job runner has no model; Worker "${payload.workerId}" cannot run`);
      await runWorker({ sql: deps.sql, clock: deps.clock, network: deps.network, model: deps.model }, payload);
    },
  },
} satisfies JobTasks;
