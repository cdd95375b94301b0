/**
 * The reads `threadline x check` makes to see whether X accepts Threadline's credentials, without
 * posting anything (core/accounts/x_check.ts). The adapter (adapters/x/x_api/x_probe.ts) sends
 * them through the X API client and reads X's `x-rate-limit-*` headers (X's developer
 * documentation, x-api/fundamentals/rate-limits.mdx, "Checking your limits").
 */

/** One rate window as X reports it in the headers of an answer. */
export interface XRateWindow {
  /** The endpoint the window is for, `GET /2/users/me`. */
  endpoint: string;
  /** `x-rate-limit-limit`: requests allowed in the window. */
  limit: number;
  /** `x-rate-limit-remaining`: requests left in it. */
  remaining: number;
  /** `x-rate-limit-reset`: when the window starts again (ISO 8601). */
  reset_at: string;
}

/** What X answered one probe. */
export interface XProbeAnswer {
  /** The HTTP status; 0 when X did not answer (unreachable, timed out). */
  status: number;
  /** X's title or detail of a refusal, or why X could not be reached. */
  problem?: string;
  /** The X user the token acts as (`GET /2/users/me`). */
  user?: { id: string; username: string };
  /** The window X reported, when it sent the headers. */
  window?: XRateWindow;
}

/** The probes. */
export interface XProbe {
  /** A cheap read with the app-only bearer token. */
  app(): Promise<XProbeAnswer>;
  /** `GET /2/users/me` acting as the account whose credential this is (an OAuth 2.0 access token or an OAuth 1.0a token). */
  me(actor: { userId: string; accessToken: string } | { userId: string; oauth1: { token: string; secret: string } }): Promise<XProbeAnswer>;
}
