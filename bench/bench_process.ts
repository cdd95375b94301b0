/**
 * The life of a bench process: run the body, always run its cleanup, exit with its
 * code. The first SIGINT/SIGTERM aborts the body (killing the load generator) and
 * lets it clean up; a second one leaves at once.
 */
import { createCleanupStack, type CleanupStack } from "./cleanup_stack.ts";
import { startOrphanGuard } from "./orphan_guard.ts";

/** Runs `body` and exits the process: its code, 1 when it throws, 130/143 when interrupted. */
export async function runBenchProcess(body: (cleanup: CleanupStack, signal: AbortSignal) => Promise<number>): Promise<never> {
  const cleanup = createCleanupStack({ guard: startOrphanGuard() });
  const abort = new AbortController();
  let interruptedCode: number | undefined;
  for (const [name, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    process.on(name, () => {
      if (interruptedCode !== undefined) process.exit(code);
      interruptedCode = code;
      console.error(`\n${name}: stopping and cleaning up (send it again to leave at once)`);
      abort.abort(new Error(`Interrupted by ${name}`));
    });
  }
  let exitCode = 0;
  try {
    exitCode = await body(cleanup, abort.signal);
  } catch (error) {
    exitCode = 1;
    if (interruptedCode === undefined) console.error(`Bench failed: ${(error as Error).stack ?? String(error)}`);
  } finally {
    await cleanup.run();
    if (interruptedCode !== undefined) console.error("Interrupted; cleaned up");
  }
  // Everything is closed above; exiting explicitly keeps a stray timer in a dependency
  // from holding the process open.
  process.exit(interruptedCode ?? exitCode);
}
