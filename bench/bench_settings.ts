/**
 * Settings from the environment: BENCH_DURATION, BENCH_WARMUP, BENCH_CONNECTIONS for the
 * read comparison; BENCH_JOBS, BENCH_JOBS_UNBATCHED, BENCH_JOB_BATCH, BENCH_JOB_RUNNERS for
 * the job queue; BENCH_WRITE_DURATION, BENCH_WRITE_WARMUP, BENCH_WRITE_CONNECTIONS for the
 * idempotency writes.
 */

/** How each route is loaded, and the sizes of the job and write measurements. */
export interface BenchSettings {
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  pipelining: number;
  jobs: JobSettings;
  writes: WriteSettings;
}

/** The job queue measurement: one batched run (the target) and one unbatched run. */
export interface JobSettings {
  jobs: number;
  batchSize: number;
  runners: number;
  /** Jobs of the unbatched run (batch 1, one runner): two round trips a job, so fewer by default. */
  unbatchedJobs: number;
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
      unbatchedJobs: wholeNumber(env, "BENCH_JOBS_UNBATCHED", 5_000, 1),
    },
    writes: {
      durationSeconds: wholeNumber(env, "BENCH_WRITE_DURATION", 5, 1),
      warmupSeconds: wholeNumber(env, "BENCH_WRITE_WARMUP", 2, 0),
      connections: wholeNumber(env, "BENCH_WRITE_CONNECTIONS", 10, 1),
    },
  };
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number >= ${min}, got "${raw}"`);
  return value;
}
