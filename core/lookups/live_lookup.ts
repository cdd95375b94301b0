/**
 * One live lookup (spec Limits 5 and 8): its enrichment units are always charged;
 * the daily live allowance (300 per account, plus the platform ceiling) only when the
 * answer is not in the 15-minute cache; all or nothing across both; a lookup that
 * never reached the network (unavailable) gives both back.
 */
import type { KeyContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { chargeExtraUnits } from "../limits/extra_units.ts";
import { consumeAllowances, releaseAllowances } from "../limits/allowances.ts";
import { LIVE_LOOKUPS, PLATFORM_LIVE_DATA } from "../limits/allowance_catalog.ts";
import { lookupQuotaError } from "../limits/allowance_errors.ts";
import { networkApiError } from "../network/network_api_error.ts";

/** Runs `fetch` for `cacheKey` charging `units`, or answers the cached value. */
export async function liveLookup<T>(ctx: KeyContext, lookup: { cacheKey: string; units: number; fetch: () => Promise<T> }): Promise<T> {
  const { principal } = ctx;
  const { lookupCache, clock } = ctx.services;
  const releaseUnits = await chargeExtraUnits(ctx, principal, { enrichment: lookup.units });
  const cached = lookupCache.get<T>(lookup.cacheKey, clock.now());
  if (cached !== undefined) return cached;

  const charges = [
    { spec: LIVE_LOOKUPS, units: lookup.units },
    { spec: PLATFORM_LIVE_DATA, units: lookup.units },
  ];
  const outcome = await consumeAllowances(ctx, principal.mainAccountId, charges);
  if (outcome.status !== "allowed") {
    await releaseUnits();
    throw lookupQuotaError(outcome);
  }
  try {
    const value = await lookup.fetch();
    lookupCache.set(lookup.cacheKey, value, clock.now());
    return value;
  } catch (error) {
    const failure = networkApiError(error);
    // Nothing was read from the network: the lookup costs nothing.
    if (failure instanceof ApiError && (failure.code === "upstream_unavailable" || failure.code === "upstream_timeout")) {
      await releaseUnits();
      await releaseAllowances(ctx, principal.mainAccountId, charges, { chargedAt: outcome.checkedAt });
    }
    throw failure;
  }
}
