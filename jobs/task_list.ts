/**
 * The task list: every job kind this server runs, assembled once from what the areas export
 * (each area's `<area>_jobs.ts`: handler, lane, period). The payload types, the lanes and
 * the periodic kinds all come from this one table. Nothing below imports it: the runner
 * receives it (jobs/index.ts, adapters/runtime), and an area enqueues a job by its kind's
 * name (core/jobs/jobs_queries.ts `enqueueJob`).
 */
import type { JobHandler } from "../core/jobs/job_runner.ts";
import type { JobDeps } from "../core/jobs/job_deps.ts";
import { type JobTask, type PayloadOf, periodicTasks, taskHandlers, taskLanes } from "../core/jobs/job_task.ts";
import { queueJobs } from "../core/jobs/purge_finished_jobs.ts";
import { idempotencyJobs } from "../core/idempotency/idempotency_jobs.ts";
import { creditsJobs } from "../core/credits/credits_jobs.ts";
import { mediaJobs } from "../core/media/media_jobs.ts";
import { schedulingJobs } from "../core/scheduling/scheduling_jobs.ts";
import { coversJobs } from "../core/covers/covers_jobs.ts";
import { workersJobs } from "../core/workers/workers_jobs.ts";
import { articlesJobs } from "../core/articles/articles_jobs.ts";
import { contentJobs } from "../core/content/content_jobs.ts";
import { inspirationJobs } from "../core/inspiration/inspiration_jobs.ts";
import { audienceJobs } from "../core/audience/audience_jobs.ts";
import { signalsJobs } from "../core/signals/signals_jobs.ts";
import { datasetsJobs } from "../core/datasets/datasets_jobs.ts";
import { dmJobs } from "../core/dm/dm_jobs.ts";
import { eventsJobs } from "../core/events/events_jobs.ts";
import { webhooksJobs } from "../core/webhooks/webhooks_jobs.ts";

const areas = [
  idempotencyJobs,
  creditsJobs,
  queueJobs,
  mediaJobs,
  schedulingJobs,
  coversJobs,
  workersJobs,
  articlesJobs,
  contentJobs,
  inspirationJobs,
  audienceJobs,
  signalsJobs,
  datasetsJobs,
  dmJobs,
  eventsJobs,
  webhooksJobs,
] as const;

// Two areas naming the same kind would silently replace one handler with the other.
const duplicates = areas.flatMap(Object.keys).filter((kind, i, all) => all.indexOf(kind) !== i);
if (duplicates.length > 0) throw new Error(`Job kinds declared twice: ${duplicates.join(", ")}`);

/** Every job kind, by name. */
export const taskList = Object.assign({}, ...areas) as UnionToIntersection<(typeof areas)[number]>;

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** A job kind this server knows. */
export type JobKind = keyof typeof taskList;

/** The payload of each job kind. */
export type JobPayloads = { [K in JobKind]: PayloadOf<(typeof taskList)[K]> };

// Every handler accepts the deps the runner gives (a compile-time check of the whole table).
taskList satisfies { [K in JobKind]: JobTask<JobPayloads[K], JobDeps> };

/** A handler per kind, typed by the kind's payload. */
export type KnownJobHandlers = { [K in JobKind]: JobHandler<JobPayloads[K]> };

/** Builds the handler of every kind on `deps`. */
export function jobHandlers(deps: JobDeps): KnownJobHandlers {
  return taskHandlers(taskList, deps) as KnownJobHandlers;
}

/** Kinds that run in a lane of their own (the areas' `lane`). */
export const jobLanes = taskLanes(taskList);

/**
 * Kinds enqueued on a clock (the areas' `everySeconds`). Each slot's run is keyed by the
 * slot's start, so however many processes schedule, each slot's run is enqueued once
 * (`enqueueJobOnce`).
 */
export const periodicJobs = periodicTasks(taskList);
