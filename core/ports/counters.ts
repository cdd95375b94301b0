/**
 * The Counters port: fixed-window counters shared by every server process, and token
 * buckets for limits that refill steadily (spec Limits 9: "burst of 20 refilling one per
 * 3 seconds"), which a fixed window cannot express.
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

/** One token bucket: `burst` units at once, one more every `intervalMs` (core/limits/token_bucket.ts). */
export interface TokenBucketCheck {
  /** Stable name of the bucket (e.g. `tb:123:inspiration_media_burst`). */
  key: string;
  /** Units the bucket holds when full. */
  burst: number;
  /** Milliseconds to earn back one unit. */
  intervalMs: number;
  /** Units this call takes (0 only reads). */
  cost: number;
}

/** A token bucket after a take: taken whole, or not at all. */
export interface TokenBucketState {
  key: string;
  burst: number;
  intervalMs: number;
  allowed: boolean;
  /** Whole units left after this call. */
  remaining: number;
  /** 0 when allowed; else milliseconds until `cost` units are there. */
  retryAfterMs: number;
  /** When the bucket is full again, epoch milliseconds. */
  fullAtMs: number;
}

/** Fixed-window counters and token buckets (Redis or in-memory). */
export interface Counters {
  /** Charges every check, or none when any would pass its limit (all or nothing). */
  consume(checks: CounterCheck[], nowMs: number): Promise<ConsumeResult>;
  /** Takes `cost` units from a token bucket, or none when it holds fewer (one atomic step). */
  takeTokens(check: TokenBucketCheck, nowMs: number): Promise<TokenBucketState>;
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
