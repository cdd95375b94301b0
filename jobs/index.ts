/**
 * Starts the background job runner of a server process (`threadline serve`, or a host that
 * mounts Threadline and calls `start()`); never from `openRuntime`, since tests open many
 * runtimes and must not each start workers. The composition root (adapters/runtime/
 * start_jobs.ts) decides where jobs run and hands this runner everything: it imports no task
 * and no adapter.
 *
 * Two shapes, one loop (core/jobs/job_loop.ts):
 * - PostgreSQL (`thread`): bree starts a long-lived job thread from the entry file it is
 *   given (adapters/runtime/run_due_jobs.ts, the composition root of that thread, which opens
 *   its own pool and ports from `wiring`), so handlers never compete with requests for the
 *   event loop. Several processes (and hosts) run side by side; SKIP LOCKED keeps them off
 *   each other's jobs.
 * - Embedded PGlite (`inProcess`): the loop runs in this thread on the server's own pool and
 *   ports. A job thread could reach PGlite only through a second connection to the
 *   pglite-socket server, and that server interleaves the extended-protocol messages of
 *   concurrent connections: measured here, a second connection running transactions beside
 *   the server's gave `portal "" does not exist` errors and then a hang. One connection,
 *   pipelined, is the embedded contract (adapters/runtime/open_runtime.ts).
 *
 * Both shapes report what they do as JobEvents (core/jobs/job_events.ts) to `events`, in this
 * thread: the worker posts them over its message port. On `stop()` running jobs get
 * `stopTimeoutMs` to finish; then the thread is terminated (the in-process loop left to the
 * closing pool) and the jobs and post claims this runner still holds are released, so
 * another process retries them at once instead of waiting out their leases.
 */
import { hostname } from "node:os";
import Bree from "bree";
import type { Sql } from "../core/db/sql.ts";
import { runJobTasks } from "../core/jobs/job_loop.ts";
import type { JobDeps } from "../core/jobs/job_deps.ts";
import type { JobTasks } from "../core/jobs/job_task.ts";
import type { JobEvent, JobEventListener } from "../core/jobs/job_events.ts";
import { releaseJobsHeldBy } from "../core/jobs/jobs_queries.ts";
import { releaseLeasesOf } from "../core/publishing/lease_queries.ts";
import type { JobThreadData, JobThreadLoop } from "./job_thread.ts";

/** How the loop claims and runs, wherever it runs. */
export interface JobLoopSettings {
  /** Lock owner of claimed jobs; default `<host>:<pid>:<main|jobs-N>`. */
  runnerId?: string;
  /** Jobs claimed per statement (default 10) and run at once (default the same). */
  batchSize?: number;
  concurrency?: number;
  /** Lease of a claim, renewed while its handler runs (default 300 s). */
  leaseSeconds?: number;
  /** Wait between polls of an empty queue (default 1000 ms). */
  pollIntervalMs?: number;
  /** Interval of the stale-lock sweep (default 15 000 ms). */
  sweepIntervalMs?: number;
  /** Enqueue the periodic kinds of the task list (default true). */
  periodic?: boolean;
  /** Hears claims, failures and sent posts (adapters/observability/job_event_sink.ts). */
  events?: JobEventListener;
  /** How long `stop()` lets the jobs in hand finish before terminating them and releasing their leases (default 30 000 ms). */
  stopTimeoutMs?: number;
  /** Where bree's own warnings and errors go (a dead job thread). */
  logger?: Pick<Console, "warn" | "error">;
}

/** Embedded PGlite: the loop runs in this thread, on the server's pool and ports (`deps.sql`). */
export interface InProcessJobs {
  tasks: JobTasks;
  deps: JobDeps;
}

/** PostgreSQL: a bree job thread whose entry file opens its own pool and ports. */
export interface ThreadJobs {
  /** The thread's entry (a `.ts` file gets the TypeScript preload, tsx_preload.mjs). */
  file: string;
  /** Plain (structured-clone safe) data the entry wires the thread from; opaque here. */
  wiring: unknown;
  /** The server's pool: releases the thread's jobs and leases on `stop()`. */
  sql?: Sql;
  /** The thread's old-generation heap cap in MB (`jobThreadWorkerOptions`); default `JOB_THREAD_HEAP_MB`. */
  heapMb?: number;
}

/** How to run jobs: in this thread or in a job thread, and the loop's settings. */
export type JobRunnerOptions = JobLoopSettings & ({ inProcess: InProcessJobs; thread?: never } | { thread: ThreadJobs; inProcess?: never });

/** A job still running at shutdown, handed back to the queue for another process. */
export interface ReleasedJob {
  id: number;
  kind: string;
}

/** A started runner. */
export interface JobRunner {
  mode: "worker-thread" | "in-process";
  /** The lock owner of the jobs it claims. */
  runnerId: string;
  /**
   * Lets the jobs in hand finish (up to `stopTimeoutMs`) and stops; then releases the jobs
   * and post claims still held, and answers the jobs released (id and kind).
   */
  stop(): Promise<ReleasedJob[]>;
}

/** The preload that lets a job thread load TypeScript on Node 20 (tsx registers only the main thread there). */
const TSX_PRELOAD = new URL("./tsx_preload.mjs", import.meta.url).href;

/**
 * The job thread's default old-generation cap, in MB: about eight times what it holds idle (its
 * modules, pool and network, ~60 MB). V8 runs a thread's first full collection at a share of
 * its cap, so an uncapped thread let a burst's short-lived garbage grow its heap to ~130 MB
 * before collecting it; with this cap the process publishing 10,000 posts stayed at 263-268 MB
 * RSS against 341-350 MB, at the same speed (bench "Publisher"). A thread past its cap ends with
 * ERR_WORKER_OUT_OF_MEMORY and is started again (its jobs retried once their leases pass).
 */
export const JOB_THREAD_HEAP_MB = 512;

/** bree's worker options for a job thread: the TypeScript preload for a `.ts` entry, its data, its heap cap. */
export function jobThreadWorkerOptions(thread: Pick<ThreadJobs, "file" | "heapMb">, workerData: unknown) {
  return {
    execArgv: thread.file.endsWith(".ts") ? ["--import", TSX_PRELOAD] : [],
    workerData,
    resourceLimits: { maxOldGenerationSizeMb: thread.heapMb ?? JOB_THREAD_HEAP_MB },
  };
}
const WORKER_NAME = "run_due_jobs";

/** Runners started in this process, so each has its own lock owner. */
let runnersStarted = 0;

/** Starts running jobs: in a bree job thread (`thread`) or in this thread (`inProcess`). */
export async function startJobRunner(options: JobRunnerOptions): Promise<JobRunner> {
  const logger = options.logger ?? console;
  const batchSize = options.batchSize ?? 10;
  const loop = {
    batchSize,
    leaseSeconds: options.leaseSeconds ?? 300,
    pollIntervalMs: options.pollIntervalMs ?? 1000,
    sweepIntervalMs: options.sweepIntervalMs ?? 15_000,
    periodic: options.periodic ?? true,
    concurrency: options.concurrency ?? batchSize,
  };
  const stopTimeoutMs = options.stopTimeoutMs ?? 30_000;
  const events = options.events ?? legacyEvents(logger);
  const sequence = ++runnersStarted;
  if (options.inProcess) {
    const runnerId = options.runnerId ?? `${hostname()}:${process.pid}:main${sequence > 1 ? `-${sequence}` : ""}`;
    return startInProcess(options.inProcess, { ...loop, runnerId, stopTimeoutMs, events });
  }
  const workerData: JobThreadData<unknown> = {
    loop: { ...loop, runnerId: options.runnerId ?? `${hostname()}:${process.pid}:jobs-${sequence}` },
    wiring: options.thread.wiring,
  };
  return startWorkerThread(options.thread, workerData, { stopTimeoutMs, logger, events });
}

async function startWorkerThread(
  thread: ThreadJobs,
  workerData: JobThreadData<unknown>,
  options: { stopTimeoutMs: number; logger: Pick<Console, "warn" | "error">; events: JobEventListener },
): Promise<JobRunner> {
  const { logger, events } = options;
  let stopping = false;
  let restartTimer: NodeJS.Timeout | undefined;
  let restartDelayMs = 1000;
  let startedAt = Date.now();
  const bree = new Bree({
    root: false,
    doRootCheck: false,
    // bree logs every start and exit at info level; keep its warnings and errors.
    logger: { info() {}, warn: (...args: unknown[]) => logger.warn(...args), error: (...args: unknown[]) => logger.error(...args) },
    errorHandler: (error, data) => logger.error(`Job worker "${data.name}" failed:`, error),
    // The thread's JobEvents (job_thread.ts); bree itself still handles "done".
    workerMessageHandler: ({ message }: { message?: unknown }) => {
      if (typeof message === "object" && message !== null && "event" in message) events(message as JobEvent);
    },
    jobs: [
      {
        name: WORKER_NAME,
        path: thread.file,
        // No interval: the worker loops by itself (job_thread.ts); bree supervises it.
        worker: jobThreadWorkerOptions(thread, workerData),
      },
    ],
  });
  // A worker that died (a crash, a lost database at startup) comes back with a backoff that
  // doubles up to a minute while it keeps dying young.
  bree.on("worker deleted", () => {
    if (stopping) return;
    restartDelayMs = Date.now() - startedAt > 60_000 ? 1000 : Math.min(restartDelayMs * 2, 60_000);
    restartTimer = setTimeout(() => {
      if (stopping) return;
      startedAt = Date.now();
      void bree.run(WORKER_NAME);
    }, restartDelayMs);
  });
  await bree.run(WORKER_NAME);
  let stopped: Promise<ReleasedJob[]> | undefined;
  return {
    mode: "worker-thread",
    runnerId: workerData.loop.runnerId,
    stop() {
      return (stopped ??= (async () => {
        stopping = true;
        clearTimeout(restartTimer);
        // Past the bound the thread is terminated: its handlers can write nothing more,
        // so what it still holds can be released safely.
        const deadline = setTimeout(() => void bree.workers.get(WORKER_NAME)?.terminate(), options.stopTimeoutMs);
        try {
          await bree.stop();
        } finally {
          clearTimeout(deadline);
        }
        return thread.sql ? releaseHeld(thread.sql, workerData.loop.runnerId) : [];
      })());
    },
  };
}

function startInProcess(jobs: InProcessJobs, settings: JobThreadLoop & { stopTimeoutMs: number; events: JobEventListener }): JobRunner {
  const controller = new AbortController();
  const { runnerId } = settings;
  // Handlers report to the runner's listener (publisher lateness), as in a job thread.
  const deps = { ...jobs.deps, events: settings.events };
  const loop = runJobTasks({ ...settings, tasks: jobs.tasks, deps, signal: controller.signal });
  let stopped: Promise<ReleasedJob[]> | undefined;
  return {
    mode: "in-process",
    runnerId,
    stop() {
      return (stopped ??= (async () => {
        controller.abort();
        let timer: NodeJS.Timeout | undefined;
        const bound = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, settings.stopTimeoutMs);
        });
        await Promise.race([loop, bound]);
        clearTimeout(timer);
        // A handler still running past the bound cannot be stopped in this thread; released,
        // its next write fails the holder check (and the pool closes next).
        return releaseHeld(deps.sql, runnerId);
      })());
    },
  };
}

/** Releases the jobs and publication leases (posts and articles) `runnerId` still holds; answers the jobs. */
async function releaseHeld(sql: Sql, runnerId: string): Promise<ReleasedJob[]> {
  const jobs = await releaseJobsHeldBy(sql, runnerId);
  await releaseLeasesOf(sql, runnerId);
  return jobs.map((job) => ({ id: job.id, kind: job.kind }));
}

/** Without a sink (direct callers, tests): failures and loop errors as text on `logger`. */
function legacyEvents(logger: Pick<Console, "warn" | "error">): JobEventListener {
  return (event) => {
    if (event.event === "failed") logger.warn(`Job ${event.jobId} ("${event.kind}") attempt ${event.attempts} failed: ${event.error.message}`);
    else if (event.event === "loop_error") logger.error(`Job runner "${event.runnerId}": ${event.error.message}`);
  };
}
