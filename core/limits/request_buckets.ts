/**
 * Request buckets (spec: rule 3, Limits 1-2): reads or writes, plus enrichment and
 * feed-fetch units a procedure declares, counted per account owner across every key
 * and process in fixed windows on the clock minute and the UTC day, all or nothing.
 */
import type { Context } from "../context.ts";
import { retryableError } from "../errors.ts";
import type { Principal } from "../auth/principal.ts";
import type { CounterCheck, WindowState } from "./counters.ts";
import type { BucketName } from "./plans.ts";
import { setRateLimitHeaders } from "./rate_limit_headers.ts";

/** Extra units a request spends besides one read or write (Limits 3-6). */
export type RequestUnits = Partial<Record<Exclude<BucketName, "reads" | "writes">, number>>;

const WINDOWS = [
  { name: "minute", seconds: 60 },
  { name: "day", seconds: 86_400 },
] as const;

/** The checks for one request: the read or write bucket and any extra units. */
export function requestChecks(principal: Principal, write: boolean, units: RequestUnits, charge: boolean): CounterCheck[] {
  const spend: [BucketName, number][] = [[write ? "writes" : "reads", 1]];
  for (const [bucket, cost] of Object.entries(units) as [BucketName, number][]) if (cost > 0) spend.push([bucket, cost]);
  return spend.flatMap(([bucket, cost]) =>
    WINDOWS.map((window) => ({
      key: `rl:${principal.mainAccountId}:${bucket}:${window.name}`,
      limit: principal.plan.buckets[bucket][window.name],
      windowSeconds: window.seconds,
      cost: charge ? cost : 0,
    })),
  );
}

/**
 * Charges the request's buckets (or only reads them when `charge` is false, so an
 * answer refused earlier still carries the headers), sets the rate-limit headers and
 * throws `429 rate_limited` when a bucket is full.
 */
export async function chargeRequestBuckets(ctx: Context, principal: Principal, options: { write: boolean; units?: RequestUnits; charge: boolean }): Promise<void> {
  const { requestCounters, clock } = ctx.services;
  const checks = requestChecks(principal, options.write, options.units ?? {}, options.charge);
  const now = clock.now();
  const result = await requestCounters.consume(checks, now);
  // The first two windows are the request's own reads or writes bucket.
  setRateLimitHeaders(ctx.responseHeaders, result.windows.slice(0, 2), now);
  if (result.allowed) return;
  const full = result.windows.filter((window, i) => window.used + checks[i].cost > window.limit);
  const blocking = full.reduce((a, b) => (b.resetAt > a.resetAt ? b : a));
  const retryAfter = blocking.resetAt - Math.floor(now / 1000);
  throw retryableError("rate_limited", rateLimitMessage(principal, blocking, retryAfter), retryAfter, { bucket: bucketOf(blocking) });
}

function bucketOf(window: WindowState): string {
  return window.key.split(":")[2];
}

function rateLimitMessage(principal: Principal, window: WindowState, retryAfter: number): string {
  const per = window.windowSeconds === 60 ? "minute" : "day";
  return `Rate limit exceeded: the ${principal.plan.label} plan allows ${window.limit} ${bucketOf(window)} per ${per}; retry in ${Math.max(1, retryAfter)} s`;
}
