/**
 * The Counters port: fixed-window counters shared by every server process.
 *
 * Request buckets, daily allowances and action caps are all "add `cost` to a
 * window unless that would pass its limit". Windows are fixed, aligned to
 * multiples of `windowSeconds` since the Unix epoch, so a 60 s window is the
 * clock minute and an 86 400 s window is the UTC day (spec, Limits 1).
 */

/** One window to check and charge. */
export interface CounterCheck {
  /** Stable name of the bucket, without the window start (e.g. `rl:acct:123:reads:60`). */
  key: string;
  /** Units allowed in one window. */
  limit: number;
  /** Window length in seconds; windows start at multiples of it since the epoch. */
  windowSeconds: number;
  /** Units this call adds (0 only reads). */
  cost: number;
}

/** The state of one window after a consume or peek. */
export interface WindowState {
  key: string;
  limit: number;
  windowSeconds: number;
  /** Units counted in the current window, including this call's when allowed. */
  used: number;
  /** `max(0, limit - used)`. */
  remaining: number;
  /** End of the current window, epoch seconds. */
  resetAt: number;
}

/** What a consume answered: all windows charged, or none. */
export interface ConsumeResult {
  allowed: boolean;
  /** One entry per check, in the order given. */
  windows: WindowState[];
}

/** Fixed-window counters (Redis or in-memory). */
export interface Counters {
  /** Charges every check, or none when any would pass its limit (all or nothing). */
  consume(checks: CounterCheck[], nowMs: number): Promise<ConsumeResult>;
  /** Gives `cost` units back to each window (never below zero); used for refunds. */
  release(checks: CounterCheck[], nowMs: number): Promise<void>;
  /** Closes connections. */
  close(): Promise<void>;
  /** Rejects when a shared store is unreachable (`GET /readyz`); absent on in-process counters. */
  ping?(): Promise<void>;
}

/** Start of the window containing `nowMs`, in epoch seconds. */
export function windowStart(nowMs: number, windowSeconds: number): number {
  const seconds = Math.floor(nowMs / 1000);
  return seconds - (seconds % windowSeconds);
}
