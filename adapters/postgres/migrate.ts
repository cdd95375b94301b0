/**
 * Runs a chain of forward-only migrations from its folder of SQL files: reads them here
 * (Node's file system) and applies them with core's runner (core/db/migrate.ts).
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Sql } from "../../core/db/sql.ts";
import { applyMigrations, CORE_CHAIN, type MigrationChain, type MigrationFile, migrationFiles, newestRecorded } from "../../core/db/migrate.ts";

/**
 * Applies the pending migrations of core's chain, or of the chain's files in `directory`
 * (recorded in `schema_migrations`), and returns the file names applied, in order.
 */
export async function migrate(sql: Sql, directory: URL | string = CORE_CHAIN.directory): Promise<{ applied: string[] }> {
  return migrateChain(sql, { ...CORE_CHAIN, directory });
}

/** Applies the pending migrations of `chain` in one transaction. */
export async function migrateChain(sql: Sql, chain: MigrationChain): Promise<{ applied: string[] }> {
  const files = await readMigrationFiles(chain.directory);
  return { applied: await applyMigrations(sql, chain, files) };
}

/** Reads and validates the migration files of `directory`, sorted by number. */
export async function readMigrationFiles(directory: URL | string): Promise<MigrationFile[]> {
  const path = typeof directory === "string" ? directory : fileURLToPath(directory);
  const names = (await readdir(path)).filter((entry) => entry.endsWith(".sql"));
  const entries = await Promise.all(names.map(async (file) => ({ file, text: await readFile(join(path, file), "utf8") })));
  return migrationFiles(entries, path);
}

/** The newest migration of core's chain this code knows, read once per process (`GET /readyz`). */
let newestKnown: Promise<number> | undefined;

/**
 * Whether the database has the newest migration this code knows (`GET /readyz`): a server
 * on a database another version migrated, or one not migrated yet, is not ready.
 */
export async function migrationsApplied(sql: Sql): Promise<{ ok: boolean; expected: number; recorded: number | null }> {
  newestKnown ??= readMigrationFiles(CORE_CHAIN.directory).then((files) => files.at(-1)?.version ?? 0);
  const expected = await newestKnown;
  const recorded = await newestRecorded(sql, CORE_CHAIN);
  return { ok: recorded === expected, expected, recorded };
}
