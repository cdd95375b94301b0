/**
 * `npm run bench`: the full authenticated request path (`GET /v1/tags?limit=20` with a
 * Bearer key: auth, subscription and scope gates, request buckets, tRPC, zod input and
 * output, account resolution) against a bare h3 route running the same SQL on the same
 * pool, in one run, with autocannon in a child process. Prints a table, the target line
 * (full keeps >= 60% of bare's throughput) and a `BENCH_RESULT <json>` line.
 *
 * Env: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (default 50), BENCH_WARMUP
 * (s, default 3); DATABASE_URL and REDIS_URL to bench against existing servers.
 * Exits 0 whether or not the target is met; non-zero when setup or measuring fails.
 */
import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import { createThreadline } from "../mod.ts";
import { createCleanupStack, type CleanupStack } from "./cleanup_stack.ts";
import { provideStorage, type BenchStorage } from "./storage.ts";
import { seedBenchUser } from "./seed.ts";
import { BARE_PATH, createBareApp } from "./bare_app.ts";
import { serveFetch } from "./serve_fetch.ts";
import { runLoad, type LoadResult } from "./load_run.ts";
import { countKeys } from "./redis_keys.ts";
import { formatTable, resultFigures, round } from "./report.ts";

/** The full path must keep at least this share of the bare route's throughput. */
const TARGET_RATIO = 0.6;

/** Both routes use Threadline's pool; 10 is openDatabase's PostgreSQL default, set explicitly to print it. */
const POOL_SIZE = 10;

const KEY_PREFIX = "sxk_";
const PAGE_SIZE = 20;

interface Settings {
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  pipelining: number;
}

interface Target {
  label: string;
  url: string;
  headers: Record<string, string>;
}

const cleanup = createCleanupStack();
const abort = new AbortController();
let interruptedCode: number | undefined;
for (const [name, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
  process.on(name, () => {
    if (interruptedCode !== undefined) process.exit(code);
    interruptedCode = code;
    console.error(`\n${name}: stopping and cleaning up (send it again to leave at once)`);
    abort.abort(new Error(`Interrupted by ${name}`));
  });
}

let exitCode = 0;
try {
  exitCode = await bench(cleanup, abort.signal);
} catch (error) {
  exitCode = 1;
  console.error(`Bench failed: ${(error as Error).stack ?? String(error)}`);
} finally {
  await cleanup.run();
}
// Everything is closed above; exiting explicitly keeps a stray timer in a dependency
// from holding the process open.
process.exit(interruptedCode ?? exitCode);

async function bench(cleanup: CleanupStack, signal: AbortSignal): Promise<number> {
  const settings = settingsFromEnv();
  const random = randomBytes(6).toString("hex");
  console.log("Preparing storage ...");
  const storage = await provideStorage(cleanup, random);
  signal.throwIfAborted();
  const embedded = storage.databaseUrl === undefined;

  const threadline = createThreadline({
    databaseUrl: storage.databaseUrl,
    dataDir: null,
    redisUrl: storage.redisUrl,
    redisPrefix: storage.redisPrefix,
    poolSize: POOL_SIZE,
    keyPrefix: KEY_PREFIX,
  });
  cleanup.push("close Threadline", () => threadline.close());
  const services = await threadline.start();
  const user = await seedBenchUser(services.sql, { keyPrefix: KEY_PREFIX, random });
  signal.throwIfAborted();

  const fullServer = await serveFetch(threadline.fetch);
  cleanup.push("close the full-path server", () => fullServer.close());
  // The same pool as the full path (services.sql): same size, same driver options.
  const bareApp = createBareApp(services.sql, user.workspaceId);
  const bareServer = await serveFetch((request) => bareApp.fetch(request));
  cleanup.push("close the bare-route server", () => bareServer.close());

  const full: Target = { label: "full path", url: `${fullServer.url}/v1/tags?limit=${PAGE_SIZE}`, headers: { Authorization: `Bearer ${user.key}` } };
  const bare: Target = { label: "bare route", url: `${bareServer.url}${BARE_PATH}`, headers: {} };
  await verify(full, user.tagCount, true);
  await verify(bare, user.tagCount, false);

  const notReal = notTheTarget(storage);
  printHeader(storage, settings, full, bare, embedded, notReal);

  const results: { target: Target; result: LoadResult }[] = [];
  let redisKeysAfterFull: number | undefined;
  for (const target of [full, bare]) {
    if (settings.warmupSeconds > 0) {
      console.log(`${target.label}: warming up for ${settings.warmupSeconds} s ...`);
      const warm = await runLoad({ ...loadOptions(target, settings, signal), durationSeconds: settings.warmupSeconds });
      if (warm.non2xx > 0 || warm.errors > 0) console.log(`  warm-up saw ${warm.non2xx} non-2xx answers and ${warm.errors} errors`);
    }
    console.log(`${target.label}: measuring for ${settings.durationSeconds} s ...`);
    results.push({ target, result: await runLoad(loadOptions(target, settings, signal)) });
    if (target === full && storage.redisUrl) redisKeysAfterFull = await countKeys(storage.redisUrl, storage.redisPrefix);
  }

  const [fullResult, bareResult] = results.map(({ result }) => result);
  const ratio = fullResult.requestsPerSecond / bareResult.requestsPerSecond;
  const pass = ratio >= TARGET_RATIO;
  const invalid = results.filter(({ result }) => result.non2xx > 0 || result.errors > 0).map(({ target }) => target.label);

  console.log("");
  console.log(formatTable(results.map(({ target, result }) => ({ label: target.label, result }))));
  console.log("");
  if (redisKeysAfterFull !== undefined) console.log(`counters: ${redisKeysAfterFull} Redis keys under ${storage.redisPrefix} after the full-path run (buckets were counted)`);
  console.log(`full/bare throughput: ${ratio.toFixed(3)} (${(ratio * 100).toFixed(1)}%)`);
  console.log(`target: full path keeps >= ${TARGET_RATIO * 100}% of the bare route's throughput: ${pass ? "PASS" : "FAIL"}`);
  if (notReal) console.log(`\n${notReal}`);
  if (invalid.length > 0) console.log(`\nINVALID: ${invalid.join(" and ")} answered non-2xx or failed requests; the figures do not measure the intended path`);

  const summary = {
    target_ratio: TARGET_RATIO,
    ratio: round(ratio, 4),
    pass,
    valid: invalid.length === 0,
    real_target: notReal === undefined,
    storage: {
      database: storage.database.source,
      postgres_version: storage.database.version ?? null,
      counters: storage.counters.source,
      redis_version: storage.counters.version ?? null,
      pool_size: embedded ? 1 : POOL_SIZE,
    },
    settings: {
      duration_s: settings.durationSeconds,
      warmup_s: settings.warmupSeconds,
      connections: settings.connections,
      pipelining: settings.pipelining,
      load_generator: "autocannon 9, child process",
      node: process.version,
      cpus: availableParallelism(),
    },
    full: { request: `GET /v1/tags?limit=${PAGE_SIZE}`, ...resultFigures(fullResult) },
    bare: { request: `GET ${BARE_PATH}`, ...resultFigures(bareResult) },
  };
  console.log(`BENCH_RESULT ${JSON.stringify(summary)}`);
  return invalid.length === 0 ? 0 : 1;
}

function loadOptions(target: Target, settings: Settings, signal: AbortSignal) {
  return { url: target.url, headers: target.headers, durationSeconds: settings.durationSeconds, connections: settings.connections, pipelining: settings.pipelining, signal };
}

/** One request must answer 200 with a full page before anything is measured. */
async function verify(target: Target, tagCount: number, rateLimited: boolean): Promise<void> {
  const response = await fetch(target.url, { headers: target.headers });
  const text = await response.text();
  let body: { data?: unknown[]; pagination?: { total?: number } } | undefined;
  try {
    body = JSON.parse(text);
  } catch {
    // Reported below with the raw text.
  }
  const problems: string[] = [];
  if (response.status !== 200) problems.push(`status ${response.status}`);
  if (body?.data?.length !== PAGE_SIZE) problems.push(`${body?.data?.length ?? "no"} tags instead of ${PAGE_SIZE}`);
  if (body?.pagination?.total !== tagCount) problems.push(`pagination.total ${body?.pagination?.total} instead of ${tagCount}`);
  if (rateLimited && !response.headers.has("x-ratelimit-limit")) problems.push("no X-RateLimit-Limit header");
  if (problems.length > 0) throw new Error(`Check of ${target.label} (GET ${target.url}) failed: ${problems.join(", ")}: ${text.slice(0, 300)}`);
}

function printHeader(storage: BenchStorage, settings: Settings, full: Target, bare: Target, embedded: boolean, notReal: string | undefined): void {
  if (notReal) console.log(`\n${notReal}\n`);
  console.log("Threadline bench: full authenticated request path vs a bare route, same SQL, same pool");
  console.log(`  full:     GET ${new URL(full.url).pathname}${new URL(full.url).search} with a Bearer key (enterprise plan: buckets counted, never hit)`);
  console.log(`  bare:     GET ${new URL(bare.url).pathname} (h3 route calling listTagRows directly: no auth, limits, tRPC or zod)`);
  console.log(`  database: ${storage.database.description}; pool of ${embedded ? 1 : POOL_SIZE} shared by both routes`);
  console.log(`  counters: ${storage.counters.description}`);
  console.log(
    `  load:     autocannon in a child process, ${settings.connections} connections, pipelining ${settings.pipelining}, ` +
      `${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s measured per route, one route after the other`,
  );
  console.log(`  machine:  node ${process.version}, ${availableParallelism()} CPUs shared by server, autocannon${embedded ? "" : ", PostgreSQL"}${storage.redisUrl ? " and Redis" : ""}`);
  console.log("");
}

/** The prominent warning when the run is not on the real target (PostgreSQL + Redis), else undefined. */
function notTheTarget(storage: BenchStorage): string | undefined {
  const missing: string[] = [];
  if (storage.database.source === "embedded-pglite") missing.push("embedded PGlite instead of PostgreSQL (no DATABASE_URL, no /usr/lib/postgresql/15/bin)");
  if (storage.counters.source === "in-memory") missing.push("in-memory counters instead of Redis (no REDIS_URL, no redis-server)");
  if (missing.length === 0) return undefined;
  return `!!! THESE FIGURES ARE NOT THE REAL-POSTGRESQL TARGET: ${missing.join("; ")} !!!`;
}

function settingsFromEnv(): Settings {
  return {
    durationSeconds: numberFromEnv("BENCH_DURATION", 10, 1),
    warmupSeconds: numberFromEnv("BENCH_WARMUP", 3, 0),
    connections: numberFromEnv("BENCH_CONNECTIONS", 50, 1),
    pipelining: 1,
  };
}

/** A whole number from the environment, at least `min`; anything else is a setup error. */
function numberFromEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number >= ${min}, got "${raw}"`);
  return value;
}
