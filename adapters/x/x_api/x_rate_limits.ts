/**
 * X's documented rate limits for the requests Threadline counts itself (writes: posts,
 * deletes, reposts, DMs, media uploads), from X's developer documentation,
 * `x-api/fundamentals/rate-limits.mdx` ("Rate limit tables": "Manage posts", "Manage
 * retweets", "Manage Direct Messages", "Media"; limits per 15 minutes unless noted). Reads are
 * not counted here: X's `x-rate-limit-*` headers keep their windows (x_rate_windows.ts).
 */

/** One documented window: `limit` requests per `windowMs`. */
export interface XDocumentedWindow {
  limit: number;
  windowMs: number;
}

/** The per-user and per-app windows of one endpoint. */
export interface XDocumentedLimits {
  perUser: readonly XDocumentedWindow[];
  perApp: readonly XDocumentedWindow[];
}

const MINUTES_15 = 15 * 60_000;
const HOURS_24 = 24 * 3_600_000;

const per15 = (limit: number): XDocumentedWindow => ({ limit, windowMs: MINUTES_15 });
const per24h = (limit: number): XDocumentedWindow => ({ limit, windowMs: HOURS_24 });

/** "Manage Direct Messages": 15/15min and 1,440/24hrs per user, 1,440/24hrs per app, for each of the three ways to send. */
const DM_SEND: XDocumentedLimits = { perUser: [per15(15), per24h(1_440)], perApp: [per24h(1_440)] };

/**
 * The table, keyed by X's endpoint as the client names it (`endpointOf` in x_api_client.ts:
 * numeric ids as `:id`). Sending a DM by conversation id is matched by pattern below.
 */
export const X_DOCUMENTED_LIMITS: Readonly<Record<string, XDocumentedLimits>> = {
  // "Manage posts": POST /2/tweets 10,000/24hrs per app, 100/15min per user; DELETE 50/15min per user.
  "POST /2/tweets": { perUser: [per15(100)], perApp: [per24h(10_000)] },
  "DELETE /2/tweets/:id": { perUser: [per15(50)], perApp: [] },
  // "Manage retweets": 50/15min per user each way.
  "POST /2/users/:id/retweets": { perUser: [per15(50)], perApp: [] },
  "DELETE /2/users/:id/retweets/:id": { perUser: [per15(50)], perApp: [] },
  "POST /2/dm_conversations": DM_SEND,
  "POST /2/dm_conversations/with/:id/messages": DM_SEND,
  // "Media": uploads and their status.
  "POST /2/media/upload": { perUser: [per15(500)], perApp: [per24h(50_000)] },
  "GET /2/media/upload": { perUser: [per15(1_000)], perApp: [per24h(100_000)] },
  "POST /2/media/upload/initialize": { perUser: [per15(1_875)], perApp: [per24h(180_000)] },
  "POST /2/media/upload/:id/append": { perUser: [per15(1_875)], perApp: [per24h(180_000)] },
  "POST /2/media/upload/:id/finalize": { perUser: [per15(1_875)], perApp: [per24h(180_000)] },
  "POST /2/media/metadata": { perUser: [per15(500)], perApp: [per24h(50_000)] },
};

/** X's documented per-user DM send window (15 per 15 minutes) and day (1,440 per 24 hours), for planning campaigns. */
export const X_DM_SEND_LIMITS = { perWindow: 15, windowMs: MINUTES_15, perDay: 1_440, appPerDay: 1_440 } as const;

/** The documented limits of `endpoint`, when Threadline counts it. */
export function documentedLimitsOf(endpoint: string): XDocumentedLimits | undefined {
  if (/^POST \/2\/dm_conversations\/[^/]+\/messages$/.test(endpoint)) return DM_SEND;
  return X_DOCUMENTED_LIMITS[endpoint];
}
