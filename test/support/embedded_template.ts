/**
 * A migrated embedded database that test instances start from. PGlite's initdb and the
 * migrations are most of an in-memory instance's start, so the first test process that
 * needs one builds it once, as a PGlite data dir dump (`dumpDataDir`) in the system's
 * temporary directory named by a hash of the migrations and the PGlite version, and every
 * instance after loads it (PGlite `loadDataDir`). The runtime still runs its migrations on
 * it: they find everything applied.
 *
 * Child processes (`threadline serve`, the CLI) open a data directory on disk instead, and
 * PGlite's first open of a new directory (initdb, the migrations, growing its files) costs
 * them seconds more than a later open. `migratedDataDir()` gives them a copy of a directory a
 * `threadline migrate` has opened once, made once per set of migrations beside the dump.
 */
import { cp, mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import postgres from "postgres";
import { migrate } from "../../adapters/postgres/migrate.ts";
import { migrateSimulatedNetwork } from "../../adapters/x/simulated/simulated_migrations.ts";
import { childEnv, runNode } from "./child_node.ts";
import { migrationsKey } from "./migrations_key.ts";

let template: Promise<Blob> | undefined;

/** The dump of a database with core's and the simulated network's migrations applied (built once per set of migrations). */
export function migratedEmbeddedTemplate(): Promise<Blob> {
  template ??= loadOrBuild();
  return template;
}

const templatesDir = join(tmpdir(), "threadline-test-templates");

let dataDirTemplate: Promise<string> | undefined;

/**
 * Fills `target` (which must not exist) with a migrated embedded data directory: a `DATA_DIR`
 * for a child process that starts as an empty, migrated database would (no users, no demo).
 */
export async function migratedDataDir(target: string): Promise<void> {
  dataDirTemplate ??= dataDirOrBuild();
  await cp(await dataDirTemplate, target, { recursive: true, errorOnExist: true, force: false });
}

async function dataDirOrBuild(): Promise<string> {
  const path = join(templatesDir, `${await migrationsKey()}-data-dir`);
  if (await exists(path)) return path;
  await mkdir(templatesDir, { recursive: true });
  const draft = `${path}.${process.pid}.${Date.now()}`;
  const migrated = await runNode(["--import", "tsx", "adapters/cli/main.ts", "migrate"], { env: childEnv({ DATA_DIR: draft }), timeoutMs: 120_000 });
  if (migrated.code !== 0) throw new Error(`threadline migrate exited ${migrated.code}: ${migrated.stderr}`);
  // Renamed into place whole; when a parallel test process got there first, its copy is used.
  try {
    await rename(draft, path);
  } catch (error) {
    if (!(await exists(path))) throw error;
    await rm(draft, { recursive: true, force: true });
  }
  return path;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function loadOrBuild(): Promise<Blob> {
  const dir = templatesDir;
  const path = join(dir, `${await migrationsKey()}-postgres-only.tar`);
  try {
    return new DumpBlob(await readFile(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const dump = await buildTemplate();
  // Written aside and renamed into place, so a parallel test process never reads half a file.
  await mkdir(dir, { recursive: true });
  const draft = `${path}.${process.pid}.${Date.now()}`;
  const bytes = new Uint8Array(await dump.arrayBuffer());
  await writeFile(draft, bytes);
  await rename(draft, path);
  return new DumpBlob(bytes);
}

/**
 * The dump as PGlite reads it (`loadDataDir` awaits `arrayBuffer()`), answering from the
 * bytes held in memory: Node's Blob reads its 40-odd MB back in chunks and joins them, about
 * 0.3 s of CPU per instance. Each call answers a copy, as a Blob would.
 */
class DumpBlob extends Blob {
  readonly #bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    super([]);
    this.#bytes = bytes;
  }
  override get size(): number {
    return this.#bytes.byteLength;
  }
  override async arrayBuffer(): Promise<ArrayBuffer> {
    return this.#bytes.slice().buffer;
  }
}

/** Migrates a fresh in-memory PGlite as the runtime opens it (same extensions) and dumps it. */
async function buildTemplate(): Promise<Blob> {
  const pglite = await PGlite.create({ extensions: { pg_trgm } });
  try {
    const server = new PGLiteSocketServer({ db: pglite, host: "127.0.0.1", port: 0 });
    await server.start();
    const [host, port] = server.getServerConn().split(":");
    const sql = postgres({ host, port: Number(port), database: "postgres", username: "postgres", max: 1, onnotice: () => {} });
    try {
      await migrate(sql);
      await migrateSimulatedNetwork(sql);
    } finally {
      await sql.end({ timeout: 5 });
      await server.stop();
    }
    // An instance uses only the `postgres` database: without the two template databases the
    // dump is a third smaller, and every instance unpacks it.
    await pglite.exec("update pg_database set datistemplate = false where datname in ('template0', 'template1')");
    await pglite.exec("drop database template0");
    await pglite.exec("drop database template1");
    await pglite.exec("checkpoint");
    return await pglite.dumpDataDir("none");
  } finally {
    await pglite.close();
  }
}
