/**
 * How long a provider asks us to wait: `retry-after-ms` (OpenAI's precise form) or
 * `Retry-After` as seconds or an HTTP date (RFC 9110 section 10.2.3).
 */

/** Milliseconds to wait, or `undefined` when the headers say nothing usable. */
export function retryAfterMs(headers: Headers, nowMs: number = Date.now()): number | undefined {
  const precise = Number(headers.get("retry-after-ms"));
  if (headers.has("retry-after-ms") && Number.isFinite(precise) && precise >= 0) return precise;
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(?:\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
