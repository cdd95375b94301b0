/**
 * The inside of a job thread (PostgreSQL mode; see index.ts for embedded PGlite):
 * bree's side of the conversation and the loop. Long-lived: the thread's entry (the
 * composition root of the thread, adapters/runtime/run_due_jobs.ts) opens one pool and its
 * ports for the thread's lifetime, and this loops claim -> run -> complete, as bree's README
 * advises for work that repeats ("make the job itself run the task multiple times"), until
 * bree's `stop()` posts "cancel"; then it finishes the batch in hand, closes what the entry
 * opened and says "done". Its JobEvents go to the server's thread as messages, where they are
 * logged and counted with the server's logger and metrics.
 */
import { parentPort, workerData } from "node:worker_threads";
import { runJobTasks } from "../core/jobs/job_loop.ts";
import type { JobDeps } from "../core/jobs/job_deps.ts";
import type { JobTasks } from "../core/jobs/job_task.ts";
import type { JobEvent, JobEventListener } from "../core/jobs/job_events.ts";

/** The loop's settings, chosen by the runner in the server's thread (index.ts). */
export interface JobThreadLoop {
  /** Lock owner of claimed jobs (the parent releases its leases on shutdown). */
  runnerId: string;
  batchSize: number;
  leaseSeconds: number;
  concurrency: number;
  pollIntervalMs: number;
  sweepIntervalMs: number;
  /** Enqueue the task list's periodic kinds. */
  periodic: boolean;
}

/** What the runner hands a thread through bree's `workerData`. */
export interface JobThreadData<Wiring> {
  loop: JobThreadLoop;
  /** The composition root's plain-data settings; only the thread's entry reads them. */
  wiring: Wiring;
}

/** What the thread's entry opened: the tasks, their deps, and how to close them. */
export interface OpenedJobThread {
  tasks: JobTasks;
  deps: JobDeps;
  close(): Promise<void>;
}

/**
 * Runs the thread: `open` wires it from the composition root's settings (its pool, its
 * ports); the loop runs until bree cancels it, then `close` and "done".
 */
export async function runJobThread<Wiring>(open: (wiring: Wiring, events: JobEventListener) => Promise<OpenedJobThread>): Promise<void> {
  if (!parentPort) throw new Error("A job thread runs as a bree worker thread; start it with startJobs() (adapters/runtime/start_jobs.ts)");
  const port = parentPort;
  const { loop, wiring } = workerData as JobThreadData<Wiring>;
  const controller = new AbortController();
  port.on("message", (message) => {
    if (message === "cancel") controller.abort();
  });
  const events = (event: JobEvent) => port.postMessage(event);
  const opened = await open(wiring, events);
  try {
    await runJobTasks({ ...loop, tasks: opened.tasks, deps: opened.deps, signal: controller.signal, events });
  } finally {
    await opened.close();
  }
  // bree terminates the thread on "done" (the "message" listener would otherwise keep it alive).
  port.postMessage("done");
}
