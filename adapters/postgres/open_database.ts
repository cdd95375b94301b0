/**
 * Opens the database: a real PostgreSQL server through `DATABASE_URL`, or embedded
 * PGlite served on a private Unix socket so that the same `postgres` driver reaches both.
 */
import { chmod, link, mkdir, mkdtemp, readFile, rm, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import postgres from "postgres";
import type { Sql } from "../../core/db/sql.ts";
import { EVENTS_CHANNEL, type EventBell } from "../../core/ports/event_feed.ts";
import { ping } from "./connection_queries.ts";
import { localEventBell, postgresEventBell } from "./event_bell.ts";

/** An open database and how to let go of it. */
export interface Database {
  sql: Sql;
  mode: "postgres" | "embedded";
  /** Rings when events were committed (migration 0033): a `LISTEN` on PostgreSQL, the backend's own notifications embedded. */
  eventBell: EventBell;
  /**
   * Embedded only: the Unix socket the database is served on (mode 0600, in a directory of its
   * own with mode 0700), for `psql -h <its directory>` as the same OS user. Nothing listens on TCP.
   */
  socket?: string;
  /** Ends the pool; for embedded also stops the socket server, PGlite and the data dir lock. */
  close(): Promise<void>;
}

/** Where the data lives and how many connections to use. */
export interface OpenDatabaseOptions {
  /** A PostgreSQL 14+ URL; when absent the embedded PGlite is used. */
  databaseUrl?: string;
  /** Embedded data directory (PGlite files under `<dataDir>/pgdata`); `null` keeps it in memory. Default `.threadline`. */
  dataDir?: string | null;
  /** Pool size; default 10 for PostgreSQL and 4 for embedded. */
  poolSize?: number;
  /**
   * In memory only: start from this PGlite data dir dump (`dumpDataDir()`) instead of an empty
   * cluster, which skips initdb; the test harness starts every instance from a migrated one.
   */
  loadDataDir?: Blob;
  /** Receives server NOTICE messages (`create table if not exists` ...); silenced by default. */
  onNotice?: (notice: postgres.Notice) => void;
}

/**
 * int8 (oid 20: bigint ids, `count(*)`) parsed as a JS number instead of postgres' default
 * string, so ids are numbers everywhere. A value past 2^53 stays a string rather than be
 * rounded to another id.
 */
const int8 = {
  to: 20,
  from: [20],
  serialize: (value: number | bigint | string) => String(value),
  parse: (raw: string): number | string => {
    const value = Number(raw);
    return Number.isSafeInteger(value) ? value : raw;
  },
};

/** Lock files this process holds, so a reused pid (pid 1 in a container) is told apart from our own open. */
const heldLocks = new Set<string>();

/** Opens PostgreSQL when `databaseUrl` is given, else embedded PGlite (persisted or in memory). */
export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  const onnotice = options.onNotice ?? (() => {});
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 10, onnotice);
  const dataDir = options.dataDir === undefined ? ".threadline" : options.dataDir;
  return openEmbedded(dataDir === null ? null : resolve(dataDir), options.poolSize ?? 4, onnotice, options.loadDataDir);
}

async function openPostgres(databaseUrl: string, poolSize: number, onnotice: (notice: postgres.Notice) => void): Promise<Database> {
  const sql = postgres(databaseUrl, {
    max: poolSize,
    onnotice,
    types: { int8 },
    // PGlite always runs in UTC; the same session time zone on a real server keeps
    // date_trunc('day', ...) and text casts identical in both modes (UTC days, spec Limits 1).
    connection: { application_name: "threadline", TimeZone: "UTC" },
  });
  try {
    // The driver connects lazily; fail at startup, not on the first request.
    await ping(sql);
  } catch (error) {
    await sql.end({ timeout: 0 });
    throw new Error(`Cannot connect to PostgreSQL at "${describeUrl(databaseUrl)}": ${(error as Error).message}`, { cause: error });
  }
  return { sql, mode: "postgres", eventBell: postgresEventBell(sql), close: once(() => sql.end({ timeout: 5 })) };
}

/** The socket's file name, PostgreSQL's own for port 5432 (so `psql -h <directory>` finds it). */
const SOCKET_NAME = ".s.PGSQL.5432";

/** The embedded database's shared buffers (see openEmbedded). */
const EMBEDDED_SHARED_BUFFERS = "16MB";

async function openEmbedded(
  dataDir: string | null,
  poolSize: number,
  onnotice: (notice: postgres.Notice) => void,
  loadDataDir: Blob | undefined,
): Promise<Database> {
  const lockPath = dataDir === null ? null : join(dataDir, "pgdata.lock");
  if (dataDir !== null && lockPath !== null) {
    // Created private (0700): the data and the lock are this OS user's alone.
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    await takeLock(lockPath, dataDir);
  }
  // One backend: LISTEN once, and a notification comes back with the COMMIT that caused it, on
  // whichever connection sent it (the pool's `onnotify`), or on PGlite's own API (its `listen`).
  const eventBell = localEventBell();
  let pglite: PGlite | undefined;
  let server: PGLiteSocketServer | undefined;
  let socketDir: string | undefined;
  try {
    // pg_trgm: the contact search's trigram index (migration 0023). PGlite initialises its
    // shared buffers at every start: PostgreSQL's default 128 MB costs about 0.65 s of CPU per
    // open (each CLI command, each in-memory instance), 16 MB about 0.1 s. The embedded
    // database is one process's, and its pages sit in memory or the OS page cache anyway.
    // Loaded here, not at the top: a PostgreSQL process (and each of its job threads) never
    // pays the embedded engine's ~40 MB of code (bench "Publisher", RSS per process).
    const [{ PGlite }, { pg_trgm }, { PGLiteSocketServer }] = await Promise.all([
      import("@electric-sql/pglite"),
      import("@electric-sql/pglite/contrib/pg_trgm"),
      import("@electric-sql/pglite-socket"),
    ]);
    const options = { extensions: { pg_trgm }, startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`] };
    pglite = dataDir === null ? await PGlite.create({ ...options, loadDataDir }) : await PGlite.create({ ...options, dataDir: join(dataDir, "pgdata") });
    await pglite.listen(EVENTS_CHANNEL, () => eventBell.heard(EVENTS_CHANNEL));
    // Connections past maxConnections are reset by the server. Twice the pool leaves room
    // for a reconnect that arrives before the server has counted the old socket closed;
    // extra connections cost nothing, since PGlite runs one message at a time anyway.
    // The server has no password: it listens on a Unix socket in a fresh directory (mkdtemp
    // creates it 0700) and the socket is made 0600, so no other local user can connect; a
    // loopback TCP port would let any of them in. Under tmpdir, since a socket path is limited
    // to about 100 bytes and DATA_DIR may be longer.
    socketDir = await mkdtemp(join(tmpdir(), "threadline-db-"));
    server = new PGLiteSocketServer({ db: pglite, path: join(socketDir, SOCKET_NAME), maxConnections: poolSize * 2 });
    await server.start();
    await chmod(join(socketDir, SOCKET_NAME), 0o600);
  } catch (error) {
    await server?.stop().catch(() => {});
    await pglite?.close().catch(() => {});
    if (socketDir) await rm(socketDir, { recursive: true, force: true });
    if (lockPath) await releaseLock(lockPath);
    throw error;
  }
  const socket = join(socketDir, SOCKET_NAME);
  // Not in the driver's types, but read by it (postgres/src/index.js): a notification on a pool connection.
  const notifications = { onnotify: (channel: string) => eventBell.heard(channel) };
  const sql = postgres({
    path: socket,
    database: "postgres",
    username: "postgres",
    max: poolSize,
    onnotice,
    types: { int8 },
    // PGlite is one backend session shared by every connection (ARCHITECTURE: Database):
    // the socket server queues messages and runs a transaction's statements before any
    // other connection's, so transactions run one at a time. Hence a query through the pool
    // from inside a `sql.begin` callback waits for that very transaction: a deadlock; use the
    // transaction's handle. Connections to an in-process server need no recycling.
    max_lifetime: null,
    connection: { application_name: "threadline" },
    ...notifications,
  });
  const pgliteDb = pglite;
  const socketServer = server;
  const privateDir = socketDir;
  const close = once(async () => {
    try {
      await sql.end({ timeout: 5 });
      await socketServer.stop();
      await pgliteDb.close();
    } finally {
      await rm(privateDir, { recursive: true, force: true });
      if (lockPath) await releaseLock(lockPath);
    }
  });
  return { sql, mode: "embedded", socket, eventBell, close };
}

/**
 * Takes `<dataDir>/pgdata.lock` for this process. PGlite has no lock of its own and two
 * processes writing one data dir corrupt it. The pid is written to a private file first
 * and hard-linked into place, so the lock never exists without its pid (link fails when
 * the name exists, like open(..., "wx")). A lock whose process is gone is stale and taken over.
 */
async function takeLock(lockPath: string, dataDir: string): Promise<void> {
  const draft = `${lockPath}.${process.pid}.${Date.now()}`;
  await writeFile(draft, `${process.pid}\n`);
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await link(draft, lockPath);
        heldLocks.add(lockPath);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      const holder = await lockHolder(lockPath);
      if (holder !== null && isRunning(holder) && (holder !== process.pid || heldLocks.has(lockPath))) {
        throw new Error(`Data directory "${dataDir}" is in use by process ${holder}; stop it or set DATA_DIR to another directory (lock file "${lockPath}")`);
      }
      // Stale: the holder died without closing. Another starter may be taking it over too;
      // link() lets only one of us win the next round.
      await unlink(lockPath).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw error;
      });
    }
    throw new Error(`Cannot take the lock "${lockPath}" on data directory "${dataDir}"`);
  } finally {
    await unlink(draft).catch(() => {});
  }
}

/** The pid recorded in a lock file, or null when the file is gone or unreadable. */
async function lockHolder(lockPath: string): Promise<number | null> {
  try {
    const pid = Number.parseInt(await readFile(lockPath, "utf8"), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function releaseLock(lockPath: string): Promise<void> {
  if (!heldLocks.delete(lockPath)) return;
  await unlink(lockPath).catch(() => {});
}

/** The URL without its password, for error messages. */
function describeUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    url.password = "";
    return url.toString();
  } catch {
    return "(unparsable DATABASE_URL)";
  }
}

/** Runs `fn` at most once; later calls get the first call's promise. */
function once(fn: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= fn());
}
