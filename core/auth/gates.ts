/**
 * Checks on an authenticated key that refuse the request before it runs: the
 * subscription (spec: Authentication 7, Errors "Legacy string exception") and the
 * scope (Authentication 4: non-GET needs `write`).
 */
import type { Context } from "../context.ts";
import { ApiError, LegacyStringError } from "../errors.ts";
import type { Principal } from "../request_state/principal.ts";

/** Subscription statuses that keep the API open (Authentication 7). */
export const WORKING_SUBSCRIPTIONS: readonly string[] = ["active", "trialing", "team"];

/** The legacy string error for a lapsed or unverifiable subscription, else undefined. */
export function subscriptionGate(ctx: Context, principal: Principal): LegacyStringError | undefined {
  if (ctx.services.faults.has("billing")) {
    return new LegacyStringError(500, "internal_error: the subscription could not be verified; retry shortly");
  }
  if (!WORKING_SUBSCRIPTIONS.includes(principal.subscriptionStatus)) {
    return new LegacyStringError(403, "subscription_required: this account has no active subscription; resubscribe in the app and your keys resume working");
  }
  return undefined;
}

/** `403 insufficient_scope` for a write with a read-only key, else undefined. */
export function scopeGate(principal: Principal, write: boolean): ApiError | undefined {
  if (!write || principal.key.scopes.includes("write")) return undefined;
  return new ApiError("insufficient_scope", "This API key is read-only; POST, PUT, PATCH and DELETE need a key with the write scope");
}
