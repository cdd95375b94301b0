/** Load settings from the environment: BENCH_DURATION, BENCH_WARMUP, BENCH_CONNECTIONS. */

/** How each route is loaded. */
export interface BenchSettings {
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  pipelining: number;
}

/** Reads the settings; a malformed value is a setup error. */
export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): BenchSettings {
  return {
    durationSeconds: wholeNumber(env, "BENCH_DURATION", 10, 1),
    warmupSeconds: wholeNumber(env, "BENCH_WARMUP", 3, 0),
    connections: wholeNumber(env, "BENCH_CONNECTIONS", 50, 1),
    pipelining: 1,
  };
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number >= ${min}, got "${raw}"`);
  return value;
}
