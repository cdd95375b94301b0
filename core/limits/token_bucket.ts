/**
 * Token buckets as GCRA (the generic cell rate algorithm): one stored number per bucket,
 * its "theoretical arrival time" (TAT), the moment the bucket would be full again. A take
 * of `cost` units moves the TAT `cost * interval` ahead and is allowed while the TAT stays
 * within `burst * interval` of now. Exact refills at any instant, no timer, no per-unit
 * state; spec Limits 9 ("burst of 20 refilling one per 3 seconds").
 *
 * The in-memory counters call these functions; the Redis counters run the same steps in
 * one Lua script (adapters/counters/redis_counters.ts), so both answer alike.
 *
 * @example
 * const step = gcraTake(undefined, { key: "k", burst: 20, intervalMs: 3_000, cost: 1 }, now);
 * step.allowed; // true: a fresh bucket holds 20
 */
import type { TokenBucketCheck, TokenBucketState } from "../ports/counters.ts";

/** What one take leaves: whether it was allowed and the TAT to store (unchanged when refused). */
export interface GcraStep {
  allowed: boolean;
  tat: number;
}

/** Takes `check.cost` units given the stored TAT (undefined for a bucket never used or expired). */
export function gcraTake(storedTat: number | undefined, check: TokenBucketCheck, nowMs: number): GcraStep {
  const tat = Math.max(storedTat ?? nowMs, nowMs);
  const next = tat + check.cost * check.intervalMs;
  if (next - check.burst * check.intervalMs > nowMs) return { allowed: false, tat };
  return { allowed: true, tat: next };
}

/** The bucket's state after `step`, for callers and headers. */
export function gcraState(check: TokenBucketCheck, nowMs: number, step: GcraStep): TokenBucketState {
  const capacityMs = check.burst * check.intervalMs;
  const backlogMs = Math.max(0, step.tat - nowMs);
  return {
    key: check.key,
    burst: check.burst,
    intervalMs: check.intervalMs,
    allowed: step.allowed,
    remaining: Math.max(0, Math.floor((capacityMs - backlogMs) / check.intervalMs)),
    retryAfterMs: step.allowed ? 0 : Math.max(0, backlogMs + check.cost * check.intervalMs - capacityMs),
    fullAtMs: nowMs + backlogMs,
  };
}

/** Checks a bucket's numbers (a programming error, not a refusal). */
export function assertTokenBucket(check: TokenBucketCheck): void {
  const valid =
    Number.isSafeInteger(check.burst) &&
    check.burst > 0 &&
    Number.isSafeInteger(check.intervalMs) &&
    check.intervalMs > 0 &&
    Number.isSafeInteger(check.cost) &&
    check.cost >= 0;
  if (!valid) throw new Error(`Token bucket "${check.key}" has invalid numbers (burst ${check.burst}, interval ${check.intervalMs} ms, cost ${check.cost})`);
}
