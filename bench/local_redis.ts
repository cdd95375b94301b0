/**
 * A throwaway Redis for the bench when `REDIS_URL` is unset: no persistence, loopback
 * only, a spare port, daemonized with a pid file so the bench can stop exactly it.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { OrphanStep } from "./orphan_steps.ts";
import { findExecutable, freePort, isRunning, runCommand, waitFor } from "./processes.ts";

/** A running local Redis. */
export interface LocalRedis {
  url: string;
  version: string;
  stop(): Promise<void>;
  /** The same stop, as steps the orphan reaper can run. */
  orphanSteps: OrphanStep[];
}

/** The redis-server executable, when installed. */
export function localRedisServer(): string | undefined {
  return findExecutable("redis-server");
}

/**
 * Starts redis-server; throws (after stopping what it started) when it cannot. `port` starts it
 * on a given port (the soak starts Redis again where its servers expect it); default a free one.
 */
export async function startLocalRedis(redisServer: string, options: { port?: number } = {}): Promise<LocalRedis> {
  const dir = await mkdtemp(join(tmpdir(), "tl-bench-redis-"));
  const pidFile = join(dir, "redis.pid");
  const port = options.port ?? (await freePort());
  let pid: number | undefined;
  const stop = async () => {
    try {
      if (pid !== undefined && isRunning(pid)) {
        process.kill(pid, "SIGTERM");
        const stopping = pid;
        await waitFor("redis-server to stop", () => !isRunning(stopping), 10_000);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
  try {
    await runCommand(redisServer, [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--daemonize",
      "yes",
      "--dir",
      dir,
      "--pidfile",
      pidFile,
      "--logfile",
      join(dir, "redis.log"),
    ]);
    await waitFor(
      "redis-server's pid file",
      async () => {
        pid = Number.parseInt(await readFile(pidFile, "utf8").catch(() => ""), 10) || undefined;
        return pid !== undefined;
      },
      10_000,
    );
    await waitFor(`Redis to answer PING on port ${port}`, () => pings(port), 10_000);
    const version = (await runCommand(redisServer, ["--version"]).catch(() => "Redis")).trim().split(" ").slice(0, 3).join(" ");
    const orphanSteps: OrphanStep[] = [...(pid === undefined ? [] : [{ kind: "kill" as const, pid }]), { kind: "remove", path: dir }];
    return { url: `redis://127.0.0.1:${port}`, version, stop, orphanSteps };
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
}

/** Whether a Redis on `port` answers PING (inline command, RESP reply `+PONG`). */
function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let reply = "";
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once("error", () => done(false));
    socket.on("connect", () => socket.write("PING\r\n"));
    socket.on("data", (chunk) => {
      reply += chunk.toString("latin1");
      if (reply.includes("\r\n")) done(reply.startsWith("+PONG"));
    });
  });
}
