/**
 * Real `threadline serve` processes sharing one world, for the end-to-end suites: the first
 * writes the demo world (`--demo-file`); on PostgreSQL + Redis a second process runs beside it
 * on the same database and Redis prefix, so both job runners work one queue. Embedded, one
 * process on its own data directory.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { childEnv, pollUntil, startNode, type RunningNode } from "./child_node.ts";
import { createTestDatabase, type TestDatabase } from "./test_database.ts";
import { migratedDataDir } from "./embedded_template.ts";

/** Whether the suites run against real PostgreSQL and Redis (then two processes). */
export const postgresMode = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);

/** The running processes and the world they serve. */
export interface ServedWorld {
  servers: { node: RunningNode; url: string }[];
  world: any;
  /** The shared PostgreSQL database (PostgreSQL mode only). */
  database?: TestDatabase;
  close(): Promise<void>;
}

/** Starts the processes; `label` names the temporary directory and the Redis prefix; `env` adds settings to every process; `port` is the first one's. */
export async function startServedWorld(label: string, options: { env?: Record<string, string>; port?: number } = {}): Promise<ServedWorld> {
  const dir = await mkdtemp(join(tmpdir(), `tl-${label}-`));
  const database = postgresMode ? await createTestDatabase("postgres", { migrated: true }) : undefined;
  // Embedded, the process starts on a migrated copy (a fresh directory's first open is seconds more).
  if (!database) await migratedDataDir(join(dir, "data"));
  const prefix = `tl:${label}:${randomBytes(3).toString("hex")}:`;
  const servers: ServedWorld["servers"] = [];
  // Each process drains within 5 s of SIGTERM (jobs still running then are released), well
  // inside the 15 s a test's stop() waits: a job mid-run on a loaded machine cannot outlast it.
  const settings = { SHUTDOWN_TIMEOUT_MS: "5000", ...options.env };
  const serve = async (demoFile?: string) => {
    const env = database
      ? childEnv({ ...settings, DATABASE_URL: database.url, REDIS_URL: process.env.REDIS_URL, REDIS_PREFIX: prefix }, [])
      : childEnv({ ...settings, DATA_DIR: join(dir, "data") });
    // The first process listens on `port` when given (its URL must be known before it starts: an OAuth callback); others on any free port.
    const port = servers.length === 0 && options.port !== undefined ? options.port : 0;
    const args = ["--import", "tsx", "adapters/cli/main.ts", "serve", "--port", String(port), ...(demoFile ? ["--demo-file", demoFile] : [])];
    const node = startNode(args, { env });
    const url = await pollUntil("the server to listen", () => /listening on (http:\/\/\S+)/.exec(node.stdout)?.[1], {
      timeoutMs: 90_000,
      abort: () => (node.child.exitCode !== null ? `it exited: ${node.stderr}` : undefined),
    });
    servers.push({ node, url });
  };
  const demoFile = join(dir, "demo.json");
  await serve(demoFile);
  const world = JSON.parse(await readFile(demoFile, "utf8"));
  if (database) await serve();
  return {
    servers,
    world,
    database,
    async close() {
      // Every process is stopped (and killed past its bound) even when another fails to stop,
      // so a hung shutdown fails the suite instead of leaving a live server holding it open.
      const stopped = await Promise.allSettled(servers.map(({ node }) => node.stop()));
      await database?.drop();
      await rm(dir, { recursive: true, force: true });
      const failed = stopped.find((result) => result.status === "rejected");
      if (failed) throw failed.reason;
    },
  };
}
