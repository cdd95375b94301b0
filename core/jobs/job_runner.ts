/**
 * One pass of a job runner: claim a batch, run the handlers with bounded concurrency,
 * complete the successes as they end, grouped (completion_group.ts), record each failure.
 * A runner that passes again at once may hand the last successes to its next claim, which
 * completes them in the same statement (`handOff`).
 * Batching the claim and the completion is what makes thousands of jobs per second cheap
 * (bench/jobs_throughput.ts).
 */
import type { Queryable } from "../db/sql.ts";
import { claimJobsCompleting, extendJobLeases, failJob, type JobRow } from "./jobs_queries.ts";
import { claimLagSeconds, errorFacts, type JobEventListener } from "./job_events.ts";
import { mapBounded } from "../concurrency/map_bounded.ts";
import { completionGroup } from "./completion_group.ts";
import { JobDeferral } from "./job_deferral.ts";

/**
 * Does the work of one job. Jobs run at least once, not exactly once: a runner that dies
 * after the work but before the completion commits leaves the job to be run again, so a
 * handler must be idempotent (upserts, `on conflict do nothing`, "already done" checks).
 * Throwing records a failed attempt and schedules a retry with backoff; throwing a
 * JobDeferral queues the job for its `retryAt` and gives the attempt back.
 */
export type JobHandler<Payload = any> = (payload: Payload, job: JobRow) => Promise<unknown>;

/** Handlers by job kind. */
export type JobHandlers = Record<string, JobHandler>;

/** How a runner claims and runs. */
export interface RunJobsOptions {
  sql: Queryable;
  handlers: JobHandlers;
  /** Unique per job runner (host, process, thread): the lock owner of claimed jobs. */
  runnerId: string;
  /** Jobs claimed per statement; default 10. */
  batchSize?: number;
  /** Lease per claim, renewed every third of it while handlers run; default 300 s. */
  leaseSeconds?: number;
  /** Handlers running at once; default `batchSize`. */
  concurrency?: number;
  /** Kinds to claim; default the kinds of `handlers`, so a process never claims a kind it cannot run. */
  kinds?: readonly string[];
  /** Told about each failed attempt (logging). */
  onFailure?: (job: JobRow, error: unknown) => void;
  /** Told about each claim and failed attempt, as data (logs and metrics). */
  events?: JobEventListener;
  /** Successes of this runner's previous pass, completed by this pass's claim statement (`handedOff`). */
  completing?: readonly number[];
  /**
   * Leave the successes no completion statement has started on in `handedOff` instead of
   * completing them here: the caller's next pass completes them with its claim, one round trip
   * where there were two. The caller must complete them itself before it waits or stops.
   */
  handOff?: boolean;
}

/** What one pass did. */
export interface RunJobsResult {
  claimed: number;
  completed: number;
  /** Failed attempts sent back to the queue with backoff. */
  retried: number;
  /** Failed attempts that were the last (`max_attempts` reached). */
  failed: number;
  /** Successes left `running` for the caller's next claim to complete (with `handOff` only). */
  handedOff?: number[];
}

/**
 * Claims up to `batchSize` due jobs and runs them. Handlers must be idempotent: delivery
 * is at least once (see `JobHandler`).
 */
export async function runJobsOnce(options: RunJobsOptions): Promise<RunJobsResult> {
  const batchSize = options.batchSize ?? 10;
  const leaseSeconds = options.leaseSeconds ?? 300;
  const { sql, runnerId, handlers } = options;
  const claim = { runnerId, kinds: options.kinds ?? Object.keys(handlers), limit: batchSize, leaseSeconds, completing: options.completing ?? [] };
  const { jobs, completed: carried } = await claimJobsCompleting(sql, claim);
  const result: RunJobsResult = { claimed: jobs.length, completed: carried, retried: 0, failed: 0 };
  if (options.handOff) result.handedOff = [];
  if (jobs.length === 0) return result;
  const { events } = options;
  if (events) for (const job of jobs) events({ event: "claimed", jobId: job.id, kind: job.kind, lagSeconds: claimLagSeconds(job, leaseSeconds) });

  const running = new Set(jobs.map((job) => job.id));
  // Heartbeat: a handler may outlive the lease; renewing it while we are alive keeps the
  // sweep from handing the job to a second runner (ARCHITECTURE: never run a job twice at once).
  const heartbeat = setInterval(
    () => {
      extendJobLeases(sql, [...running], { runnerId, leaseSeconds }).catch(() => {
        // A missed renewal only shortens the lease; the next beat tries again.
      });
    },
    (leaseSeconds * 1000) / 3,
  );

  const succeeded = completionGroup(sql, runnerId);
  const failures: { job: JobRow; error: unknown }[] = [];
  try {
    await mapBounded(jobs, options.concurrency ?? batchSize, async (job) => {
      try {
        const handler = Object.hasOwn(handlers, job.kind) ? handlers[job.kind] : undefined;
        if (!handler) throw new Error(`No handler for job kind "${job.kind}"`);
        await handler(job.payload, job);
        succeeded.add(job.id);
      } catch (error) {
        failures.push({ job, error });
      } finally {
        running.delete(job.id);
      }
    });
  } finally {
    clearInterval(heartbeat);
  }

  if (options.handOff) result.handedOff = succeeded.takeWaiting();
  result.completed += await succeeded.settled();
  for (const { job, error } of failures) {
    if (error instanceof JobDeferral) {
      // Waiting for an upstream's window: not a failure, and no attempt spent.
      if (await failJob(sql, job.id, error, { runnerId, retryAt: error.retryAt, deferred: true })) result.retried++;
      continue;
    }
    options.onFailure?.(job, error);
    const row = await failJob(sql, job.id, error, { runnerId });
    events?.({ event: "failed", jobId: job.id, kind: job.kind, attempts: job.attempts, final: row?.status === "failed", error: errorFacts(error) });
    if (row?.status === "failed") result.failed++;
    else if (row) result.retried++;
  }
  return result;
}
