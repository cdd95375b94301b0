/**
 * Serialisable undo steps for the orphan reaper: what to do when the bench process
 * dies without cleaning up. Plain data, so they travel to the reaper over a pipe.
 */
import { rm } from "node:fs/promises";
import { createPrivateDatabaseDropper } from "./private_database.ts";
import { deleteKeys } from "./redis_keys.ts";
import { isRunning, runCommand, waitFor } from "./processes.ts";

/** One undo step. */
export type OrphanStep =
  | { kind: "command"; file: string; args: string[] }
  | { kind: "kill"; pid: number }
  | { kind: "remove"; path: string }
  | { kind: "drop_database"; adminUrl: string; name: string }
  | { kind: "delete_keys"; url: string; prefix: string };

/** Runs one step; throws when it fails. */
export async function runOrphanStep(step: OrphanStep): Promise<void> {
  switch (step.kind) {
    case "command":
      await runCommand(step.file, step.args, 60_000);
      return;
    case "kill":
      if (!isRunning(step.pid)) return;
      process.kill(step.pid, "SIGTERM");
      await waitFor(`process ${step.pid} to stop`, () => !isRunning(step.pid), 10_000);
      return;
    case "remove":
      await rm(step.path, { recursive: true, force: true });
      return;
    case "drop_database":
      await createPrivateDatabaseDropper(step.adminUrl, step.name)();
      return;
    case "delete_keys":
      await deleteKeys(step.url, step.prefix);
      return;
  }
}
