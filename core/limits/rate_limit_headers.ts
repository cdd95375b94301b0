/**
 * Rate-limit response headers (spec: rule 3). `X-RateLimit-Reset` is the end of the
 * reported window in Unix epoch seconds; the reported window is whichever of the
 * minute and day windows has fewer units left. The IETF `RateLimit-Policy` and
 * `RateLimit` fields (draft-ietf-httpapi-ratelimit-headers) describe both windows,
 * with `t` in seconds until reset.
 */
import type { WindowState } from "../ports/counters.ts";

/** A window with the bucket and span it measures. */
export type LabeledWindow = WindowState & { bucket: string; span: string };

/** Sets `X-RateLimit-*`, `RateLimit-Policy` and `RateLimit` from a bucket's windows. */
export function setRateLimitHeaders(headers: Headers, windows: LabeledWindow[], nowMs: number): void {
  const tightest = windows.reduce((a, b) => (b.remaining < a.remaining ? b : a));
  const nowSeconds = Math.floor(nowMs / 1000);
  headers.set("X-RateLimit-Limit", String(tightest.limit));
  headers.set("X-RateLimit-Remaining", String(tightest.remaining));
  headers.set("X-RateLimit-Reset", String(tightest.resetAt));
  headers.set("RateLimit-Policy", windows.map((w) => `"${w.bucket}-${w.span}";q=${w.limit};w=${w.windowSeconds}`).join(", "));
  headers.set("RateLimit", windows.map((w) => `"${w.bucket}-${w.span}";r=${w.remaining};t=${Math.max(0, w.resetAt - nowSeconds)}`).join(", "));
}
