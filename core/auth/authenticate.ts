/**
 * Authentication (spec: Authentication 1, 5, 6; ARCHITECTURE request path step 2):
 * `Authorization: Bearer <key>`, looked up by SHA-256. Failed attempts are limited per
 * client address to 20 a minute; a correctly authenticated request never touches
 * that limiter, so it cannot lock out a legitimate key sharing the address.
 */
import type { Context } from "../context.ts";
import { ApiError, retryableError } from "../errors.ts";
import { hashApiKey, isWellFormedApiKey } from "./api_key_format.ts";
import { activeKeyByHash, touchKey } from "./keys_queries.ts";
import type { Principal } from "../request_state/principal.ts";
import { planById } from "../plans/plans.ts";

/** Failed attempts allowed per address per clock minute (Authentication 6). */
export const FAILED_ATTEMPTS_PER_MINUTE = 20;

/** `last_used_at` is written at most this often per key, to keep writes off the hot path. */
const TOUCH_INTERVAL_MS = 60_000;

/** Finds the caller's principal or throws `401` (or `429` past the failed-attempt limit). */
export async function authenticate(ctx: Context): Promise<Principal> {
  if (ctx.transport.authenticated) return ctx.transport.authenticated;
  const token = bearerToken(ctx.transport.headers.get("authorization"));
  if (token === undefined) {
    return failedAttempt(ctx, new ApiError("unauthorized", 'Missing or malformed Authorization header; send "Authorization: Bearer <API_KEY>"'));
  }
  const principal = await lookup(ctx, token);
  if (!principal) return failedAttempt(ctx, new ApiError("invalid_api_key", "Unknown or revoked API key"));
  return principal;
}

/** The token of a well-formed `Bearer` header, else undefined. */
export function bearerToken(header: string | null): string | undefined {
  const match = /^Bearer +([^\s]+) *$/i.exec(header ?? "");
  return match?.[1];
}

/**
 * Hashes of keys that authenticated lately, by key: a known key's hash costs a map read instead
 * of a SHA-256 (measured per request by the bench's profile). Only keys that authenticated are
 * kept, so made-up keys cannot churn it; past the bound it starts over.
 */
const knownKeyHashes = new Map<string, string>();
const KNOWN_KEY_HASHES = 10_000;

async function lookup(ctx: Context, token: string): Promise<Principal | undefined> {
  const { sql, keyCache, clock } = ctx.services;
  const hash = knownKeyHashes.get(token) ?? hashApiKey(token);
  const now = clock.now();
  let principal = keyCache.get(hash, now);
  if (!principal) {
    // The checksum refuses a mistyped or made-up key without a database lookup.
    if (!isWellFormedApiKey(token, ctx.services.settings.keyPrefix)) return undefined;
    const row = await activeKeyByHash(sql, hash);
    if (!row) return undefined;
    principal = {
      userId: row.user_id,
      userName: row.user_name,
      plan: planById(row.plan),
      subscriptionStatus: row.subscription_status,
      onboarded: row.onboarded,
      billingAnchor: row.billing_anchor,
      mainAccountId: row.main_account_id,
      key: { id: row.id, name: row.name, scopes: row.scopes, display: row.display, createdAt: row.created_at, lastUsedAt: row.last_used_at },
    };
    keyCache.set(hash, principal, now);
    if (knownKeyHashes.size >= KNOWN_KEY_HASHES) knownKeyHashes.clear();
    knownKeyHashes.set(token, hash);
  }
  const lastUsed = principal.key.lastUsedAt?.getTime() ?? 0;
  if (now - lastUsed >= TOUCH_INTERVAL_MS) principal.key.lastUsedAt = await touchKey(sql, principal.key.id);
  return principal;
}

async function failedAttempt(ctx: Context, error: ApiError): Promise<never> {
  const { requestCounters, clock } = ctx.services;
  const result = await requestCounters.consume(
    [{ key: `authfail:${ctx.transport.ip}`, limit: FAILED_ATTEMPTS_PER_MINUTE, windowSeconds: 60, cost: 1 }],
    clock.now(),
  );
  if (result.allowed) throw error;
  const retryAfter = result.windows[0].resetAt - Math.floor(clock.now() / 1000);
  throw retryableError("rate_limited", `Too many failed authentication attempts from this address; retry in ${Math.max(1, retryAfter)} s`, retryAfter);
}
