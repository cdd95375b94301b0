/**
 * Enrichment or feed-fetch units whose count depends on the request (spec Limits 4-6:
 * a lookup with quotes costs 2, a handle's posts 1 or 2), charged inside the handler
 * on top of the read or write the request path already counted. The charge answers a
 * release, so a multi-unit call stays all or nothing with what follows it.
 */
import type { Context } from "../context.ts";
import type { Principal } from "../request_state/principal.ts";
import { retryableError } from "../errors.ts";
import { type ExtraUnits, requestChecks } from "./request_buckets.ts";

/** Gives the units back (a later step refused the call). */
export type ReleaseUnits = () => Promise<void>;

/** Charges `units` to the owner's buckets or throws `429 rate_limited` naming the bucket. */
export async function chargeExtraUnits(ctx: Context, principal: Principal, units: ExtraUnits): Promise<ReleaseUnits> {
  // requestChecks puts the read bucket first; extra units follow it.
  const checks = requestChecks(principal, false, units, true).slice(2);
  if (checks.length === 0) return async () => {};
  const now = ctx.services.clock.now();
  const result = await ctx.services.requestCounters.consume(checks, now);
  if (!result.allowed) {
    const index = result.windows.findIndex((window, i) => window.used + checks[i].cost > window.limit);
    const blocked = result.windows[index];
    const retryAfter = blocked.resetAt - Math.floor(now / 1000);
    const { bucket, span } = checks[index];
    throw retryableError(
      "rate_limited",
      `Rate limit exceeded: the ${principal.plan.label} plan allows ${blocked.limit} ${bucket} units per ${span}; retry in ${Math.max(1, retryAfter)} s`,
      retryAfter,
      { bucket },
    );
  }
  return () => ctx.services.requestCounters.release(checks, now).catch(() => {});
}
