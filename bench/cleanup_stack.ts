/**
 * Undo steps for everything the bench starts (servers, pools, databases, Redis keys,
 * child processes), run last-in first-out exactly once, whether the run finished,
 * failed or was interrupted. Steps for what would outlive the process (servers,
 * databases, keys) also go to the orphan reaper, which runs them if the process is
 * killed before it can.
 */
import type { OrphanGuard } from "./orphan_guard.ts";
import type { OrphanStep } from "./orphan_steps.ts";

/** A LIFO list of named cleanup steps. */
export interface CleanupStack {
  /**
   * Registers a step; it runs before every step registered earlier (at once when cleanup
   * already began). `orphanSteps` do the same from outside the process, in their order.
   */
  push(name: string, step: () => Promise<void> | void, orphanSteps?: OrphanStep[]): void;
  /** Runs every step once (later calls get the same promise); a failing step does not stop the others. */
  run(): Promise<void>;
}

/** Creates an empty stack; each step gets `stepTimeoutMs` before the next one starts. */
export function createCleanupStack(options: { guard?: OrphanGuard; stepTimeoutMs?: number } = {}): CleanupStack {
  const { guard, stepTimeoutMs = 15_000 } = options;
  const steps: { name: string; step: () => Promise<void> | void }[] = [];
  let running: Promise<void> | undefined;
  const late: Promise<void>[] = [];
  async function runOne(name: string, step: () => Promise<void> | void): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`took longer than ${stepTimeoutMs} ms`)), stepTimeoutMs);
    });
    try {
      await Promise.race([Promise.resolve().then(step), deadline]);
    } catch (error) {
      console.error(`Cleanup "${name}" failed: ${(error as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  }
  async function runAll(): Promise<void> {
    for (const { name, step } of steps.reverse()) await runOne(name, step);
    await Promise.all(late);
    await guard?.dismiss();
  }
  return {
    push(name, step, orphanSteps = []) {
      // The reaper runs everything newest first, so a push's own steps go in reversed.
      for (const orphanStep of [...orphanSteps].reverse()) guard?.add(orphanStep);
      // A server that finished starting after an interrupt began the cleanup is stopped
      // straight away rather than left running.
      if (running) late.push(runOne(name, step));
      else steps.push({ name, step });
    },
    run: () => (running ??= runAll()),
  };
}
