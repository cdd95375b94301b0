/** The bench side of the orphan reaper (see orphan_reaper.ts). */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { OrphanStep } from "./orphan_steps.ts";

const REAPER = fileURLToPath(new URL("./orphan_reaper.ts", import.meta.url));
const PROJECT_ROOT = fileURLToPath(new URL("../", import.meta.url));

/** Tells the reaper what to undo, and that it need not. */
export interface OrphanGuard {
  add(step: OrphanStep): void;
  /** The bench cleaned up itself: the reaper leaves without acting. */
  dismiss(): Promise<void>;
}

/** Starts the reaper in its own process group, so a Ctrl-C to the bench does not reach it. */
export function startOrphanGuard(): OrphanGuard {
  const reaper = spawn(process.execPath, ["--import", "tsx", REAPER], {
    cwd: PROJECT_ROOT,
    detached: true,
    stdio: ["pipe", "ignore", "ignore"],
  });
  reaper.unref();
  reaper.stdin.on("error", () => {});
  const send = (message: unknown) => {
    if (reaper.stdin.writable) reaper.stdin.write(`${JSON.stringify(message)}\n`);
  };
  return {
    add: (step) => send({ step }),
    dismiss() {
      send({ done: true });
      // Resolved once the message is flushed to the pipe, so an exit right after cannot lose it.
      return new Promise<void>((resolve) => reaper.stdin.end(() => resolve()));
    },
  };
}
