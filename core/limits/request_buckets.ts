/**
 * Request buckets (spec: rule 3, Limits 1-2): reads or writes, plus enrichment and
 * feed-fetch units a procedure declares, counted per account owner across every key
 * and process in fixed windows on the clock minute and the UTC day, all or nothing.
 */
import type { Context } from "../context.ts";
import { retryableError } from "../errors.ts";
import type { Principal } from "../request_state/principal.ts";
import type { CounterCheck } from "../ports/counters.ts";
import type { BucketName } from "../plans/plans.ts";
import { setRateLimitHeaders } from "./rate_limit_headers.ts";

/** Extra units a request spends besides one read or write (Limits 3-6). */
export type RequestUnits = Partial<Record<Exclude<BucketName, "reads" | "writes">, number>>;

/** Units a handler may charge on top of the request's own: a read that also counts as a write (Limits 3: contact refresh). */
export type ExtraUnits = RequestUnits & { writes?: number };

const SPANS = [
  { span: "minute", seconds: 60 },
  { span: "day", seconds: 86_400 },
] as const;

/** A window check with the bucket and span it belongs to. */
export interface BucketCheck extends CounterCheck {
  bucket: BucketName;
  span: "minute" | "day";
}

/** The checks for one request: its read or write bucket first, then any extra units. */
export function requestChecks(principal: Principal, write: boolean, units: ExtraUnits, charge: boolean): BucketCheck[] {
  const spend: [BucketName, number][] = [[write ? "writes" : "reads", 1]];
  for (const [bucket, cost] of Object.entries(units) as [BucketName, number][]) if (cost > 0) spend.push([bucket, cost]);
  return spend.flatMap(([bucket, cost]) =>
    SPANS.map(({ span, seconds }) => ({
      key: `rl:${principal.mainAccountId}:${bucket}:${span}`,
      limit: principal.plan.buckets[bucket][span],
      windowSeconds: seconds,
      cost: charge ? cost : 0,
      bucket,
      span,
    })),
  );
}

/** The checks of a charged request without extra units, built once per principal (the key cache keeps it) and kind. */
const plainChecksOf = new WeakMap<Principal, { reads?: BucketCheck[]; writes?: BucketCheck[] }>();

function plainChecks(principal: Principal, write: boolean): BucketCheck[] {
  let kinds = plainChecksOf.get(principal);
  if (!kinds) plainChecksOf.set(principal, (kinds = {}));
  const kind = write ? "writes" : "reads";
  return (kinds[kind] ??= requestChecks(principal, write, {}, true));
}

/**
 * Charges the request's buckets (or only reads them when `charge` is false, so an
 * answer refused earlier still carries the headers), sets the rate-limit headers and
 * throws `429 rate_limited` when a bucket is full.
 */
export async function chargeRequestBuckets(
  ctx: Context,
  principal: Principal,
  options: { write: boolean; units?: RequestUnits; charge: boolean },
): Promise<void> {
  const { requestCounters, clock } = ctx.services;
  const checks =
    options.charge && options.units === undefined
      ? plainChecks(principal, options.write)
      : requestChecks(principal, options.write, options.units ?? {}, options.charge);
  const now = clock.now();
  const result = await requestCounters.consume(checks, now);
  // The first two windows are the request's own reads or writes bucket (all of a plain request's checks).
  const own = checks.length === 2 ? checks : checks.slice(0, 2);
  setRateLimitHeaders(ctx.responseHeaders, own, result.windows.length === 2 ? result.windows : result.windows.slice(0, 2), now);
  if (result.allowed) return;
  const full = result.windows
    .map((state, i) => ({ ...state, bucket: checks[i].bucket, span: checks[i].span }))
    .filter((window, i) => window.used + checks[i].cost > window.limit);
  const blocking = full.reduce((a, b) => (b.resetAt > a.resetAt ? b : a));
  const retryAfter = blocking.resetAt - Math.floor(now / 1000);
  ctx.services.telemetry?.rateLimited(blocking.bucket);
  const message = `Rate limit exceeded: the ${principal.plan.label} plan allows ${blocking.limit} ${blocking.bucket} per ${blocking.span}; retry in ${Math.max(1, retryAfter)} s`;
  throw retryableError("rate_limited", message, retryAfter, { bucket: blocking.bucket });
}
