/**
 * X's rate windows, kept for every process (an XCallWatcher, x_api_client.ts): after each
 * answer it records what X's headers say of the window of (endpoint, user or app):
 * `x-rate-limit-limit`, `-remaining` and `-reset` (epoch seconds), documented in
 * `x-api/fundamentals/rate-limits.mdx` ("Checking your limits"; per-user limits apply to
 * user-context requests, per-app limits to app-only ones), and the
 * `x-user-limit-24hour-*` headers when X sends them (x_api_errors.ts reads them on a 429; that
 * page does not document them, so they are honoured when present and never relied on).
 *
 * Before each request it refuses, with NetworkRateLimitedError waiting until the reset, a
 * request whose window is known used up, and counts our own writes in rolling windows
 * against X's documented per-user and per-app limits (x_rate_limits.ts), so Threadline stays
 * within them before any header was seen, across processes. A publish or a DM refused here
 * waits for the window like one X answered 429 (the publisher and the DM sender reschedule).
 * The store failing (Redis down) lets the request through: X's own 429 is the backstop.
 */
import type { Clock } from "../../../core/clock.ts";
import { NetworkRateLimitedError } from "../../../core/network/network_errors.ts";
import type { RateWindows, RollingWindowCheck } from "../../../core/ports/rate_windows.ts";
import type { XAnswerFacts, XCallFacts, XCallWatcher } from "./x_api_client.ts";
import { documentedLimitsOf } from "./x_rate_limits.ts";

/** What the keeper needs. */
export interface XRateWindowOptions {
  store: RateWindows;
  clock: Clock;
  /** Hears a store failure (the request still goes). */
  onStoreError?: (error: unknown) => void;
}

/** X's window headers, as the client reads them. */
const HEADERS = {
  window: { limit: "x-rate-limit-limit", remaining: "x-rate-limit-remaining", reset: "x-rate-limit-reset" },
  day: { limit: "x-user-limit-24hour-limit", remaining: "x-user-limit-24hour-remaining", reset: "x-user-limit-24hour-reset" },
} as const;

/** The rate-window keeper, to pass among the client's watchers. */
export function xRateWindows(options: XRateWindowOptions): XCallWatcher {
  const { store, clock } = options;
  return {
    async before(call) {
      const endpoint = windowEndpoint(call.endpoint);
      const subject = subjectOf(call);
      const now = clock.now();
      let reservation: Awaited<ReturnType<RateWindows["reserve"]>>;
      try {
        reservation = await store.reserve(
          { reported: [reportedKey("window", endpoint, subject), reportedKey("day", endpoint, subject)], rolling: rollingChecks(call, endpoint) },
          now,
        );
      } catch (error) {
        options.onStoreError?.(error);
        return;
      }
      if (reservation.allowed) return;
      const retryAfter = Math.max(1, Math.ceil((reservation.retryAtMs - now) / 1000));
      const until = new Date(now + retryAfter * 1000).toISOString();
      throw new NetworkRateLimitedError(retryAfter, `X rate window of "${endpoint}" is used up until ${until}`);
    },

    async after(call, answer) {
      if (!answer) return;
      const endpoint = windowEndpoint(call.endpoint);
      const subject = subjectOf(call);
      const now = clock.now();
      for (const kind of ["window", "day"] as const) {
        const window = reportedWindow(answer, kind);
        if (window) await store.record(reportedKey(kind, endpoint, subject), window, now);
      }
    },
  };
}

/** The window X reports for (endpoint, user or app) as the keeper holds it: what `threadline x check` and tests read. */
export function reportedWindowKey(endpoint: string, userId: string | undefined): string {
  return reportedKey("window", windowEndpoint(endpoint), userId === undefined ? "app" : `user:${userId}`);
}

/** X's endpoint for a window: the client's (`:id` for ids) with a handle as `:username`. */
function windowEndpoint(endpoint: string): string {
  return endpoint.replace(/\/by\/username\/[^/]+/, "/by/username/:username");
}

function subjectOf(call: XCallFacts): string {
  return call.userId === undefined ? "app" : `user:${call.userId}`;
}

function reportedKey(kind: "window" | "day", endpoint: string, subject: string): string {
  return `${kind}:${endpoint}:${subject}`;
}

/** Our own count of the request against X's documented per-user and per-app limits. */
function rollingChecks(call: XCallFacts, endpoint: string): RollingWindowCheck[] {
  const limits = documentedLimitsOf(endpoint);
  if (!limits) return [];
  const user = call.userId === undefined ? [] : limits.perUser.map((w) => ({ key: `sent:${endpoint}:user:${call.userId}:${w.windowMs}`, ...w }));
  return [...user, ...limits.perApp.map((w) => ({ key: `sent:${endpoint}:app:${w.windowMs}`, ...w }))];
}

function reportedWindow(answer: XAnswerFacts, kind: keyof typeof HEADERS) {
  const names = HEADERS[kind];
  const [limit, remaining, reset] = [names.limit, names.remaining, names.reset].map((name) => Number(answer.headers.get(name) ?? Number.NaN));
  if (![limit, remaining, reset].every(Number.isFinite) || reset <= 0) return undefined;
  return { limit, remaining: Math.max(0, remaining), resetAtMs: reset * 1000 };
}
