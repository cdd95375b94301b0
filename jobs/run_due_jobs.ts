/**
 * The bree worker that runs due jobs (PostgreSQL mode; see index.ts for embedded PGlite).
 * Long-lived: it opens one pool for its lifetime and loops claim -> run -> complete, as
 * bree's README advises for work that repeats ("make the job itself run the task multiple
 * times"), until bree's `stop()` posts "cancel"; then it finishes the batch in hand, closes
 * the pool and says "done".
 */
import { hostname } from "node:os";
import { parentPort, threadId, workerData } from "node:worker_threads";
import { systemClock } from "../core/clock.ts";
import { runJobLanes } from "../core/jobs/job_loop.ts";
import { jobHandlers, jobLanes, periodicJobs } from "../core/jobs/job_kinds.ts";
import { openDatabase } from "../adapters/postgres/open_database.ts";
import { openNetwork, type NetworkSettings } from "../adapters/x/open_network.ts";
import { openMediaStore, type MediaStoreConfig } from "../adapters/media/open_media_store.ts";
import { openModel } from "../adapters/ai/open_model.ts";
import type { ModelSettings } from "../adapters/runtime/config.ts";

/** What `startJobRunner` hands this worker through bree's `workerData`. */
export interface RunDueJobsSettings {
  databaseUrl: string;
  /** Lock owner of claimed jobs; default `<host>:<pid>:thread-<id>`. */
  workerId?: string;
  poolSize: number;
  batchSize: number;
  leaseSeconds: number;
  concurrency: number;
  pollIntervalMs: number;
  sweepIntervalMs: number;
  /** Enqueue the periodic kinds of job_kinds.ts. */
  periodic: boolean;
  /** The server's network settings: the publisher opens the same network here, on this thread's pool. */
  network: NetworkSettings;
  /** The server's media store (plain data): the purge of unattached uploads deletes from it. */
  media: MediaStoreConfig;
  /** The server's model settings (plain data): article covers are generated with the same model. */
  model: ModelSettings;
}

if (!parentPort) throw new Error("jobs/run_due_jobs.ts runs as a bree worker thread; start it with startJobRunner()");
const port = parentPort;
const settings = workerData as RunDueJobsSettings;
const controller = new AbortController();
port.on("message", (message) => {
  if (message === "cancel") controller.abort();
});

const database = await openDatabase({ databaseUrl: settings.databaseUrl, poolSize: settings.poolSize });
const workerId = settings.workerId ?? `${hostname()}:${process.pid}:thread-${threadId}`;
try {
  const network = openNetwork({ sql: database.sql, clock: systemClock, ...settings.network });
  const { store: media } = await openMediaStore(settings.media, database.sql);
  const model = openModel(settings.model ?? {}, settings.model?.faulty);
  await runJobLanes({
    lanes: jobLanes,
    sql: database.sql,
    handlers: jobHandlers({ sql: database.sql, clock: systemClock, network, media, model }),
    workerId,
    clock: systemClock,
    signal: controller.signal,
    periodic: settings.periodic ? periodicJobs : [],
    batchSize: settings.batchSize,
    leaseSeconds: settings.leaseSeconds,
    concurrency: settings.concurrency,
    pollIntervalMs: settings.pollIntervalMs,
    sweepIntervalMs: settings.sweepIntervalMs,
    onError: (error) => console.error(`Job worker "${workerId}": ${(error as Error).message}`),
    onFailure: (job, error) => console.warn(`Job ${job.id} ("${job.kind}") attempt ${job.attempts} failed: ${(error as Error)?.message ?? error}`),
  });
} finally {
  await database.close();
}
// bree terminates the thread on "done" (the "message" listener would otherwise keep it alive).
port.postMessage("done");
