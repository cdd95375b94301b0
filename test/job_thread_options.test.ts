/**
 * The job thread's worker options (jobs/index.ts `jobThreadWorkerOptions`): a real worker
 * started with them holds the heap cap (default `JOB_THREAD_HEAP_MB`, or the one configured)
 * and the data it was given; a `.ts` entry gets the TypeScript preload.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Worker } from "node:worker_threads";
import { JOB_THREAD_HEAP_MB, jobThreadWorkerOptions } from "../jobs/index.ts";

/** A worker that answers its own resource limits and data. */
const ECHO = new URL(
  `data:text/javascript,${encodeURIComponent(
    'import { parentPort, resourceLimits, workerData } from "node:worker_threads"; parentPort.postMessage({ resourceLimits, workerData });',
  )}`,
);

async function limitsOf(
  options: ReturnType<typeof jobThreadWorkerOptions>,
): Promise<{ resourceLimits: { maxOldGenerationSizeMb: number }; workerData: unknown }> {
  const worker = new Worker(ECHO, options);
  try {
    return await new Promise((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
    });
  } finally {
    await worker.terminate();
  }
}

test("a job thread runs under the default heap cap, or the configured one, with its data", async () => {
  const byDefault = await limitsOf(jobThreadWorkerOptions({ file: "entry.mjs" }, { runner: "a" }));
  assert.equal(byDefault.resourceLimits.maxOldGenerationSizeMb, JOB_THREAD_HEAP_MB);
  assert.deepEqual(byDefault.workerData, { runner: "a" });
  const configured = await limitsOf(jobThreadWorkerOptions({ file: "entry.mjs", heapMb: 300 }, { runner: "b" }));
  assert.equal(configured.resourceLimits.maxOldGenerationSizeMb, 300);
});

test("a TypeScript entry gets the preload; a JavaScript one runs as it is", () => {
  assert.deepEqual(jobThreadWorkerOptions({ file: "entry.mjs" }, {}).execArgv, []);
  const ts = jobThreadWorkerOptions({ file: "run_due_jobs.ts" }, {}).execArgv;
  assert.equal(ts[0], "--import");
  assert.match(ts[1], /tsx_preload\.mjs$/);
});
