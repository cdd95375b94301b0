/**
 * When a failed delivery is tried again, and when an endpoint is given up on (docs/webhooks.md,
 * "Deliveries": exponential backoff and jitter for about 3 days; after a run of consecutive failures
 * (100 failures in a row or 5 days without a success) the endpoint is disabled).
 */
import { DAY_MS } from "../time/durations.ts";

/**
 * Waits after the 1st, 2nd, ... failed attempt, in seconds: 5 s, 5 min, 30 min, 2 h, 5 h,
 * then 10 h six times, about 2.8 days in all; after the 12th attempt the delivery is failed.
 */
export const RETRY_DELAYS_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 36_000, 36_000, 36_000, 36_000, 36_000] as const;

/** Attempts before a delivery is given up. */
export const MAX_DELIVERY_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/** A 2xx within this long is a success (docs/webhooks.md). */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** Failed attempts in a row that disable an endpoint. */
export const DISABLE_AFTER_FAILURES = 100;

/** A failure run this long (no success since its first failure) disables an endpoint. */
export const DISABLE_AFTER_MS = 5 * DAY_MS;

/**
 * When the attempt after failed attempt number `attempt` (1-based) is due, or null when it
 * was the last. Jitter of +-20% spreads the retries of many deliveries that failed together.
 */
export function nextAttemptAt(attempt: number, at: Date, random: () => number = Math.random): Date | null {
  const delay = RETRY_DELAYS_SECONDS[attempt - 1];
  if (delay === undefined) return null;
  return new Date(at.getTime() + delay * 1000 * (0.8 + 0.4 * random()));
}

/** Whether a failure run of `failures` attempts since `failingSince` disables the endpoint at `now`. */
export function disablesEndpoint(failures: number, failingSince: Date | null, now: Date): boolean {
  if (failures >= DISABLE_AFTER_FAILURES) return true;
  return failingSince !== null && now.getTime() - new Date(failingSince).getTime() >= DISABLE_AFTER_MS;
}
