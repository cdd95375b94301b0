/**
 * Node child processes for black-box tests of the `threadline` command: run one to
 * completion under a deadline, or start a long-running one (the server), read its
 * output and stop it. Nothing here sleeps except between polls with a deadline.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The project root, where `adapters/cli/main.ts` lives. */
export const PROJECT_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** What a finished child answered. */
export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * How long a child server lets running jobs finish on SIGTERM (`SHUTDOWN_TIMEOUT_MS`), unless a
 * test sets it: well inside `RunningNode.stop()`'s 15 s, so a periodic job still running when a
 * test stops its server (a corpus ingest on a loaded machine) cannot outlast the stop's bound.
 */
const CHILD_SHUTDOWN_TIMEOUT_MS = "5000";

/**
 * The test's environment for a child: without the variables that would point it at
 * the caller's servers (`remove`) or make it a node:test child, plus `set`.
 */
export function childEnv(set: Record<string, string | undefined> = {}, remove: string[] = ["DATABASE_URL", "REDIS_URL"]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { SHUTDOWN_TIMEOUT_MS: CHILD_SHUTDOWN_TIMEOUT_MS, ...process.env };
  for (const name of [...remove, "NODE_TEST_CONTEXT"]) delete env[name];
  for (const [name, value] of Object.entries(set)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/** Runs `node <args>` to the end; kills it and rejects after `timeoutMs`. */
export function runNode(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string; timeoutMs?: number } = {}): Promise<Finished> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: options.cwd ?? PROJECT_ROOT, env: options.env ?? childEnv(), stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`"node ${args.join(" ")}" did not finish within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(options.input ?? "");
  });
}

/** A long-running child whose output is collected as it arrives. */
export interface RunningNode {
  child: ChildProcess;
  readonly stdout: string;
  readonly stderr: string;
  /** Settles when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends `signal` and waits for the exit; SIGKILLs and rejects after `timeoutMs`. */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `node <args>` in the background. */
export function startNode(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): RunningNode {
  const child = spawn(process.execPath, args, { cwd: options.cwd ?? PROJECT_ROOT, env: options.env ?? childEnv(), stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("close", (code, signal) => resolve({ code, signal }));
  });
  let done = false;
  void exited.then(() => (done = true));
  return {
    child,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    exited,
    async stop(signal = "SIGTERM", timeoutMs = 15_000) {
      if (done) return exited;
      child.kill(signal);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          child.kill("SIGKILL");
          reject(new Error(`The process did not exit within ${timeoutMs} ms of ${signal}\nstdout: ${stdout}\nstderr: ${stderr}`));
        }, timeoutMs);
      });
      try {
        return await Promise.race([exited, late]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/**
 * Polls `probe` until it answers something other than undefined; rejects with `what`
 * after `timeoutMs`, or at once when `abort` answers a reason (e.g. the child died).
 */
export async function pollUntil<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  options: { timeoutMs?: number; intervalMs?: number; abort?: () => string | undefined } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    const reason = options.abort?.();
    if (reason) throw new Error(`Gave up waiting for ${what}: ${reason}`);
    if (Date.now() > deadline) throw new Error(`Timed out after ${options.timeoutMs ?? 60_000} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 100));
  }
}
