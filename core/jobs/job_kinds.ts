/**
 * The registry of job kinds: an area adds its kind here, in one place, as its payload type,
 * its handler and (when it runs on a clock) its period. Workers run exactly the handlers
 * `jobHandlers` builds and claim nothing else; the scheduler enqueues `periodicJobs`.
 * (Several exports, one thing: the registry is only useful read together.)
 */
import type { Clock } from "../clock.ts";
import type { Sql } from "../db/sql.ts";
import type { JobHandler } from "./job_runner.ts";
import type { PeriodicJob } from "./enqueue_periodic_jobs.ts";
import { purgeIdempotencyKeys } from "./kinds/purge_idempotency_keys.ts";
import { resetCreditPools } from "./kinds/reset_credit_pools.ts";
import { purgeFinishedJobs } from "./kinds/purge_finished_jobs.ts";

/** The payload of each job kind. */
export interface JobPayloads {
  purge_idempotency_keys: Record<string, never>;
  reset_credit_pools: Record<string, never>;
  purge_finished_jobs: Record<string, never>;
}

/** A job kind this server knows. */
export type JobKind = keyof JobPayloads;

/** What handlers may use: a worker thread has its own pool, not the server's Services. */
export interface JobDeps {
  sql: Sql;
  clock: Clock;
}

/** A handler per kind, typed by the kind's payload. */
export type KnownJobHandlers = { [K in JobKind]: JobHandler<JobPayloads[K]> };

/** Builds the handler of every kind. */
export function jobHandlers(deps: JobDeps): KnownJobHandlers {
  const now = () => new Date(deps.clock.now());
  return {
    purge_idempotency_keys: async () => {
      await purgeIdempotencyKeys(deps.sql);
    },
    reset_credit_pools: async () => {
      await resetCreditPools(deps.sql, now());
    },
    purge_finished_jobs: async () => {
      await purgeFinishedJobs(deps.sql, now());
    },
  };
}

const HOUR = 3600;

/**
 * Kinds enqueued on a clock. Each slot's run is keyed by the slot's start, so however many
 * processes schedule, each hour's run is enqueued once (`enqueueJobOnce`).
 */
export const periodicJobs: readonly PeriodicJob[] = [
  { kind: "purge_idempotency_keys", everySeconds: HOUR },
  // Hourly so a pool whose billing date passed is reset within the hour.
  { kind: "reset_credit_pools", everySeconds: HOUR },
  { kind: "purge_finished_jobs", everySeconds: 24 * HOUR },
];
