/**
 * Counters that always fail: what THREADLINE_FAULTS=counters installs so
 * tests can watch request buckets fail open and allowances fail closed
 * without stopping a real Redis.
 */
import type { Counters } from "../../core/ports/counters.ts";

/** Creates counters whose consume, takeTokens and release always reject. */
export function createFaultyCounters(): Counters {
  const unavailable = () => Promise.reject(new Error("Counters unavailable (THREADLINE_FAULTS=counters)"));
  return {
    consume: unavailable,
    takeTokens: unavailable,
    release: unavailable,
    async close() {},
  };
}
