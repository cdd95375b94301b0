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
 */
import { hostname } from "node:os";
import { fileURLToPath } from "node:url";
import Bree from "bree";
import type { Clock } from "../core/clock.ts";
import { systemClock } from "../core/clock.ts";
import type { Sql } from "../core/db/sql.ts";
import { runJobLanes } from "../core/jobs/job_loop.ts";
import { jobHandlers, jobLanes, periodicJobs } from "../core/jobs/job_kinds.ts";
import type { SocialNetwork } from "../core/network/social_network.ts";
import { openNetwork, type NetworkSettings } from "../adapters/x/open_network.ts";
import type { RunDueJobsSettings } from "./run_due_jobs.ts";
import type { MediaStore } from "../core/media/media_store.ts";
import type { MediaStoreConfig } from "../adapters/media/open_media_store.ts";
import type { Model } from "../core/model/model.ts";
import { openModel } from "../adapters/ai/open_model.ts";
import type { ModelSettings } from "../adapters/runtime/config.ts";

/** How to run jobs. */
export interface JobRunnerOptions {
  /** PostgreSQL URL: jobs run in a bree worker thread with its own pool. */
  databaseUrl?: string;
  /** The server's pool, used when there is no `databaseUrl` (embedded PGlite): jobs run in this thread. */
  sql?: Sql;
  /** Lock owner of claimed jobs; default `<host>:<pid>:<thread>`. */
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
  /** In-process mode: the server's network for the publisher (default: opened from `networkSettings` on `sql`). */
  network?: SocialNetwork;
  /** Worker-thread mode: the thread opens its own network from these (config.ts `networkSettingsOf`; default the simulated world). */
  networkSettings?: NetworkSettings;
  /** In-process mode: the server's media store, which the purge of unattached uploads deletes from. */
  media?: MediaStore;
  /** Worker-thread mode: the thread opens its own media store from this (the runtime's `mediaConfig`); absent: none. */
  mediaConfig?: MediaStoreConfig;
  /** In-process mode: the server's model, for article covers (default: opened from `modelSettings`). */
  model?: Model;
  /** Worker-thread mode: the thread opens its own model from these (config.ts `modelSettingsOf`; default the local engine). */
  modelSettings?: ModelSettings;
  /** How long `stop()` lets the batch in hand finish before terminating the thread (default 30 000 ms). */
  stopTimeoutMs?: number;
  logger?: Pick<Console, "warn" | "error">;
}

/** A started runner. */
export interface JobRunner {
  mode: "worker-thread" | "in-process";
  /** Finishes the batch in hand and stops; jobs it could not finish are swept back to the queue by their lease. */
  stop(): Promise<void>;
}

/** The worker thread file and its TypeScript preload (tsx_preload.mjs). */
const WORKER_FILE = fileURLToPath(new URL("./run_due_jobs.ts", import.meta.url));
const PRELOAD_URL = new URL("./tsx_preload.mjs", import.meta.url).href;
const WORKER_NAME = "run_due_jobs";

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
  if (!options.databaseUrl) {
    if (!options.sql) throw new Error("startJobRunner needs a databaseUrl (PostgreSQL) or the server's sql pool (embedded)");
    const clock = options.clock ?? systemClock;
    const network = options.network ?? openNetwork({ sql: options.sql, clock, ...options.networkSettings });
    const model = options.model ?? openModel(options.modelSettings ?? {}, options.modelSettings?.faulty);
    return startInProcess(options.sql, { ...settings, concurrency, workerId: options.workerId, clock, network, media: options.media, model, logger });
  }
  const workerData: RunDueJobsSettings = {
    ...settings,
    databaseUrl: options.databaseUrl,
    workerId: options.workerId,
    concurrency,
    poolSize: options.poolSize ?? 4,
    network: options.networkSettings ?? {},
    media: options.mediaConfig ?? { kind: "none" },
    model: options.modelSettings ?? {},
  };
  return startWorkerThread(workerData, options.stopTimeoutMs ?? 30_000, logger);
}

async function startWorkerThread(workerData: RunDueJobsSettings, stopTimeoutMs: number, logger: Pick<Console, "warn" | "error">): Promise<JobRunner> {
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
    jobs: [
      {
        name: WORKER_NAME,
        path: WORKER_FILE,
        // No interval: the worker loops by itself (run_due_jobs.ts); bree supervises it.
        worker: { execArgv: ["--import", PRELOAD_URL], workerData },
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
  return {
    mode: "worker-thread",
    async stop() {
      if (stopping) return;
      stopping = true;
      clearTimeout(restartTimer);
      const deadline = setTimeout(() => void bree.workers.get(WORKER_NAME)?.terminate(), stopTimeoutMs);
      try {
        await bree.stop();
      } finally {
        clearTimeout(deadline);
      }
    },
  };
}

function startInProcess(
  sql: Sql,
  settings: {
    batchSize: number;
    concurrency: number;
    leaseSeconds: number;
    pollIntervalMs: number;
    sweepIntervalMs: number;
    periodic: boolean;
    workerId?: string;
    clock: Clock;
    network: SocialNetwork;
    media?: MediaStore;
    model: Model;
    logger: Pick<Console, "warn" | "error">;
  },
): JobRunner {
  const controller = new AbortController();
  const workerId = settings.workerId ?? `${hostname()}:${process.pid}:main`;
  const { logger } = settings;
  const loop = runJobLanes({
    ...settings,
    lanes: jobLanes,
    sql,
    handlers: jobHandlers({ sql, clock: settings.clock, network: settings.network, media: settings.media, model: settings.model }),
    workerId,
    signal: controller.signal,
    periodic: settings.periodic ? periodicJobs : [],
    onError: (error) => logger.error(`Job runner "${workerId}": ${(error as Error).message}`),
    onFailure: (job, error) => logger.warn(`Job ${job.id} ("${job.kind}") attempt ${job.attempts} failed: ${(error as Error)?.message ?? error}`),
  });
  let stopped: Promise<void> | undefined;
  return {
    mode: "in-process",
    stop() {
      controller.abort();
      return (stopped ??= loop);
    },
  };
}
