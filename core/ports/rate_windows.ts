/**
 * The RateWindows port: an upstream's rate windows, shared by every process (Redis) or held
 * in memory (the embedded default). Two kinds of window, checked together in one atomic step:
 *
 * - A reported window: what the upstream's answer said (`x-rate-limit-remaining` and
 *   `-reset` on X), kept until its reset; each request takes one unit from it, so processes
 *   that share it stop when it is used up, before the upstream has to refuse them.
 * - A rolling window: our own count of requests in the last `windowMs`, against the
 *   upstream's documented limit, so we stay within it before any answer was seen. Rolling
 *   (at most `limit` in any `windowMs`) rather than fixed, so it holds whatever the
 *   alignment of the upstream's own windows.
 */

/** What an answer reported about one window. */
export interface ReportedWindow {
  /** Requests the window allows (`x-rate-limit-limit`). */
  limit: number;
  /** Requests left in it (`x-rate-limit-remaining`). */
  remaining: number;
  /** When it resets, epoch milliseconds (`x-rate-limit-reset`). */
  resetAtMs: number;
}

/** One rolling window to count a request in. */
export interface RollingWindowCheck {
  key: string;
  /** Requests allowed in any `windowMs`. */
  limit: number;
  windowMs: number;
}

/** What a reservation answered: every window took the request, or none did. */
export type WindowReservation = { allowed: true } | { allowed: false; retryAtMs: number; key: string };

/** Reported and rolling rate windows (Redis or in-memory). */
export interface RateWindows {
  /**
   * Takes one request from each reported window of `reported` that is still running and
   * from each rolling window of `rolling`, or from none: refused when a reported window is
   * used up (remaining 0 before its reset) or a rolling one is full, with the moment it
   * has room again. A reported window never heard of, or past its reset, allows.
   */
  reserve(request: { reported: readonly string[]; rolling: readonly RollingWindowCheck[] }, nowMs: number): Promise<WindowReservation>;
  /**
   * Records what an answer reported for `key`: a later reset replaces the window; the same
   * reset keeps the lower remaining (answers may arrive out of order); an earlier one is stale.
   */
  record(key: string, window: ReportedWindow, nowMs: number): Promise<void>;
  /** The reported window of `key`, when one is running at `nowMs`. */
  peek(key: string, nowMs: number): Promise<ReportedWindow | undefined>;
  /** Closes connections. */
  close(): Promise<void>;
}
