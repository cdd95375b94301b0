/**
 * Where the bench's data lives. `DATABASE_URL` / `REDIS_URL` when set (a private
 * database and a private key prefix on those servers); else PostgreSQL 15 and Redis
 * started here when their Debian binaries exist; else embedded PGlite and in-memory
 * counters, which are NOT the target the figures are meant for. `BENCH_STORAGE=embedded`
 * forces that last case (to compare, or to check the fallback on a machine with servers).
 */
import type { CleanupStack } from "./cleanup_stack.ts";
import { hasLocalPostgres, PG_BIN, startLocalPostgres } from "./local_postgres.ts";
import { localRedisServer, startLocalRedis } from "./local_redis.ts";
import { createPrivateDatabase } from "./private_database.ts";
import { benchRedisPrefix, deleteKeys } from "./redis_keys.ts";

const PG_BIN_DESCRIPTION = `${PG_BIN}/initdb`;

/** How the database was provided. */
export type DatabaseSource = "postgres-from-env" | "postgres-started-by-bench" | "embedded-pglite";

/** How the counters were provided. */
export type CountersSource = "redis-from-env" | "redis-started-by-bench" | "in-memory";

/** The storage of one bench run. */
export interface BenchStorage {
  /** The private database's URL; undefined means embedded PGlite in memory. */
  databaseUrl?: string;
  redisUrl?: string;
  redisPrefix: string;
  database: { source: DatabaseSource; description: string; version?: string };
  counters: { source: CountersSource; description: string; version?: string };
}

/** Provides storage and registers its teardown on `cleanup`. */
export async function provideStorage(cleanup: CleanupStack, random: string): Promise<BenchStorage> {
  const redisPrefix = benchRedisPrefix(random);
  const mode = process.env.BENCH_STORAGE || "auto";
  if (mode !== "auto" && mode !== "embedded") throw new Error(`BENCH_STORAGE must be "auto" or "embedded", got "${mode}"`);
  if (mode === "embedded") {
    return { redisPrefix, database: embeddedDatabase("forced by BENCH_STORAGE=embedded"), counters: inMemoryCounters("forced by BENCH_STORAGE=embedded") };
  }
  // Both servers start at once; each registers its own stop as soon as it runs. Settle both
  // before failing, so a teardown is never registered after cleanup has begun.
  const [database, counters] = await Promise.allSettled([provideDatabase(cleanup), provideCounters(cleanup, redisPrefix)]);
  if (database.status === "rejected") throw database.reason;
  if (counters.status === "rejected") throw counters.reason;
  return { databaseUrl: database.value.url, redisUrl: counters.value.url, redisPrefix, database: database.value.info, counters: counters.value.info };
}

async function provideDatabase(cleanup: CleanupStack): Promise<{ url?: string; info: BenchStorage["database"] }> {
  let adminUrl = process.env.DATABASE_URL || undefined;
  let source: DatabaseSource = "postgres-from-env";
  let where = "DATABASE_URL";
  if (!adminUrl) {
    if (!hasLocalPostgres()) {
      return { info: embeddedDatabase(`no DATABASE_URL, no ${PG_BIN_DESCRIPTION}`) };
    }
    const local = await startLocalPostgres();
    cleanup.push("stop the bench's PostgreSQL", () => local.stop(), local.orphanSteps);
    adminUrl = local.adminUrl;
    source = "postgres-started-by-bench";
    where = `a temp cluster on 127.0.0.1:${local.port} (fsync off, as in .ci/run)`;
  }
  const database = await createPrivateDatabase(adminUrl);
  cleanup.push(`drop database ${database.name}`, () => database.drop(), [{ kind: "drop_database", adminUrl, name: database.name }]);
  return {
    url: database.url,
    info: { source, version: database.serverVersion, description: `PostgreSQL ${database.serverVersion}, database ${database.name} on ${where}` },
  };
}

async function provideCounters(cleanup: CleanupStack, prefix: string): Promise<{ url?: string; info: BenchStorage["counters"] }> {
  let url = process.env.REDIS_URL || undefined;
  let source: CountersSource = "redis-from-env";
  let where = "REDIS_URL";
  let version: string | undefined;
  if (!url) {
    const redisServer = localRedisServer();
    if (!redisServer) return { info: inMemoryCounters("no REDIS_URL, no redis-server on PATH") };
    const local = await startLocalRedis(redisServer);
    cleanup.push("stop the bench's Redis", () => local.stop(), local.orphanSteps);
    url = local.url;
    version = local.version;
    source = "redis-started-by-bench";
    where = `${url.replace("redis://", "")} started by the bench`;
  }
  const redisUrl = url;
  cleanup.push(`delete Redis keys ${prefix}*`, async () => {
    await deleteKeys(redisUrl, prefix);
  }, [{ kind: "delete_keys", url: redisUrl, prefix }]);
  return { url: redisUrl, info: { source, version, description: `Redis${version ? ` (${version})` : ""} at ${where}, key prefix ${prefix}` } };
}

function embeddedDatabase(why: string): BenchStorage["database"] {
  return { source: "embedded-pglite", description: `embedded PGlite in memory (${why})` };
}

function inMemoryCounters(why: string): BenchStorage["counters"] {
  return { source: "in-memory", description: `in-memory counters (${why})` };
}
