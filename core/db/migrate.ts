/**
 * Forward-only schema migrations: numbered SQL files (`0001_platform.sql`) applied in
 * order, all pending files in one transaction, each recorded in `schema_migrations`.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Sql } from "./sql.ts";

/** The folder the server's own migrations live in. */
const DEFAULT_DIRECTORY = fileURLToPath(new URL("./migrations/", import.meta.url));

/**
 * Key of the transaction-level advisory lock that serialises migrators. Several server
 * processes may start at once against one database; the second waits for the first to
 * commit, then finds nothing left to apply. (Arbitrary constant: "tl" + "migrate".)
 */
const MIGRATION_LOCK_KEY = 7_415_093_021;

const FILE_NAME = /^(\d{4})_([a-z0-9_]+)\.sql$/;

interface MigrationFile {
  version: number;
  /** The file name, e.g. `0001_platform.sql`. */
  file: string;
  /** The part after the number, e.g. `platform`. */
  name: string;
  text: string;
}

/**
 * Applies the pending migrations of `directory` (default `core/db/migrations/`) in one
 * transaction and returns the file names applied, in order.
 *
 * Files must not contain their own `BEGIN`/`COMMIT` or statements that cannot run in a
 * transaction (`CREATE INDEX CONCURRENTLY`): the one transaction is what makes a failed
 * upgrade leave the database as it was.
 */
export async function migrate(sql: Sql, directory: string = DEFAULT_DIRECTORY): Promise<{ applied: string[] }> {
  const files = await readMigrationFiles(directory);
  const applied = await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY}::bigint)`;
    await tx`
      create table if not exists schema_migrations (
        version integer primary key,
        name text not null,
        applied_at timestamptz not null default now()
      )`;
    // Read only after the lock: another process may have applied files while we waited.
    const recorded = await tx<{ version: number; name: string }[]>`
      select version, name from schema_migrations order by version`;
    const known = new Set(files.map((f) => f.version));
    const unknown = recorded.filter((row) => !known.has(row.version));
    if (unknown.length > 0) {
      const listed = unknown.map((row) => `"${String(row.version).padStart(4, "0")}_${row.name}"`).join(", ");
      throw new Error(
        `Database has migration ${listed} that this code does not have: it was upgraded by a newer version; refusing to run against a newer schema`,
      );
    }
    const done = new Set(recorded.map((row) => row.version));
    const names: string[] = [];
    for (const migration of files) {
      if (done.has(migration.version)) continue;
      // unsafe() without parameters uses the simple protocol, so a file may hold many statements.
      try {
        await tx.unsafe(migration.text);
      } catch (error) {
        throw new Error(`Migration "${migration.file}" failed: ${(error as Error).message}`, { cause: error });
      }
      await tx`insert into schema_migrations (version, name) values (${migration.version}, ${migration.name})`;
      names.push(migration.file);
    }
    return names;
  });
  return { applied };
}

/** Reads and validates the migration files of `directory`, sorted by number. */
async function readMigrationFiles(directory: string): Promise<MigrationFile[]> {
  const entries = (await readdir(directory)).filter((entry) => entry.endsWith(".sql"));
  const files: MigrationFile[] = [];
  for (const file of entries) {
    const match = FILE_NAME.exec(file);
    // A misnamed file would otherwise be skipped silently and its schema never created.
    if (!match) throw new Error(`Migration file "${file}" in "${directory}" is not named NNNN_name.sql`);
    files.push({ version: Number(match[1]), file, name: match[2], text: await readFile(join(directory, file), "utf8") });
  }
  files.sort((a, b) => a.version - b.version);
  for (let i = 1; i < files.length; i++) {
    if (files[i].version === files[i - 1].version) {
      throw new Error(`Migration files "${files[i - 1].file}" and "${files[i].file}" share the number ${files[i].version}`);
    }
  }
  return files;
}

/** The newest migration the code knows, read once per process (`GET /readyz`). */
let newestKnown: Promise<number> | undefined;

/**
 * Whether the database has the newest migration this code knows (`GET /readyz`): a server
 * on a database another version migrated, or one not migrated yet, is not ready.
 */
export async function migrationsApplied(sql: Sql): Promise<{ ok: boolean; expected: number; recorded: number | null }> {
  newestKnown ??= readMigrationFiles(DEFAULT_DIRECTORY).then((files) => files.at(-1)?.version ?? 0);
  const expected = await newestKnown;
  const [row] = await sql<{ version: number | null }[]>`select max(version) as version from schema_migrations`;
  return { ok: row.version === expected, expected, recorded: row.version };
}
