/**
 * Settings from the environment: BENCH_DURATION, BENCH_WARMUP, BENCH_CONNECTIONS for the
 * read comparison; BENCH_JOBS, BENCH_JOBS_UNBATCHED, BENCH_JOB_BATCH, BENCH_JOB_RUNNERS, BENCH_JOB_SLOTS for
 * the job queue; BENCH_WRITE_DURATION, BENCH_WRITE_WARMUP, BENCH_WRITE_CONNECTIONS for the
 * idempotency writes; BENCH_LOOKUP_MISSES, BENCH_LOOKUP_DURATION, BENCH_LOOKUP_WARMUP,
 * BENCH_LOOKUP_CONNECTIONS for the live lookups; BENCH_AI_CALLS, BENCH_AI_DURATION, BENCH_AI_WARMUP, BENCH_AI_CONNECTIONS
 * for the AI call overhead; BENCH_AUDIENCE_CONTACTS, BENCH_AUDIENCE_CALLS, BENCH_AUDIENCE_BULK_RUNS for the audience
 * section.
 */

/** How each route is loaded, and the sizes of the job and write measurements. */
export interface BenchSettings {
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  pipelining: number;
  jobs: JobSettings;
  writes: WriteSettings;
  lookups: LookupSettings;
  ai: AiSettings;
  audience: AudienceSettings;
}

/** The job queue measurement: one batched run (the target) and one unbatched run. */
export interface JobSettings {
  jobs: number;
  batchSize: number;
  runners: number;
  /** Jobs of the unbatched run (batch 1 on `runners` runners). */
  unbatchedJobs: number;
  /** Jobs each runner of the unbatched run has in flight, each its own claim loop. */
  unbatchedSlots: number;
}

/**
 * The idempotency writes. Every request creates a tag (and with a fresh key an
 * idempotency row), so the windows are short and the connections few: the tables
 * stay small enough not to drift between the three variants.
 */
export interface WriteSettings {
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
}

/**
 * The live lookups. Every lookup costs 1 enrichment unit (enterprise: 10,000 per clock
 * minute per owner) and every cache miss 1 of the owner's 300 live lookups per UTC day
 * (spec Limits 8), so the cached load runs are short (each with a fresh user: 3 s at the
 * ~2,000 req/s one core serves stays under 10,000) and the uncached loop stays under 300.
 */
export interface LookupSettings {
  /** Distinct handles (and post ids) looked up one after the other, each a cache miss. */
  misses: number;
  /** The cached autocannon runs. */
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
}

/**
 * The AI call overhead. Each rephrase costs about 1 credit of the enterprise pool's
 * 100,000 a month and 1 write of 100,000 a minute (a fresh user per run).
 */
export interface AiSettings {
  /** Calls of each sequential loop. */
  calls: number;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
}

/**
 * The audience section: contacts of one account (all in one user list), calls per read case
 * (full, bare and SQL alternating), and bulk add + delete runs of 500 each on fresh lists.
 * At least 5,000 contacts, so the deep page (100 pages of 50, fewer on a small seed) exists.
 */
export interface AudienceSettings {
  contacts: number;
  calls: number;
  bulkRuns: number;
}

/** Reads the settings; a malformed value is a setup error. */
export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): BenchSettings {
  return {
    durationSeconds: wholeNumber(env, "BENCH_DURATION", 10, 1),
    warmupSeconds: wholeNumber(env, "BENCH_WARMUP", 3, 0),
    connections: wholeNumber(env, "BENCH_CONNECTIONS", 50, 1),
    pipelining: 1,
    jobs: {
      jobs: wholeNumber(env, "BENCH_JOBS", 20_000, 1),
      batchSize: wholeNumber(env, "BENCH_JOB_BATCH", 200, 1),
      runners: wholeNumber(env, "BENCH_JOB_RUNNERS", 4, 1),
      unbatchedJobs: wholeNumber(env, "BENCH_JOBS_UNBATCHED", 10_000, 1),
      unbatchedSlots: wholeNumber(env, "BENCH_JOB_SLOTS", 4, 1),
    },
    writes: {
      durationSeconds: wholeNumber(env, "BENCH_WRITE_DURATION", 5, 1),
      warmupSeconds: wholeNumber(env, "BENCH_WRITE_WARMUP", 2, 0),
      connections: wholeNumber(env, "BENCH_WRITE_CONNECTIONS", 10, 1),
    },
    lookups: {
      misses: boundedNumber(env, "BENCH_LOOKUP_MISSES", 250, 1, 300),
      durationSeconds: boundedNumber(env, "BENCH_LOOKUP_DURATION", 3, 1, 5),
      warmupSeconds: boundedNumber(env, "BENCH_LOOKUP_WARMUP", 1, 0, 5),
      connections: wholeNumber(env, "BENCH_LOOKUP_CONNECTIONS", 10, 1),
    },
    ai: {
      calls: boundedNumber(env, "BENCH_AI_CALLS", 1_000, 1, 10_000),
      durationSeconds: boundedNumber(env, "BENCH_AI_DURATION", 5, 1, 30),
      warmupSeconds: wholeNumber(env, "BENCH_AI_WARMUP", 2, 0),
      connections: boundedNumber(env, "BENCH_AI_CONNECTIONS", 10, 1, 10),
    },
    audience: {
      contacts: wholeNumber(env, "BENCH_AUDIENCE_CONTACTS", 100_000, 5_000),
      calls: wholeNumber(env, "BENCH_AUDIENCE_CALLS", 200, 1),
      bulkRuns: wholeNumber(env, "BENCH_AUDIENCE_BULK_RUNS", 5, 1),
    },
  };
}

/** `wholeNumber` with an upper bound the plan's limits impose (see LookupSettings, AiSettings). */
function boundedNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const value = wholeNumber(env, name, fallback, min);
  if (value > max) throw new Error(`${name} must be at most ${max} (the enterprise plan's limits), got "${value}"`);
  return value;
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number >= ${min}, got "${raw}"`);
  return value;
}
