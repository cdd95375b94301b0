/**
 * A job kind as the area that owns it declares it: its handler (typed by its payload), and
 * when it has them, a claim loop of its own (`lane`) and a period (`everySeconds`). Each
 * area exports its kinds as one such table (graphile-worker's `taskList`: a map from task
 * name to function); jobs/task_list.ts assembles them once, and the runner receives the
 * result, so the queue imports no task and no area.
 */
import type { JobHandlers } from "./job_runner.ts";
import type { JobRow } from "./jobs_queries.ts";
import type { JobDeps } from "./job_deps.ts";
import type { PeriodicJob } from "./enqueue_periodic_jobs.ts";

/** The width of a kind's own claim loop (core/jobs/job_loop.ts `runJobLanes`). */
export interface JobLaneWidth {
  batchSize: number;
  concurrency: number;
}

/** Kinds claimed by a loop of their own, with its own batch size and concurrency (`runJobLanes`). */
export interface JobLaneSettings extends JobLaneWidth {
  kinds: readonly string[];
}

/**
 * One job kind. The handler does the work of one job and must be idempotent: delivery is at
 * least once (core/jobs/job_runner.ts `JobHandler`).
 */
export interface JobTask<Payload = never, Deps = JobDeps> {
  handler: (deps: Deps, payload: Payload, job: JobRow) => Promise<unknown>;
  /** Claimed by a loop of its own, so a burst of this kind neither waits behind nor delays the others. */
  lane?: JobLaneWidth;
  /** Enqueued on a clock, once per slot of this many seconds across processes (`enqueuePeriodicJobs`). */
  everySeconds?: number;
}

/**
 * Job kinds by name. Each handler names its own payload type; `never` here accepts them all
 * (a handler of any payload may stand where one of `never` is expected).
 */
export type JobTasks<Deps = JobDeps> = Record<string, JobTask<never, Deps>>;

/** The payload type of a task. */
export type PayloadOf<Task> = Task extends { handler: (deps: never, payload: infer Payload, job: JobRow) => unknown } ? Payload : never;

/** Binds every handler of `tasks` to `deps`: what the runner claims and runs. */
export function taskHandlers<Deps>(tasks: JobTasks<Deps>, deps: Deps): JobHandlers {
  return Object.fromEntries(Object.entries(tasks).map(([kind, task]) => [kind, (payload: unknown, job: JobRow) => task.handler(deps, payload as never, job)]));
}

/** The kinds of `tasks` that run in a lane of their own. */
export function taskLanes(tasks: JobTasks<never>): JobLaneSettings[] {
  return Object.entries(tasks).flatMap(([kind, task]) => (task.lane ? [{ kinds: [kind], ...task.lane }] : []));
}

/** The kinds of `tasks` enqueued on a clock. */
export function periodicTasks(tasks: JobTasks<never>): PeriodicJob[] {
  return Object.entries(tasks).flatMap(([kind, task]) => (task.everySeconds ? [{ kind, everySeconds: task.everySeconds }] : []));
}
