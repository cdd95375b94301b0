/**
 * A throwaway PostgreSQL 15 cluster for the bench when `DATABASE_URL` is unset: initdb
 * in a temp dir, trust auth on 127.0.0.1 only, a spare port, started and stopped with
 * pg_ctl as the `postgres` OS user (the server refuses to run as root), as `.ci/run` does.
 */
import { chmod, chown, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { OrphanStep } from "./orphan_steps.ts";
import { freePort, isExecutable, runCommand } from "./processes.ts";

/** Explicit: another pg_ctl may come first on PATH (same choice as `.ci/run`). */
export const PG_BIN = "/usr/lib/postgresql/15/bin";

/** A running local cluster. */
export interface LocalPostgres {
  /** Superuser URL of the `postgres` database (trust auth, no password). */
  adminUrl: string;
  port: number;
  stop(): Promise<void>;
  /** Stops the server (fast: sessions are ended) and starts it again on the same port and data (the soak's restart). */
  restart(): Promise<void>;
  /** The same stop, as steps the orphan reaper can run. */
  orphanSteps: OrphanStep[];
}

/** Whether the Debian PostgreSQL 15 binaries are installed. */
export function hasLocalPostgres(): boolean {
  return isExecutable(join(PG_BIN, "initdb")) && isExecutable(join(PG_BIN, "pg_ctl"));
}

/** Creates and starts a cluster; throws (after removing what it made) when it cannot. */
export async function startLocalPostgres(): Promise<LocalPostgres> {
  const root = await mkdtemp(join(tmpdir(), "tl-bench-pg-"));
  const dataDir = join(root, "data");
  let stopIfStarted: (() => Promise<unknown>) | undefined;
  try {
    await chmod(root, 0o755);
    await mkdir(dataDir, { mode: 0o700 });
    const asPgUser = await pgUserCommand(dataDir);
    const run = (file: string, args: string[]) => runCommand(...asPgUser(file, args));
    await run(join(PG_BIN, "initdb"), ["-D", dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"]);
    const port = await freePort();
    // Durability is pointless for a throwaway cluster (the measured path only reads; the key's
    // last_used_at write happens once a minute); the settings match .ci/run. The socket lives
    // in the data dir so /var/run/postgresql and any system cluster are never involved.
    const serverOptions = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dataDir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
    await run(join(PG_BIN, "pg_ctl"), ["-D", dataDir, "-l", join(dataDir, "server.log"), "-w", "-t", "60", "-o", serverOptions, "start"]);
    stopIfStarted = () => run(join(PG_BIN, "pg_ctl"), ["-D", dataDir, "-m", "immediate", "stop"]);
    const [stopFile, stopArgs] = asPgUser(join(PG_BIN, "pg_ctl"), ["-D", dataDir, "-m", "fast", "-w", "-t", "30", "stop"]);
    const stop = async () => {
      try {
        await runCommand(stopFile, stopArgs);
      } finally {
        await rm(root, { recursive: true, force: true });
      }
    };
    const restart = async () => {
      await run(join(PG_BIN, "pg_ctl"), ["-D", dataDir, "-l", join(dataDir, "server.log"), "-m", "fast", "-w", "-t", "60", "-o", serverOptions, "restart"]);
    };
    const orphanSteps: OrphanStep[] = [
      { kind: "command", file: stopFile, args: stopArgs },
      { kind: "remove", path: root },
    ];
    return { adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`, port, stop, restart, orphanSteps };
  } catch (error) {
    await stopIfStarted?.().catch(() => {});
    await rm(root, { recursive: true, force: true });
    throw error;
  }
}

/** How to run PostgreSQL commands: as `postgres` when we are root (handing it `dataDir`), else as ourselves. */
async function pgUserCommand(dataDir: string): Promise<(file: string, args: string[]) => [string, string[]]> {
  if (process.getuid?.() !== 0) return (file, args) => [file, args];
  const uid = Number((await runCommand("id", ["-u", "postgres"])).trim());
  const gid = Number((await runCommand("id", ["-g", "postgres"])).trim());
  await chown(dataDir, uid, gid);
  return (file, args) => ["runuser", ["-u", "postgres", "--", file, ...args]];
}
