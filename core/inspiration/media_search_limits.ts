/**
 * The limits of fresh inspiration media searches (spec Limits 9; supplement 3.2: "burst
 * 20, refills 1 per 3 s, 500 fresh searches per day"), per account: counted for the key
 * owner's main account (`principal.mainAccountId`), like every other allowance, since the
 * endpoint is owner-scoped and takes no `account_id`. Both live in the allowance counters
 * and fail closed (spec rule 9).
 *
 * The daily allowance is taken first and given back when the burst bucket refuses, so a
 * refused search spends neither, and when both are spent the answer names the day (the
 * longer wait). A cached repeat calls none of this (media_search.ts).
 */
import type { KeyContext } from "../context.ts";
import type { AllowanceSpec } from "../limits/allowances.ts";
import { consumeAllowances, releaseAllowances } from "../limits/allowances.ts";
import { rateLimitedAllowanceError, tokenBucketError } from "../limits/allowance_errors.ts";
import type { TokenBucketCheck, TokenBucketState } from "../ports/counters.ts";

/** 500 fresh searches per account per UTC day. */
export const MEDIA_SEARCHES_DAILY: AllowanceSpec = { name: "inspiration_media_daily", limit: 500, scope: "account" };

/** A burst of 20 fresh searches, one more every 3 seconds. */
export const MEDIA_SEARCH_BURST = { name: "inspiration_media_burst", burst: 20, intervalMs: 3_000 } as const;

const UNITS = "fresh inspiration media searches";

/** Gives a fresh search back (the library never answered). */
export type ReleaseSearch = () => Promise<void>;

/** Takes one fresh search from both limits or throws `429 rate_limited` naming the bucket. */
export async function chargeFreshSearch(ctx: KeyContext): Promise<ReleaseSearch> {
  const ownerId = ctx.principal.mainAccountId;
  const charges = [{ spec: MEDIA_SEARCHES_DAILY, units: 1 }];
  const daily = await consumeAllowances(ctx, ownerId, charges);
  if (daily.status !== "allowed") {
    if (daily.status === "refused") ctx.services.telemetry?.rateLimited(MEDIA_SEARCHES_DAILY.name);
    throw rateLimitedAllowanceError(daily, { bucket: MEDIA_SEARCHES_DAILY.name, units: UNITS });
  }
  const giveBack = async () => {
    await releaseAllowances(ctx, ownerId, charges, { chargedAt: daily.checkedAt });
  };
  const { name, burst, intervalMs } = MEDIA_SEARCH_BURST;
  const check: TokenBucketCheck = { key: `tb:${ownerId}:${name}`, burst, intervalMs, cost: 1 };
  let bucket: TokenBucketState;
  try {
    bucket = await ctx.services.allowanceCounters.takeTokens(check, daily.checkedAt);
  } catch (cause) {
    await giveBack();
    throw rateLimitedAllowanceError({ status: "unverifiable", checkedAt: daily.checkedAt, cause }, { bucket: name, units: UNITS });
  }
  if (!bucket.allowed) {
    await giveBack();
    ctx.services.telemetry?.rateLimited(name);
    throw tokenBucketError(bucket, daily.checkedAt, { bucket: name, units: UNITS });
  }
  return giveBack;
}
