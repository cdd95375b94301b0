/**
 * X's rate windows in the fake X server: every answer of an endpoint with a window here
 * (the table below; others have none) carries `x-rate-limit-limit`,
 * `-remaining` and `-reset` (epoch seconds) for the window of (endpoint, user) under a
 * user-context token or (endpoint, app) under the app-only one, and a request past the
 * window's limit is answered 429 with them (`x-api/fundamentals/rate-limits.mdx`, "Checking
 * your limits" and "Handling rate limits"). A window opens at its first request and lasts
 * `windowSeconds` of the fake's clock. Limits are X's documented ones for the endpoints the
 * fake serves (that page's tables; 15 minutes), overridable per endpoint, small in tests.
 */
import type { Clock } from "../../../core/clock.ts";
import type { XAnswer } from "./x_problems.ts";

/** Requests per window of one endpoint, per user and per app (absent: not allowed that way, no window). */
export interface FakeWindowLimit {
  user?: number;
  app?: number;
}

/** How the fake keeps windows. */
export interface FakeRateWindowOptions {
  /** Per endpoint (`POST /2/dm_conversations/with/:id/messages`, ids as `:id`), replacing X's numbers. */
  limits?: Record<string, FakeWindowLimit>;
  /** Window length (default 900: X's 15 minutes). */
  windowSeconds?: number;
}

/**
 * X's per-15-minute limits (per app, per user) for the endpoints the fake serves, from
 * `x-api/fundamentals/rate-limits.mdx`. The 24-hour app windows are left out: one window
 * per endpoint, as X's headers show one.
 */
const X_LIMITS: Record<string, FakeWindowLimit> = {
  "GET /2/users/me": { user: 75 },
  "GET /2/users/by/username/:username": { app: 300, user: 900 },
  "GET /2/users/by": { app: 300, user: 900 },
  "GET /2/users": { app: 300, user: 900 },
  "GET /2/users/:id": { app: 300, user: 900 },
  "GET /2/users/:id/tweets": { app: 10_000, user: 900 },
  "GET /2/users/:id/mentions": { app: 450, user: 300 },
  "GET /2/users/:id/followers": { app: 300, user: 300 },
  "GET /2/users/:id/following": { app: 300, user: 300 },
  "GET /2/users/:id/owned_lists": { app: 15, user: 15 },
  "GET /2/tweets/search/recent": { app: 450, user: 300 },
  "GET /2/tweets": { app: 3_500, user: 5_000 },
  "GET /2/tweets/:id": { app: 450, user: 900 },
  "GET /2/tweets/:id/quote_tweets": { app: 75, user: 75 },
  "GET /2/tweets/:id/retweeted_by": { app: 75, user: 75 },
  "GET /2/tweets/:id/liking_users": { app: 75, user: 75 },
  "GET /2/lists/:id": { app: 75, user: 75 },
  "GET /2/lists/:id/members": { app: 900, user: 900 },
  "GET /2/lists/:id/tweets": { app: 900, user: 900 },
  "GET /2/dm_events": { user: 15 },
  "GET /2/usage/tweets": { app: 50 },
  "POST /2/tweets": { user: 100 },
  "DELETE /2/tweets/:id": { user: 50 },
  "POST /2/users/:id/retweets": { user: 50 },
  "DELETE /2/users/:id/retweets/:id": { user: 50 },
  "POST /2/dm_conversations/with/:id/messages": { user: 15 },
};

/** The fake's windows. */
export interface FakeRateWindows {
  /** Counts a request: the headers to send, and the 429 to answer instead when its window is used up. */
  admit(method: string, pathname: string, userId: string | undefined): { headers: Record<string, string>; refused?: XAnswer };
}

/** Creates the windows on the fake's clock. */
export function createFakeRateWindows(options: FakeRateWindowOptions, clock: Clock): FakeRateWindows {
  const limits = { ...X_LIMITS, ...options.limits };
  const windowMs = (options.windowSeconds ?? 900) * 1000;
  const windows = new Map<string, { used: number; resetAtMs: number }>();
  return {
    admit(method, pathname, userId) {
      // Ids after the version segment `/2` become `:id`, a handle `:username`.
      const rest = pathname
        .replace(/^\/2/, "")
        .replace(/\/by\/username\/[^/]+$/, "/by/username/:username")
        .replace(/\/\d+(?=\/|$)/g, "/:id");
      const endpoint = `${method} /2${rest}`;
      const limit = userId === undefined ? limits[endpoint]?.app : limits[endpoint]?.user;
      if (limit === undefined) return { headers: {} };
      const key = `${endpoint} ${userId ?? "app"}`;
      const now = clock.now();
      let window = windows.get(key);
      if (!window || window.resetAtMs <= now) {
        window = { used: 0, resetAtMs: Math.ceil((now + windowMs) / 1000) * 1000 };
        windows.set(key, window);
      }
      const refused = window.used >= limit;
      if (!refused) window.used += 1;
      const headers = {
        "x-rate-limit-limit": String(limit),
        "x-rate-limit-remaining": String(Math.max(0, limit - window.used)),
        "x-rate-limit-reset": String(window.resetAtMs / 1000),
      };
      if (!refused) return { headers };
      // X's 429 body (rate-limits.mdx, "Handling rate limits").
      return {
        headers,
        refused: { status: 429, headers, body: { errors: [{ code: 88, message: "Rate limit exceeded" }], title: "Too Many Requests", status: 429 } },
      };
    },
  };
}
