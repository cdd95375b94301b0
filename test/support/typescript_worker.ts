/**
 * A worker-thread file that only loads as TypeScript (type annotations, `satisfies`, a `.ts`
 * import): test/jobs.test.ts starts it through bree to prove jobs/tsx_preload.mjs works.
 */
import { parentPort, workerData } from "node:worker_threads";
import { periodicSlot } from "../../core/jobs/enqueue_periodic_jobs.ts";

interface Echo {
  slot: string;
  input: unknown;
}

const slot: Date = periodicSlot({ kind: "probe", everySeconds: 3600 }, new Date("2025-01-02T03:04:05Z"));
parentPort?.postMessage({ slot: slot.toISOString(), input: (workerData as { input?: unknown }).input } satisfies Echo);
parentPort?.postMessage("done");
