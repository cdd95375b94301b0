/**
 * The job runner's wiring, the one path every caller takes (the runtime's `startJobs`, tests,
 * the bench): on PostgreSQL the runner starts a job thread whose entry (run_due_jobs.ts)
 * opens its own pool and ports from plain-data settings; on embedded PGlite it runs the task
 * list in this thread on the server's pool and ports. jobs/ receives everything from here.
 */
import type { Clock } from "../../core/clock.ts";
import { systemClock } from "../../core/clock.ts";
import type { Sql } from "../../core/db/sql.ts";
import type { JobDeps } from "../../core/jobs/job_deps.ts";
import { type JobLoopSettings, type JobRunner, startJobRunner } from "../../jobs/index.ts";
import { taskList } from "../../jobs/task_list.ts";
import { fileURLToPath } from "node:url";
import { createGuardedWebhookSender } from "../outbound/guarded_post.ts";
import { openPorts, type PortSettings } from "./open_ports.ts";

/** What the job thread's entry is handed: its database, its pool, its ports' settings. */
export interface JobThreadWiring {
  databaseUrl: string;
  poolSize: number;
  /** The server's ports as plain data: the publisher, purges and covers use the same network, store and model. */
  ports: PortSettings;
}

/** How to start the jobs of a process. */
export interface StartJobsOptions extends JobLoopSettings {
  /** PostgreSQL URL: jobs run in a bree job thread with its own pool. */
  databaseUrl?: string;
  /**
   * The server's pool: jobs run on it in this thread when there is no `databaseUrl`
   * (embedded PGlite); with a job thread it releases the thread's leases on `stop()`.
   */
  sql?: Sql;
  /** In-process mode only; a job thread uses the system clock. */
  clock?: Clock;
  /** The ports' settings (a job thread opens its own ports from them); default: simulated network, local model, no media store. */
  ports?: Partial<PortSettings>;
  /** In-process mode: the server's opened ports, so handlers share its network, media store and model (absent ones are opened from `ports`). */
  deps?: Partial<Pick<JobDeps, "network" | "media" | "model" | "webhookSender" | "secretBox">>;
  /** Pool of the job thread (default 4). */
  poolSize?: number;
  /** Old-generation heap cap of the job thread in MB (default 512, jobs/index.ts `JOB_THREAD_HEAP_MB`). */
  heapMb?: number;
}

/**
 * The thread's entry: the compiled `.js` beside this module in the published package
 * (dist/), else the `.ts` source (the runner adds the TypeScript preload, jobs/tsx_preload.mjs).
 */
const THREAD_FILE = fileURLToPath(new URL(import.meta.url.endsWith(".js") ? "./run_due_jobs.js" : "./run_due_jobs.ts", import.meta.url));

/** Starts running jobs: in a bree job thread with PostgreSQL, in this thread with embedded PGlite. */
export async function startJobs(options: StartJobsOptions): Promise<JobRunner> {
  const { databaseUrl, sql, clock: givenClock, ports: givenPorts, deps: given, poolSize, heapMb, ...loop } = options;
  const ports: PortSettings = { network: {}, media: { kind: "none" }, model: {}, outbound: {}, secrets: {}, ...givenPorts };
  if (databaseUrl) {
    const wiring: JobThreadWiring = { databaseUrl, poolSize: poolSize ?? 4, ports };
    return startJobRunner({ ...loop, thread: { file: THREAD_FILE, wiring, sql, heapMb } });
  }
  if (!sql) throw new Error("startJobs needs a databaseUrl (PostgreSQL) or the server's sql pool (embedded)");
  const clock = givenClock ?? systemClock;
  const opened = given?.network && given.model && given.secretBox ? undefined : await openPorts(sql, clock, ports);
  const deps: JobDeps = {
    sql,
    clock,
    network: given?.network ?? opened!.network,
    media: given?.media ?? opened?.media,
    model: given?.model ?? opened!.model,
    webhookSender: given?.webhookSender ?? opened?.webhookSender ?? createGuardedWebhookSender(ports.outbound),
    secretBox: given?.secretBox ?? opened!.secretBox,
  };
  return startJobRunner({ ...loop, inProcess: { tasks: taskList, deps } });
}
