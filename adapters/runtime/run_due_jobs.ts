/**
 * The bree worker that runs due jobs (PostgreSQL mode; see index.ts for embedded PGlite).
 * Long-lived: it opens one pool for its lifetime and loops claim -> run -> complete, as
 * bree's README advises for work that repeats ("make the job itself run the task multiple
 * times"), until bree's `stop()` posts "cancel"; then it finishes the batch in hand, closes
 * the pool and says "done". Its ports are opened by the same wiring as the server's
 * (adapters/runtime/open_ports.ts); its JobEvents go to the server's thread as messages,
 * where they are logged and counted with the server's logger and metrics.
 */
import { parentPort, workerData } from "node:worker_threads";
import { systemClock } from "../../core/clock.ts";
import { runJobLanes } from "../../core/jobs/job_loop.ts";
import { jobHandlers, jobLanes, periodicJobs } from "../../jobs/task_list.ts";
import type { JobEvent } from "../../core/jobs/job_events.ts";
import { openDatabase } from "../postgres/open_database.ts";
import { jobDepsOf, openPorts, type PortSettings } from "./open_ports.ts";

/** What `startJobRunner` hands this worker through bree's `workerData`. */
export interface RunDueJobsSettings {
  databaseUrl: string;
  /** Lock owner of claimed jobs (chosen by the parent, which releases its leases on shutdown). */
  workerId: string;
  poolSize: number;
  batchSize: number;
  leaseSeconds: number;
  concurrency: number;
  pollIntervalMs: number;
  sweepIntervalMs: number;
  /** Enqueue the periodic kinds of job_kinds.ts. */
  periodic: boolean;
  /** The server's ports as plain data: the publisher, purges and covers use the same network, store and model. */
  ports: PortSettings;
}

if (!parentPort) throw new Error("jobs/run_due_jobs.ts runs as a bree worker thread; start it with startJobRunner()");
const port = parentPort;
const settings = workerData as RunDueJobsSettings;
const controller = new AbortController();
port.on("message", (message) => {
  if (message === "cancel") controller.abort();
});
const events = (event: JobEvent) => port.postMessage(event);

const database = await openDatabase({ databaseUrl: settings.databaseUrl, poolSize: settings.poolSize });
const { workerId } = settings;
try {
  const ports = await openPorts(database.sql, systemClock, settings.ports);
  await runJobLanes({
    lanes: jobLanes,
    sql: database.sql,
    handlers: jobHandlers(jobDepsOf(database.sql, systemClock, ports, events)),
    workerId,
    clock: systemClock,
    signal: controller.signal,
    periodic: settings.periodic ? periodicJobs : [],
    batchSize: settings.batchSize,
    leaseSeconds: settings.leaseSeconds,
    concurrency: settings.concurrency,
    pollIntervalMs: settings.pollIntervalMs,
    sweepIntervalMs: settings.sweepIntervalMs,
    events,
  });
} finally {
  await database.close();
}
// bree terminates the thread on "done" (the "message" listener would otherwise keep it alive).
port.postMessage("done");
