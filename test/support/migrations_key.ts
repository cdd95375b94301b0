/**
 * A name for one set of migrations: the suites' migrated templates (an embedded dump, a
 * PostgreSQL template database) are built once per set and found again by this key.
 */
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CORE_CHAIN } from "../../core/db/migrate.ts";
import { SIMULATED_NETWORK_CHAIN } from "../../adapters/x/simulated/simulated_migrations.ts";

const CHAINS = [CORE_CHAIN.directory, SIMULATED_NETWORK_CHAIN.directory];

let key: Promise<string> | undefined;

/** `migrated-<hash>` of every migration file and the PGlite release (the dump's format). */
export function migrationsKey(): Promise<string> {
  key ??= compute();
  return key;
}

async function compute(): Promise<string> {
  const hash = createHash("sha256");
  // The package exports no package.json; it sits one folder above the entry point (dist/).
  const pglite = JSON.parse(await readFile(fileURLToPath(new URL("../package.json", import.meta.resolve("@electric-sql/pglite"))), "utf8"));
  hash.update(`pglite ${pglite.version}\n`);
  for (const directory of CHAINS) {
    const path = fileURLToPath(directory);
    for (const file of (await readdir(path)).sort()) hash.update(`${file}\n`).update(await readFile(join(path, file)));
  }
  return `migrated-${hash.digest("hex").slice(0, 16)}`;
}
