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

/** The rate-limit fields, as `Headers` iteration names them (lower case). */
const RATE_LIMIT_FIELDS = new Set(["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "ratelimit-policy", "ratelimit"]);

/**
 * Copies one call's answer headers into the answer of the request that carried it (the calls
 * of a tRPC batch). The rate-limit fields describe the latest state of the bucket: the later
 * window, or in the same window the fewer units left, whichever call finished last (calls of a
 * batch run concurrently, so the last to finish may have charged first).
 */
export function mergeCallHeaders(into: Headers, from: Headers): void {
  const remaining = (headers: Headers) => Number(headers.get("X-RateLimit-Remaining"));
  const reset = (headers: Headers) => Number(headers.get("X-RateLimit-Reset"));
  const laterState = !into.has("X-RateLimit-Remaining") || reset(from) > reset(into) || (reset(from) === reset(into) && remaining(from) < remaining(into));
  for (const [name, value] of from) {
    if (!laterState && RATE_LIMIT_FIELDS.has(name)) continue;
    into.set(name, value);
  }
}

/** The rate-limit and credit fields of a call's answer headers (what a carrying HTTP answer repeats). */
export function limitHeaders(headers: Headers): Headers {
  const kept = new Headers();
  for (const [name, value] of headers) {
    if (RATE_LIMIT_FIELDS.has(name) || name.startsWith("x-credits-")) kept.set(name, value);
  }
  return kept;
}
