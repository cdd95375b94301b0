/** Threadline's configuration, and how the standalone server reads it from the environment. */
import type { Clock } from "../../core/clock.ts";
import type { FaultName } from "../../core/faults.ts";
import { parseFaults } from "../../core/faults.ts";

/** What `createThreadline(config)` accepts; every field is optional. */
export interface ThreadlineConfig {
  /** PostgreSQL 14+ URL. Absent: embedded PGlite under `dataDir`. */
  databaseUrl?: string;
  /** Redis URL for counters shared across processes. Absent: in-memory counters. */
  redisUrl?: string;
  /** Prefix of every Redis key (default `tl:`). */
  redisPrefix?: string;
  /** Embedded data directory (default `.threadline`); `null` keeps the embedded database in memory. */
  dataDir?: string | null;
  /** Database pool size (default 10 for PostgreSQL, 4 embedded). */
  poolSize?: number;
  /** Prefix of issued API keys (default `sxk_`). */
  keyPrefix?: string;
  /** Public URL of the server (e.g. `https://api.example.com`), used in the OpenAPI `servers`. */
  publicUrl?: string;
  /** Trust `X-Forwarded-For` for the client address (only behind a proxy you control). */
  trustProxy?: boolean;
  /** Dependencies made to fail, for tests (`THREADLINE_FAULTS`). */
  faults?: Iterable<FaultName> | string;
  /** How long a key lookup may be cached, in ms (default 30 000; the spec's revocation bound is 60 s). */
  keyCacheTtlMs?: number;
  /** Run background jobs in this process from `start()` (default false: embedders and tests opt in; `serve` always runs them). */
  runJobs?: boolean;
  /** Replaces the system clock (tests). */
  clock?: Clock;
}

/** Reads the configuration from environment variables (see README's table). */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ThreadlineConfig {
  return {
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    redisPrefix: env.REDIS_PREFIX || undefined,
    dataDir: env.DATA_DIR || undefined,
    poolSize: env.DATABASE_POOL_SIZE ? Number(env.DATABASE_POOL_SIZE) : undefined,
    keyPrefix: env.THREADLINE_KEY_PREFIX || undefined,
    publicUrl: env.PUBLIC_URL || undefined,
    trustProxy: env.TRUST_PROXY === "1" || env.TRUST_PROXY === "true",
    faults: parseFaults(env.THREADLINE_FAULTS),
  };
}

/** The fault set of a config. */
export function faultsOf(config: ThreadlineConfig): ReadonlySet<FaultName> {
  if (typeof config.faults === "string") return parseFaults(config.faults);
  return new Set(config.faults ?? []);
}
