/**
 * The orphan reaper: started detached by a bench process, it reads undo steps (one JSON
 * object a line) from its stdin. When the bench has cleaned up it sends `{"done":true}`
 * and the reaper leaves doing nothing; when stdin ends without that (the bench was
 * killed: SIGKILL, or tsx's signal relay giving up on it after 30 ms), it runs the
 * steps newest first, so no PostgreSQL cluster, Redis server, database or key outlives it.
 */
import { type OrphanStep, runOrphanStep } from "./orphan_steps.ts";

const steps: OrphanStep[] = [];
let done = false;
let pending = "";

process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk: string) => {
  pending += chunk;
  let newline: number;
  while ((newline = pending.indexOf("\n")) >= 0) {
    const line = pending.slice(0, newline).trim();
    pending = pending.slice(newline + 1);
    if (!line) continue;
    const message = JSON.parse(line) as { step?: OrphanStep; done?: boolean };
    if (message.done) done = true;
    if (message.step) steps.push(message.step);
  }
});
let finishing = false;
async function finish(): Promise<void> {
  if (finishing) return;
  finishing = true;
  if (!done) {
    for (const step of steps.reverse()) await runOrphanStep(step).catch(() => {});
  }
  process.exit(0);
}
// The bench's death closes the pipe; an error on it means the same.
process.stdin.on("end", finish);
process.stdin.on("error", finish);
