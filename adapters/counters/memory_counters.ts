/**
 * In-process fixed-window counters and token buckets: the per-process limiter
 * that request buckets fall back to when Redis is down, and the store for tests
 * and single-process deployments.
 */
import { windowStart } from "../../core/ports/counters.ts";
import { assertTokenBucket, gcraState, gcraTake } from "../../core/limits/token_bucket.ts";
import type { CounterCheck, Counters, WindowState } from "../../core/ports/counters.ts";

/** How often (in caller time) a consume sweeps out windows that have ended. */
const SWEEP_INTERVAL_MS = 10_000;

interface Window {
  used: number;
  /** End of the window, epoch milliseconds. */
  endMs: number;
}

/** Creates fixed-window counters held in this process's memory. */
export function createMemoryCounters(): Counters {
  const windows = new Map<string, Window>();
  /** Token buckets by key: their TAT (core/limits/token_bucket.ts), epoch milliseconds. */
  const buckets = new Map<string, number>();
  let nextSweepMs = 0;

  // Lazy sweep instead of a timer: nothing to unref or clear, and memory is
  // bounded by the windows touched in the last interval plus the open ones.
  function sweep(nowMs: number): void {
    if (nowMs < nextSweepMs) return;
    nextSweepMs = nowMs + SWEEP_INTERVAL_MS;
    for (const [id, window] of windows) {
      if (window.endMs <= nowMs) windows.delete(id);
    }
    // A TAT in the past is a full bucket, the same as no entry.
    for (const [key, tat] of buckets) {
      if (tat <= nowMs) buckets.delete(key);
    }
  }

  function stateOf(check: CounterCheck, nowMs: number, used: number): WindowState {
    return {
      key: check.key,
      limit: check.limit,
      windowSeconds: check.windowSeconds,
      used,
      remaining: Math.max(0, check.limit - used),
      resetAt: windowStart(nowMs, check.windowSeconds) + check.windowSeconds,
    };
  }

  return {
    async consume(checks, nowMs) {
      sweep(nowMs);
      const ids = checks.map((check) => windowId(check, nowMs));
      // Sum costs per window first, so two checks naming the same window
      // cannot each pass on their own and together overshoot the limit.
      const pending = new Map<string, number>();
      let allowed = true;
      checks.forEach((check, i) => {
        const charged = (pending.get(ids[i]) ?? 0) + check.cost;
        pending.set(ids[i], charged);
        if ((windows.get(ids[i])?.used ?? 0) + charged > check.limit) allowed = false;
      });
      if (!allowed) {
        return {
          allowed,
          windows: checks.map((check, i) => stateOf(check, nowMs, windows.get(ids[i])?.used ?? 0)),
        };
      }
      const states = checks.map((check, i) => {
        let window = windows.get(ids[i]);
        // A zero-cost check only reads, so it must not create an entry.
        if (window === undefined && check.cost > 0) {
          const endMs = (windowStart(nowMs, check.windowSeconds) + check.windowSeconds) * 1000;
          window = { used: 0, endMs };
          windows.set(ids[i], window);
        }
        if (window !== undefined) window.used += check.cost;
        return stateOf(check, nowMs, window?.used ?? 0);
      });
      return { allowed, windows: states };
    },

    async takeTokens(check, nowMs) {
      assertTokenBucket(check);
      sweep(nowMs);
      const step = gcraTake(buckets.get(check.key), check, nowMs);
      if (step.allowed && check.cost > 0) buckets.set(check.key, step.tat);
      return gcraState(check, nowMs, step);
    },

    async release(checks, nowMs) {
      for (const check of checks) {
        const id = windowId(check, nowMs);
        const window = windows.get(id);
        if (window === undefined) continue;
        window.used = Math.max(0, window.used - check.cost);
        if (window.used === 0) windows.delete(id);
      }
    },

    async close() {
      windows.clear();
      buckets.clear();
    },
  };
}

function windowId(check: CounterCheck, nowMs: number): string {
  return `${check.key}:${windowStart(nowMs, check.windowSeconds)}`;
}
