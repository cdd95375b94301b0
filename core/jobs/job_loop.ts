/**
 * A job runner's life: sweep stale locks, enqueue due periodic runs, claim and run batches,
 * wait a poll interval when the queue is empty; until told to stop. Runs the same in a bree
 * job thread (jobs/job_thread.ts) and in the server's own thread (embedded PGlite). It
 * receives the task list (`runJobTasks`); it imports none.
 */
import type { Clock } from "../clock.ts";
import type { Queryable } from "../db/sql.ts";
import { pause } from "../abortable_pause.ts";
import { completeJobs, msUntilNextDue, sweepStaleJobs, type JobRow } from "./jobs_queries.ts";
import { runJobsOnce, type JobHandlers } from "./job_runner.ts";
import { enqueuePeriodicJobs, periodicSlot, type PeriodicJob } from "./enqueue_periodic_jobs.ts";
import { errorFacts, type JobEventListener } from "./job_events.ts";
import { type JobLaneSettings, type JobTasks, periodicTasks, taskHandlers, taskLanes } from "./job_task.ts";

/** How the loop works. */
export interface JobLoopOptions {
  sql: Queryable;
  handlers: JobHandlers;
  runnerId: string;
  clock: Clock;
  /** Ends the loop once the batch in hand is finished. */
  signal: AbortSignal;
  /** Kinds enqueued on a clock (the task list's `everySeconds`); default none. */
  periodic?: readonly PeriodicJob[];
  batchSize?: number;
  leaseSeconds?: number;
  concurrency?: number;
  /** Wait between polls of an empty queue; default 1000 ms. */
  pollIntervalMs?: number;
  /** Interval of the stale-lock sweep; default 15 000 ms. */
  sweepIntervalMs?: number;
  /** Told about database errors of the loop itself (it retries after a poll interval). */
  onError?: (error: unknown) => void;
  /** Told about each failed job attempt. */
  onFailure?: (job: JobRow, error: unknown) => void;
  /** Told about claims, failed attempts and loop errors, as data (logs and metrics). */
  events?: JobEventListener;
}

/** The shortest wait of an idle runner before its next claim, in ms. */
const MIN_WAIT_MS = 25;

/** Runs until `signal` aborts; resolves after the last batch is recorded. */
export async function runJobLoop(options: JobLoopOptions): Promise<void> {
  const { sql, signal, clock } = options;
  const batchSize = options.batchSize ?? 10;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const sweepIntervalMs = options.sweepIntervalMs ?? 15_000;
  const periodic = options.periodic ?? [];
  let nextSweep = 0;
  // The slot each periodic kind was last enqueued for: one statement per kind per slot per
  // process, not one per poll.
  const scheduled = new Map<string, number>();
  // The last pass's final successes, still `running`: the next claim completes them in its
  // statement (runJobsOnce `handOff`), or they are completed here before the loop waits or ends.
  let handedOff: number[] = [];
  const completeHandedOff = async () => {
    if (handedOff.length === 0) return;
    await completeJobs(sql, handedOff, { runnerId: options.runnerId });
    handedOff = [];
  };
  const kinds = Object.keys(options.handlers);
  while (!signal.aborted) {
    let busy = false;
    let waitMs = pollIntervalMs;
    try {
      const now = clock.now();
      if (now >= nextSweep) {
        await sweepStaleJobs(sql);
        nextSweep = now + sweepIntervalMs;
      }
      const due = periodic.filter((job) => scheduled.get(job.kind) !== periodicSlot(job, new Date(now)).getTime());
      if (due.length > 0) {
        await enqueuePeriodicJobs(sql, due, new Date(now));
        for (const job of due) scheduled.set(job.kind, periodicSlot(job, new Date(now)).getTime());
      }
      const result = await runJobsOnce({
        sql,
        handlers: options.handlers,
        runnerId: options.runnerId,
        batchSize,
        leaseSeconds: options.leaseSeconds,
        concurrency: options.concurrency,
        onFailure: options.onFailure,
        events: options.events,
        completing: handedOff,
        handOff: true,
      });
      handedOff = result.handedOff ?? [];
      // A full batch suggests more are due: claim again at once instead of waiting.
      busy = result.claimed === batchSize;
      if (!busy || signal.aborted) await completeHandedOff();
      // Idle: wake when the next queued job falls due, if that is sooner than the next poll (a
      // job enqueued meanwhile is found by the poll, as before), and not within a few ms: a due
      // job another claimer holds locked is not worth a spin.
      if (!busy && kinds.length > 0) waitMs = Math.max(MIN_WAIT_MS, Math.min(pollIntervalMs, (await msUntilNextDue(sql, kinds)) ?? pollIntervalMs));
    } catch (error) {
      options.onError?.(error);
      options.events?.({ event: "loop_error", runnerId: options.runnerId, error: errorFacts(error) });
    }
    if (!busy) await pause(waitMs, signal);
  }
  try {
    await completeHandedOff();
  } catch (error) {
    // Left `running`: once the lease lapses they run again (at least once, JobHandler).
    options.onError?.(error);
  }
}

/**
 * Runs one loop per lane over the lane's kinds, plus the loop of `options` over every
 * other kind (it alone enqueues the periodic kinds), on the same pool, until `signal`
 * aborts. A burst of one kind then neither waits behind nor delays the others.
 */
export async function runJobLanes(options: JobLoopOptions & { lanes: readonly JobLaneSettings[] }): Promise<void> {
  const { lanes, ...base } = options;
  const laned = new Set(lanes.flatMap((lane) => lane.kinds));
  const handlersOf = (keep: (kind: string) => boolean) => Object.fromEntries(Object.entries(base.handlers).filter(([kind]) => keep(kind)));
  const loops = lanes
    .map((lane) => ({
      ...base,
      handlers: handlersOf((kind) => lane.kinds.includes(kind)),
      batchSize: lane.batchSize,
      concurrency: lane.concurrency,
      periodic: [],
    }))
    .filter((lane) => Object.keys(lane.handlers).length > 0);
  await Promise.all([runJobLoop({ ...base, handlers: handlersOf((kind) => !laned.has(kind)) }), ...loops.map((loop) => runJobLoop(loop))]);
}

/** What `runJobTasks` runs: a task list bound to its deps, and the loop's settings. */
export type JobTasksLoopOptions<Deps extends { sql: Queryable; clock: Clock }> = Omit<JobLoopOptions, "sql" | "clock" | "handlers" | "periodic"> & {
  tasks: JobTasks<Deps>;
  deps: Deps;
  /** Enqueue the task list's periodic kinds. */
  periodic: boolean;
};

/** Runs `tasks` on `deps` (`runJobLanes` with the list's handlers, lanes and periodic kinds) until `signal` aborts. */
export function runJobTasks<Deps extends { sql: Queryable; clock: Clock }>(options: JobTasksLoopOptions<Deps>): Promise<void> {
  const { tasks, deps, periodic, ...loop } = options;
  return runJobLanes({
    ...loop,
    sql: deps.sql,
    clock: deps.clock,
    handlers: taskHandlers(tasks, deps),
    lanes: taskLanes(tasks),
    periodic: periodic ? periodicTasks(tasks) : [],
  });
}
