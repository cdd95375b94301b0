/**
 * Feed fetches (spec Limits 1 and 6; supplement section 3.1): a feed's posts count 1 or 3
 * against the owner's feed bucket (per minute and per UTC day, by plan: 2/5/10/15 a minute),
 * mentions a flat 3. Over the cap the answer is `429 rate_limited` whose body also carries
 * `remaining_day`, the fetches left today (supplement: "the body carries remaining_day").
 */
import type { KeyContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { chargeExtraUnits, type ReleaseUnits } from "../limits/extra_units.ts";
import { requestChecks } from "../limits/request_buckets.ts";

/** Charges `units` feed fetches, or throws `429 rate_limited` with `remaining_day`. */
export async function chargeFeedFetches(ctx: KeyContext, units: number): Promise<ReleaseUnits> {
  try {
    return await chargeExtraUnits(ctx, ctx.principal, { feed: units });
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "rate_limited") throw error;
    const remaining = await remainingToday(ctx);
    throw new ApiError(error.code, error.message, { ...error.extra, remaining_day: remaining }, error.headers);
  }
}

/** Feed fetches left in the owner's UTC day (read without spending). */
async function remainingToday(ctx: KeyContext): Promise<number> {
  const day = requestChecks(ctx.principal, false, { feed: 1 }, false).find((check) => check.bucket === "feed" && check.span === "day");
  if (!day) return 0;
  const [window] = (await ctx.services.requestCounters.consume([day], ctx.services.clock.now())).windows;
  return Math.max(0, window.limit - window.used);
}
