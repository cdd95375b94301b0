/**
 * Forward-only schema migrations: numbered SQL texts (`0001_platform.sql`) applied in
 * order, all pending ones in one transaction, each recorded in a table of its chain.
 * Core's chain (`core/db/migrations/`, recorded in `schema_migrations`) and each adapter's
 * own chain (the simulated network's, in `simulated_network_migrations`) use this runner;
 * reading the files is the adapter's part (adapters/postgres/migrate.ts), so core imports
 * no `node:*` module.
 */
import type { Sql } from "./sql.ts";

/** Core's own migrations: the SQL files beside this module. */
export const CORE_MIGRATIONS = new URL("./migrations/", import.meta.url);

/** A chain of migrations: where its files are, the table recording it, and its lock. */
export interface MigrationChain {
  /** The folder of its `NNNN_name.sql` files. */
  directory: URL | string;
  /** The table recording what was applied (created when missing). */
  table: string;
  /**
   * Key of the transaction-level advisory lock that serialises migrators of this chain.
   * Several server processes may start at once against one database; the second waits
   * for the first to commit, then finds nothing left to apply.
   */
  lockKey: number;
}

/** Core's chain. (Lock key: an arbitrary constant, "tl" + "migrate".) */
export const CORE_CHAIN: MigrationChain = { directory: CORE_MIGRATIONS, table: "schema_migrations", lockKey: 7_415_093_021 };

/** One migration file as read. */
export interface MigrationFile {
  version: number;
  /** The file name, e.g. `0001_platform.sql`. */
  file: string;
  /** The part after the number, e.g. `platform`. */
  name: string;
  text: string;
}

const FILE_NAME = /^(\d{4})_([a-z0-9_]+)\.sql$/;

/**
 * Validates the `.sql` files of a folder (`where` names it in errors) and sorts them by
 * number: a misnamed file would otherwise be skipped silently and its schema never created.
 */
export function migrationFiles(entries: readonly { file: string; text: string }[], where: string): MigrationFile[] {
  const files: MigrationFile[] = [];
  for (const { file, text } of entries) {
    const match = FILE_NAME.exec(file);
    if (!match) throw new Error(`Migration file "${file}" in "${where}" is not named NNNN_name.sql`);
    files.push({ version: Number(match[1]), file, name: match[2], text });
  }
  files.sort((a, b) => a.version - b.version);
  for (let i = 1; i < files.length; i++) {
    if (files[i].version === files[i - 1].version) {
      throw new Error(`Migration files "${files[i - 1].file}" and "${files[i].file}" share the number ${files[i].version}`);
    }
  }
  return files;
}

/**
 * Applies the pending `files` of `chain` in one transaction and returns the file names
 * applied, in order.
 *
 * Files must not contain their own `BEGIN`/`COMMIT` or statements that cannot run in a
 * transaction (`CREATE INDEX CONCURRENTLY`): the one transaction is what makes a failed
 * upgrade leave the database as it was.
 */
export async function applyMigrations(sql: Sql, chain: Pick<MigrationChain, "table" | "lockKey">, files: readonly MigrationFile[]): Promise<string[]> {
  return sql.begin(async (tx) => {
    const table = tx(chain.table);
    await tx`select pg_advisory_xact_lock(${chain.lockKey}::bigint)`;
    await tx`
      create table if not exists ${table} (
        version integer primary key,
        name text not null,
        applied_at timestamptz not null default now()
      )`;
    // Read only after the lock: another process may have applied files while we waited.
    const recorded = await tx<{ version: number; name: string }[]>`
      select version, name from ${table} order by version`;
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
      await tx`insert into ${table} (version, name) values (${migration.version}, ${migration.name})`;
      names.push(migration.file);
    }
    return names;
  });
}

/** The newest migration version `chain` recorded (null before the first), for `GET /readyz`. */
export async function newestRecorded(sql: Sql, chain: Pick<MigrationChain, "table">): Promise<number | null> {
  const [row] = await sql<{ version: number | null }[]>`select max(version) as version from ${sql(chain.table)}`;
  return row.version;
}
