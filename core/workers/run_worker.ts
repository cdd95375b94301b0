/**
 * Running Workers on their schedules (spec rule 7: Workers run outside the API; here, in
 * the job runner). A dispatcher enqueues one `run_worker` job per due Worker and run,
 * keyed by the Worker and the run's time, so the run is enqueued once however many
 * processes dispatch, and never again after it finished. The run writes its suggestions
 * in `to_review` and moves the Worker's next run in one transaction; a run whose time is
 * no longer the Worker's (already done, or the Worker was changed) does nothing, so a
 * job delivered twice writes one batch.
 */
import { recordSuggestionsCreated } from "./suggestion_events.ts";
import type { Clock } from "../clock.ts";
import type { Queryable, Sql } from "../db/sql.ts";
import type { Model } from "../model/model.ts";
import type { SocialNetwork } from "../network/social_network.ts";
import { enqueueJobOnce } from "../jobs/jobs_queries.ts";
import { nextRunAfter } from "./worker_schedule.ts";
import { writeSuggestions } from "./write_suggestions.ts";
import { dueWorkers, insertSuggestions, jobStatusByKey, setNextRun, workerById } from "./workers_queries.ts";

/** The job kind of one Worker run (workers_jobs.ts). */
export const RUN_WORKER_JOB_KIND = "run_worker";

/** The payload of a run: the Worker and the run time it was due at. */
export interface RunWorkerPayload {
  workerId: number;
  runAt: string;
}

/** What a run needs. */
export interface WorkerRunDeps {
  sql: Sql;
  clock: Clock;
  network: SocialNetwork;
  model: Model;
}

/** Due Workers enqueued per dispatch; the rest wait for the next one (every 5 minutes). */
const DISPATCH_LIMIT = 1000;
/** Attempts of a run (a model or network outage) before it is given up; the next run comes anyway. */
const RUN_MAX_ATTEMPTS = 5;

/** Enqueues a run of each active Worker due at `now`; answers how many runs were newly enqueued. */
export async function dispatchDueWorkers(sql: Queryable, now: Date): Promise<number> {
  let enqueued = 0;
  for (const due of await dueWorkers(sql, now, DISPATCH_LIMIT)) {
    const runAt = due.next_run_at.toISOString();
    const payload: RunWorkerPayload = { workerId: due.id, runAt };
    const uniqueKey = `run_worker:${due.id}@${runAt}`;
    // Due at the database's now (no runAt): the run is due already, whatever this process's clock says.
    if (await enqueueJobOnce(sql, { kind: RUN_WORKER_JOB_KIND, payload, uniqueKey, maxAttempts: RUN_MAX_ATTEMPTS })) {
      enqueued++;
    } else if ((await jobStatusByKey(sql, uniqueKey)) === "failed") {
      // The run used up its attempts: skip it, so the Worker is not stuck on it forever.
      await setNextRun(sql, due.id, nextRunAfter({ days: due.schedule_days, time: due.schedule_time }, due.timezone, now.getTime()), now);
    }
  }
  return enqueued;
}

/** Runs one Worker for the run due at `payload.runAt`; answers how many suggestions it wrote (0 for a stale run). */
export async function runWorker(deps: WorkerRunDeps, payload: RunWorkerPayload): Promise<number> {
  const worker = await workerById(deps.sql, payload.workerId);
  if (!worker?.active || worker.next_run_at.toISOString() !== payload.runAt) return 0;
  // Written before the transaction: model and network calls can take seconds, and the
  // embedded database has one connection that a transaction holds while it is open.
  const suggestions = await writeSuggestions({ sql: deps.sql, network: deps.network, model: deps.model, now: new Date(deps.clock.now()) }, worker);
  const now = new Date(deps.clock.now());
  return deps.sql.begin(async (tx) => {
    const locked = await workerById(tx, worker.id, { forUpdate: true });
    if (!locked || locked.next_run_at.getTime() !== worker.next_run_at.getTime()) return 0;
    const written = await insertSuggestions(tx, locked, locked.next_run_at, now, suggestions);
    if (written > 0) await recordSuggestionsCreated(tx, locked.id, locked.next_run_at, now);
    const after = Math.max(locked.next_run_at.getTime(), now.getTime());
    await setNextRun(tx, locked.id, nextRunAfter({ days: locked.schedule_days, time: locked.schedule_time }, locked.timezone, after), now);
    return written;
  });
}
