/**
 * Per-call latency of a loop run one call at a time (no queueing): for what autocannon
 * cannot drive (each lookup a different handle) or reports too coarsely (its
 * latencies are whole milliseconds, while the differences measured here are µs).
 */
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { round } from "./report.ts";

/** The figures of one sequential loop. */
export interface SequentialResult {
  calls: number;
  /** Calls that did not answer as `call` expects (its return value false). */
  failed: number;
  seconds: number;
  callsPerSecond: number;
  p50Us: number;
  p95Us: number;
  p99Us: number;
  avgUs: number;
  /** The machine's 1-minute load average at the start and the end (other processes make figures noisy). */
  loadAverage: [start: number, end: number];
}

/** Runs `call(i)` for i in 0..count-1, one after the other, timing each. */
export async function timeSequential(count: number, call: (i: number) => Promise<boolean>): Promise<SequentialResult> {
  const [result] = await timeAlternating(count, [call]);
  return result;
}

/**
 * Runs each of `calls` `count` times, taking turns call by call (a, b, a, b, ...), and
 * times each on its own: drift in the machine's load falls on all of them alike.
 */
export async function timeAlternating(count: number, calls: ((i: number) => Promise<boolean>)[]): Promise<SequentialResult[]> {
  const durations = calls.map(() => new Float64Array(count));
  const failed = calls.map(() => 0);
  const spent = calls.map(() => 0);
  const loadStart = loadavg()[0];
  for (let i = 0; i < count; i++) {
    for (let c = 0; c < calls.length; c++) {
      const before = performance.now();
      if (!(await calls[c](i))) failed[c]++;
      durations[c][i] = performance.now() - before;
      spent[c] += durations[c][i];
    }
  }
  const loadEnd = loadavg()[0];
  return calls.map((_, c) => {
    const sorted = durations[c].sort();
    const seconds = spent[c] / 1000;
    return {
      calls: count,
      failed: failed[c],
      seconds,
      callsPerSecond: count / seconds,
      p50Us: percentile(sorted, 0.5) * 1000,
      p95Us: percentile(sorted, 0.95) * 1000,
      p99Us: percentile(sorted, 0.99) * 1000,
      avgUs: (spent[c] / count) * 1000,
      loadAverage: [loadStart, loadEnd] as [number, number],
    };
  });
}

/** Nearest-rank percentile of ascending `sorted`. */
function percentile(sorted: Float64Array, share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))];
}

/** µs as printed: whole µs under 10 ms, else ms with two decimals. */
export function formatMicros(us: number): string {
  return us < 10_000 ? `${us.toFixed(0)} µs` : `${(us / 1000).toFixed(2)} ms`;
}

/** A sequential loop's figures for `BENCH_RESULT`. */
export function sequentialFigures(result: SequentialResult) {
  return {
    calls: result.calls,
    failed: result.failed,
    calls_per_second: round(result.callsPerSecond, 1),
    latency_p50_us: round(result.p50Us, 0),
    latency_p99_us: round(result.p99Us, 0),
    latency_avg_us: round(result.avgUs, 0),
    load_average_1m: result.loadAverage.map((load) => round(load, 2)),
  };
}

/** The load column as the autocannon tables print it. */
export function formatLoad(result: SequentialResult): string {
  return result.loadAverage.map((load) => load.toFixed(1)).join("->");
}
