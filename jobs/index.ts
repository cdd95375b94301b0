/**
 * Starts the background job runner of a server process (`threadline serve`, or a host that
 * mounts Threadline and calls `start()`); never from `openRuntime`, since tests open many
 * runtimes and must not each start workers.
 *
 * Two shapes, one loop (core/jobs/job_loop.ts):
 * - PostgreSQL (`databaseUrl`): bree starts the long-lived worker thread `run_due_jobs.ts`
 *   with its own pool, so handlers never compete with requests for the event loop.
 *   Several processes (and hosts) run side by side; SKIP LOCKED keeps them off each other's jobs.
 * - Embedded PGlite (no `databaseUrl`): the loop runs in this thread on the server's own
 *   pool. A worker thread could reach PGlite only through a second connection to the
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
import { fileURLToPath } from "node:url";
import Bree from "bree";
import type { Clock } from "../core/clock.ts";
import { systemClock } from "../core/clock.ts";
import type { Sql } from "../core/db/sql.ts";
import { runJobLanes } from "../core/jobs/job_loop.ts";
import { jobHandlers, jobLanes, periodicJobs, type JobDeps } from "../core/jobs/job_kinds.ts";
import type { JobEvent, JobEventListener } from "../core/jobs/job_events.ts";
import { releaseJobsHeldBy } from "../core/jobs/jobs_queries.ts";
import { releaseLeasesOf } from "../core/publishing/lease_queries.ts";
import type { SocialNetwork } from "../core/network/social_network.ts";
import type { NetworkSettings } from "../adapters/x/open_network.ts";
import type { RunDueJobsSettings } from "./run_due_jobs.ts";
import type { MediaStore } from "../core/ports/media_store.ts";
import type { MediaStoreConfig } from "../adapters/media/open_media_store.ts";
import type { Model } from "../core/model/model.ts";
import type { ModelSettings } from "../adapters/runtime/config.ts";
import { openPorts, type PortSettings } from "../adapters/runtime/open_ports.ts";
import { createGuardedWebhookSender } from "../adapters/outbound/guarded_post.ts";

/** How to run jobs. */
export interface JobRunnerOptions {
  /** PostgreSQL URL: jobs run in a bree worker thread with its own pool. */
  databaseUrl?: string;
  /**
   * The server's pool: jobs run on it in this thread when there is no `databaseUrl`
   * (embedded PGlite); with a worker thread it releases the thread's leases on `stop()`.
   */
  sql?: Sql;
  /** Lock owner of claimed jobs; default `<host>:<pid>:<main|jobs-N>`. */
  workerId?: string;
  /** Jobs claimed per statement (default 10) and run at once (default the same). */
  batchSize?: number;
  concurrency?: number;
  /** Lease of a claim, renewed while its handler runs (default 300 s). */
  leaseSeconds?: number;
  /** Wait between polls of an empty queue (default 1000 ms). */
  pollIntervalMs?: number;
  /** Interval of the stale-lock sweep (default 15 000 ms). */
  sweepIntervalMs?: number;
  /** Pool of the worker thread (default 4). */
  poolSize?: number;
  /** Enqueue the periodic kinds of core/jobs/job_kinds.ts (default true). */
  periodic?: boolean;
  /** In-process mode only; a worker thread uses the system clock. */
  clock?: Clock;
  /** The ports' settings (adapters/runtime/open_ports.ts): a worker thread opens its own ports from them. */
  ports?: PortSettings;
  /** In-process mode: the server's opened ports, so handlers share its network, media store and model. */
  deps?: Pick<JobDeps, "network" | "media" | "model" | "webhookSender">;
  /** Hears claims, failures and sent posts (adapters/observability/job_event_sink.ts). */
  events?: JobEventListener;
  /** How long `stop()` lets the jobs in hand finish before terminating them and releasing their leases (default 30 000 ms). */
  stopTimeoutMs?: number;
  /** Where bree's own warnings and errors go (a dead worker thread). */
  logger?: Pick<Console, "warn" | "error">;
  /** @deprecated Use `ports`. The network settings of `ports`. */
  networkSettings?: NetworkSettings;
  /** @deprecated Use `ports`. The media store of `ports`. */
  mediaConfig?: MediaStoreConfig;
  /** @deprecated Use `ports`. The model settings of `ports`. */
  modelSettings?: ModelSettings;
  /** @deprecated Use `deps`. */
  network?: SocialNetwork;
  /** @deprecated Use `deps`. */
  media?: MediaStore;
  /** @deprecated Use `deps`. */
  model?: Model;
}

/** A job still running at shutdown, handed back to the queue for another process. */
export interface ReleasedJob {
  id: number;
  kind: string;
}

/** A started runner. */
export interface JobRunner {
  mode: "worker-thread" | "in-process";
  /** The lock owner of the jobs it claims. */
  workerId: string;
  /**
   * Lets the jobs in hand finish (up to `stopTimeoutMs`) and stops; then releases the jobs
   * and post claims still held, and answers the jobs released (id and kind).
   */
  stop(): Promise<ReleasedJob[]>;
}

/**
 * The worker thread file: the compiled `.js` beside this module in the published package
 * (dist/), else the `.ts` source with its TypeScript preload (tsx_preload.mjs).
 */
const COMPILED = import.meta.url.endsWith(".js");
const WORKER_FILE = fileURLToPath(new URL(COMPILED ? "./run_due_jobs.js" : "./run_due_jobs.ts", import.meta.url));
const WORKER_EXEC_ARGV = COMPILED ? [] : ["--import", new URL("./tsx_preload.mjs", import.meta.url).href];
const WORKER_NAME = "run_due_jobs";

/** Runners started in this process, so each has its own lock owner. */
let runnersStarted = 0;

/** Starts running jobs: in a bree worker thread with PostgreSQL, in this thread with embedded PGlite. */
export async function startJobRunner(options: JobRunnerOptions): Promise<JobRunner> {
  const logger = options.logger ?? console;
  const settings = {
    batchSize: options.batchSize ?? 10,
    leaseSeconds: options.leaseSeconds ?? 300,
    pollIntervalMs: options.pollIntervalMs ?? 1000,
    sweepIntervalMs: options.sweepIntervalMs ?? 15_000,
    periodic: options.periodic ?? true,
  };
  const concurrency = options.concurrency ?? settings.batchSize;
  const stopTimeoutMs = options.stopTimeoutMs ?? 30_000;
  const events = options.events ?? legacyEvents(logger);
  const ports: PortSettings = options.ports ?? {
    network: options.networkSettings ?? {},
    media: options.mediaConfig ?? { kind: "none" },
    model: options.modelSettings ?? {},
    outbound: {},
  };
  const sequence = ++runnersStarted;
  if (!options.databaseUrl) {
    if (!options.sql) throw new Error("startJobRunner needs a databaseUrl (PostgreSQL) or the server's sql pool (embedded)");
    const clock = options.clock ?? systemClock;
    const given = options.deps ?? { network: options.network, media: options.media, model: options.model };
    const opened = given.network && given.model ? undefined : await openPorts(options.sql, clock, ports);
    const deps: JobDeps = {
      sql: options.sql,
      clock,
      network: given.network ?? opened!.network,
      media: given.media ?? opened?.media,
      model: given.model ?? opened!.model,
      webhookSender: options.deps?.webhookSender ?? opened?.webhookSender ?? createGuardedWebhookSender(ports.outbound),
      events,
    };
    const workerId = options.workerId ?? `${hostname()}:${process.pid}:main${sequence > 1 ? `-${sequence}` : ""}`;
    return startInProcess(deps, { ...settings, concurrency, workerId, stopTimeoutMs, events });
  }
  const workerData: RunDueJobsSettings = {
    ...settings,
    databaseUrl: options.databaseUrl,
    workerId: options.workerId ?? `${hostname()}:${process.pid}:jobs-${sequence}`,
    concurrency,
    poolSize: options.poolSize ?? 4,
    ports,
  };
  return startWorkerThread(workerData, { stopTimeoutMs, logger, events, sql: options.sql });
}

async function startWorkerThread(
  workerData: RunDueJobsSettings & { workerId: string },
  options: { stopTimeoutMs: number; logger: Pick<Console, "warn" | "error">; events: JobEventListener; sql?: Sql },
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
    // The thread's JobEvents (run_due_jobs.ts); bree itself still handles "done".
    workerMessageHandler: ({ message }: { message?: unknown }) => {
      if (typeof message === "object" && message !== null && "event" in message) events(message as JobEvent);
    },
    jobs: [
      {
        name: WORKER_NAME,
        path: WORKER_FILE,
        // No interval: the worker loops by itself (run_due_jobs.ts); bree supervises it.
        worker: { execArgv: WORKER_EXEC_ARGV, workerData },
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
    workerId: workerData.workerId,
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
        return options.sql ? releaseHeld(options.sql, workerData.workerId) : [];
      })());
    },
  };
}

function startInProcess(
  deps: JobDeps,
  settings: {
    batchSize: number;
    concurrency: number;
    leaseSeconds: number;
    pollIntervalMs: number;
    sweepIntervalMs: number;
    periodic: boolean;
    workerId: string;
    stopTimeoutMs: number;
    events: JobEventListener;
  },
): JobRunner {
  const controller = new AbortController();
  const { workerId } = settings;
  const loop = runJobLanes({
    ...settings,
    lanes: jobLanes,
    sql: deps.sql,
    clock: deps.clock,
    handlers: jobHandlers(deps),
    workerId,
    signal: controller.signal,
    periodic: settings.periodic ? periodicJobs : [],
    events: settings.events,
  });
  let stopped: Promise<ReleasedJob[]> | undefined;
  return {
    mode: "in-process",
    workerId,
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
        return releaseHeld(deps.sql, workerId);
      })());
    },
  };
}

/** Releases the jobs and publication leases (posts and articles) `workerId` still holds; answers the jobs. */
async function releaseHeld(sql: Sql, workerId: string): Promise<ReleasedJob[]> {
  const jobs = await releaseJobsHeldBy(sql, workerId);
  await releaseLeasesOf(sql, workerId);
  return jobs.map((job) => ({ id: job.id, kind: job.kind }));
}

/** Without a sink (direct callers, tests): failures and loop errors as text on `logger`. */
function legacyEvents(logger: Pick<Console, "warn" | "error">): JobEventListener {
  return (event) => {
    if (event.event === "failed") logger.warn(`Job ${event.jobId} ("${event.kind}") attempt ${event.attempts} failed: ${event.error.message}`);
    else if (event.event === "loop_error") logger.error(`Job runner "${event.workerId}": ${event.error.message}`);
  };
}
