/**
 * What a job runner reports as it works, as plain data: the runner in a job thread
 * posts these to the server's thread (jobs/job_thread.ts), the in-process runner hands
 * them over directly, and one sink (adapters/observability/job_event_sink.ts) logs and
 * counts them with the server's logger and metrics registry. One path for both shapes,
 * so per-process counters are right whichever thread ran the job.
 */
import type { JobRow } from "./jobs_queries.ts";

/** One thing a runner saw. */
export type JobEvent =
  /** A job was claimed `lagSeconds` after it fell due (its `run_at`). */
  | { event: "claimed"; jobId: number; kind: string; lagSeconds: number }
  /** An attempt failed; `final` when the job ended `failed` (no retry left). */
  | { event: "failed"; jobId: number; kind: string; attempts: number; final: boolean; error: ErrorFacts }
  /** The claim loop itself hit an error (a lost database); it retries after a poll interval. */
  | { event: "loop_error"; runnerId: string; error: ErrorFacts }
  /** The publisher marked a post `sent`, `latenessSeconds` after its scheduled time. */
  | { event: "post_sent"; jobId: number; latenessSeconds: number };

/** An error as structured-clone safe data. */
export interface ErrorFacts {
  message: string;
  stack?: string;
}

/** Hears a runner's events. */
export type JobEventListener = (event: JobEvent) => void;

/** An error as data (a thrown non-Error becomes its string). */
export function errorFacts(error: unknown): ErrorFacts {
  return error instanceof Error ? { message: error.message, stack: error.stack } : { message: String(error) };
}

/**
 * How late a claimed job is: from its `run_at` to the claim, both on the database's clock
 * (the claim set `locked_until` to its `now()` plus the lease), so process clocks never skew it.
 */
export function claimLagSeconds(job: Pick<JobRow, "run_at" | "locked_until">, leaseSeconds: number): number {
  if (!job.locked_until) return 0;
  return Math.max(0, (job.locked_until.getTime() - leaseSeconds * 1000 - job.run_at.getTime()) / 1000);
}
