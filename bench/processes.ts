/** Small process helpers for starting the bench's own PostgreSQL and Redis. */
import { execFile } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { createServer } from "node:net";
import { delimiter, join } from "node:path";

/** Runs a command to the end; rejects with its output when it fails or outlives `timeoutMs`. */
export function runCommand(file: string, args: string[], timeoutMs = 120_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: timeoutMs, encoding: "utf8" }, (error, stdout, stderr) => {
      if (error) reject(new Error(`"${file} ${args.join(" ")}" failed: ${error.message}\n${stdout}${stderr}`.trim()));
      else resolve(stdout);
    });
  });
}

/** The path of an executable named `name` on PATH, or undefined. */
export function findExecutable(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** Whether `path` exists and may be executed. */
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A TCP port free on 127.0.0.1 right now (the kernel picks it; the server takes it a moment later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Whether a process with `pid` exists. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Polls `check` every `intervalMs` until it is true; rejects with `what` after `timeoutMs`. */
export async function waitFor(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 30_000, intervalMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() >= deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
