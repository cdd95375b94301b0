/**
 * Counters that answer from a per-process fallback when the shared store fails.
 *
 * Only request buckets use this: they "fail open to a per-process limiter
 * when Redis is down" (design, Limits), so an outage degrades limits to one
 * process's view instead of refusing every request. Allowances and credits
 * fail closed and take the primary's rejection as it is.
 */
import type { Counters } from "../../core/ports/counters.ts";

/** Wraps `primary` so a rejected call is answered by `fallback` instead; `onError` hears each failure. */
export function createFailOpenCounters(primary: Counters, fallback: Counters, onError?: (error: unknown) => void): Counters {
  return {
    async consume(checks, nowMs) {
      try {
        return await primary.consume(checks, nowMs);
      } catch (error) {
        onError?.(error);
        return fallback.consume(checks, nowMs);
      }
    },

    async takeTokens(check, nowMs) {
      try {
        return await primary.takeTokens(check, nowMs);
      } catch (error) {
        onError?.(error);
        return fallback.takeTokens(check, nowMs);
      }
    },

    async release(checks, nowMs) {
      try {
        await primary.release(checks, nowMs);
      } catch (error) {
        // The refund most likely belongs to a charge the fallback took while
        // the primary was down; the fallback never goes below zero either way.
        onError?.(error);
        await fallback.release(checks, nowMs);
      }
    },

    async close() {
      // Both are closed even when one fails, then the first failure is reported.
      const results = await Promise.allSettled([primary.close(), fallback.close()]);
      const failed = results.find((result) => result.status === "rejected");
      if (failed !== undefined) throw failed.reason;
    },
  };
}
