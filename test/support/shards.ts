/**
 * The suites run as a few long-lived processes (shards) instead of one process per file.
 * Each test file is still a whole module with its own instances, databases and Redis
 * prefixes; a shard imports its files one after another, each inside a suite named after
 * the file, so a file's hooks stay its own. What the shard shares is the process: the
 * module graph, the JIT-compiled code, the migrated templates and the generated world are
 * loaded once per shard instead of once per file, which was most of the suites' CPU (a
 * process per file spent about 3 s loading and warming up before its first case).
 *
 * `npm test` runs `test/shards/shard_*.test.ts`; each calls `describeShard(import.meta.url)`.
 * The files are dealt to the shards by weight (longest first, onto the lightest shard), so
 * a new test file joins a shard by itself, and adding a shard file rebalances them all. A
 * single file still runs alone: `node --no-wasm-code-gc --import tsx --test test/<name>.test.ts`
 * (docs/operations.md "Scripts": why the test processes run without V8's wasm code GC).
 */
import { readdirSync } from "node:fs";
import { basename } from "node:path";
import { describe } from "node:test";
import { fileURLToPath } from "node:url";

const testDir = new URL("../", import.meta.url);
const shardsDir = new URL("../shards/", import.meta.url);

/**
 * Seconds a file takes in a shard on the 2-core CI machine, for the files well above the usual
 * 4 (measured on the embedded defaults; each CLI file runs only on its own storage, and the package
 * file installs `.ci/run`'s one tarball instead of packing when `PACKAGE_TARBALL` is set).
 * Only the balance depends on them: a wrong figure makes a pass slower, never a test wrong.
 */
const SLOW_FILES: Record<string, number> = {
  "cli_serve_embedded.test.ts": process.env.DATABASE_URL ? 1 : 105,
  "cli_serve_postgres.test.ts": process.env.DATABASE_URL ? 80 : 1,
  "scheduling_e2e.test.ts": 75,
  "mcp_stdio.test.ts": 60,
  "package.test.ts": process.env.PACKAGE_TARBALL ? 25 : 55,
  "storage.test.ts": 45,
  "webhook_fairness.test.ts": 15,
  "x_connect.test.ts": 10,
  "x_cli.test.ts": 45,
  "x_end_to_end.test.ts": 120,
  "console_browser.test.ts": process.env.DATABASE_URL ? 1 : 70,
  "x_rate_windows.test.ts": 14,
  "event_stream.test.ts": 20,
  "conformance_input.test.ts": 39,
  "dm_serve.test.ts": 28,
  "jobs.test.ts": 27,
  "operations.test.ts": 25,
  "webhooks_serve.test.ts": 25,
  "engagement_serve.test.ts": 25,
  "embedding.test.ts": 20,
  "network_simulated.test.ts": 18,
  "allowances.test.ts": 15,
  "platform_http.test.ts": 15,
  "articles.test.ts": 13,
  "audience_index.test.ts": 13,
  "media_from_url.test.ts": 13,
  "simulated_migrations.test.ts": 13,
  "webhook_delivery.test.ts": 13,
  "inspiration_media.test.ts": 12,
  "covers.test.ts": 11,
  "auth.test.ts": 10,
};
const USUAL_SECONDS = 4;

/** Registers, as one suite each, the test files dealt to the shard whose file is `shardUrl`. */
export function describeShard(shardUrl: string): void {
  const shards = shardFiles();
  const index = shards.indexOf(basename(fileURLToPath(shardUrl)));
  if (index < 0) throw new Error(`${shardUrl} is not a shard file (test/shards/shard_<n>.test.ts)`);
  for (const file of dealFiles(testFiles(), shards.length)[index]) {
    describe(file, async () => {
      await import(new URL(file, testDir).href);
    });
  }
}

/** Every test file, by name. */
export function testFiles(): string[] {
  return readdirSync(testDir)
    .filter((name) => name.endsWith(".test.ts"))
    .sort();
}

/** The shard files, in number order. */
export function shardFiles(): string[] {
  const number = (name: string) => Number(/^shard_(\d+)\.test\.ts$/.exec(name)?.[1]);
  return readdirSync(shardsDir)
    .filter((name) => Number.isInteger(number(name)))
    .sort((a, b) => number(a) - number(b));
}

/** `files` dealt to `count` shards: heaviest first, each onto the shard with the least weight so far. */
export function dealFiles(files: string[], count: number): string[][] {
  const shards = Array.from({ length: count }, () => ({ files: [] as string[], weight: 0 }));
  const weight = (file: string) => SLOW_FILES[file] ?? USUAL_SECONDS;
  const byWeight = [...files].sort((a, b) => weight(b) - weight(a) || a.localeCompare(b));
  for (const file of byWeight) {
    const lightest = shards.reduce((best, shard) => (shard.weight < best.weight ? shard : best));
    lightest.files.push(file);
    lightest.weight += weight(file);
  }
  return shards.map((shard) => shard.files.sort());
}
