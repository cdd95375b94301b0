/**
 * Rate-limit response headers (spec: rule 3). `X-RateLimit-Reset` is the end of the
 * reported window in Unix epoch seconds; the reported window is whichever of the
 * minute and day windows has fewer units left. The IETF `RateLimit-Policy` and
 * `RateLimit` fields (draft-ietf-httpapi-ratelimit-headers) describe both windows,
 * with `t` in seconds until reset.
 */
import type { WindowState } from "../ports/counters.ts";

/** A window as the policy describes it: its bucket, span, limit and length. */
export interface WindowLabel {
  bucket: string;
  span: string;
  limit: number;
  windowSeconds: number;
}

/**
 * `RateLimit-Policy` by the labels it was built from: a principal's checks are built once
 * (request_buckets.ts), so is their policy.
 */
const policies = new WeakMap<readonly WindowLabel[], string>();

/** Sets `X-RateLimit-*`, `RateLimit-Policy` and `RateLimit` from a bucket's windows: `states[i]` is the window `labels[i]` names. */
export function setRateLimitHeaders(headers: Headers, labels: readonly WindowLabel[], states: readonly WindowState[], nowMs: number): void {
  let tightest = states[0];
  for (const state of states) if (state.remaining < tightest.remaining) tightest = state;
  const nowSeconds = Math.floor(nowMs / 1000);
  let policy = policies.get(labels);
  if (policy === undefined) {
    policy = labels.map((w) => `"${w.bucket}-${w.span}";q=${w.limit};w=${w.windowSeconds}`).join(", ");
    policies.set(labels, policy);
  }
  headers.set("X-RateLimit-Limit", String(tightest.limit));
  headers.set("X-RateLimit-Remaining", String(tightest.remaining));
  headers.set("X-RateLimit-Reset", String(tightest.resetAt));
  headers.set("RateLimit-Policy", policy);
  headers.set(
    "RateLimit",
    states.map((w, i) => `"${labels[i].bucket}-${labels[i].span}";r=${w.remaining};t=${Math.max(0, w.resetAt - nowSeconds)}`).join(", "),
  );
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
