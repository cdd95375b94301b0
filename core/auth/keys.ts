/**
 * Key management (spec: Authentication 2-4): at most 10 active keys per user, shown
 * once, rotation keeps name and scopes and revokes the old key in one transaction.
 */
import type { Queryable, Sql } from "../db/sql.ts";
import { ApiError } from "../errors.ts";
import { displayApiKey, generateApiKey, hashApiKey } from "./api_key_format.ts";
import type { KeyCache } from "../ports/key_cache.ts";
import type { Scope } from "../request_state/principal.ts";
import { countActiveKeysForUpdate, insertKey, keyForUpdate, type KeyRow, revokeKeyRow } from "./keys_queries.ts";

/** Active keys a user may hold (spec: Constants). */
export const MAX_ACTIVE_KEYS = 10;

/** A newly issued key: the only time the full key is available. */
export interface IssuedKey {
  key: string;
  record: KeyRow;
}

/** Normalises scopes: `write` implies `read` (Authentication 4). */
export function normaliseScopes(scopes: readonly string[]): Scope[] {
  const unknown = scopes.filter((scope) => scope !== "read" && scope !== "write");
  if (unknown.length > 0) throw new ApiError("invalid_parameter", `Unknown scope "${unknown[0]}"; use read or read,write`);
  return scopes.includes("write") ? ["read", "write"] : ["read"];
}

/** Issues a key for `userId`; refuses an 11th active key. */
export async function createKey(sql: Sql, options: { userId: number; name: string; scopes: readonly string[]; prefix: string }): Promise<IssuedKey> {
  const name = options.name.trim();
  if (name.length < 1 || name.length > 100) throw new ApiError("invalid_parameter", "Key name must be 1 to 100 characters");
  const scopes = normaliseScopes(options.scopes);
  return sql.begin(async (tx) => {
    const active = await countActiveKeysForUpdate(tx, options.userId);
    if (active === undefined) throw new ApiError("not_found", `Cannot find user "${options.userId}"`);
    if (active >= MAX_ACTIVE_KEYS) {
      throw new ApiError("cap_reached", `User "${options.userId}" already has ${MAX_ACTIVE_KEYS} active keys; revoke one first`);
    }
    return issue(tx, options.userId, name, scopes, options.prefix);
  });
}

/** Replaces a key with a new one of the same name and scopes and revokes the old one. */
export async function rotateKey(sql: Sql, keyCache: KeyCache, keyId: number, prefix: string): Promise<IssuedKey> {
  const issued = await sql.begin(async (tx) => {
    const old = await keyForUpdate(tx, keyId);
    if (!old || old.revoked_at) throw new ApiError("not_found", `Cannot find active key "${keyId}"`);
    const fresh = await issue(tx, old.user_id, old.name, old.scopes, prefix);
    await revokeKeyRow(tx, old.id, fresh.record.id);
    return fresh;
  });
  keyCache.forgetKey(keyId);
  return issued;
}

/** Revokes a key; takes effect at once in this process and within 30 s in others. */
export async function revokeKey(sql: Sql, keyCache: KeyCache, keyId: number): Promise<void> {
  const revoked = await revokeKeyRow(sql, keyId);
  keyCache.forgetKey(keyId);
  if (!revoked) throw new ApiError("not_found", `Cannot find active key "${keyId}"`);
}

async function issue(sql: Queryable, userId: number, name: string, scopes: Scope[], prefix: string): Promise<IssuedKey> {
  const key = generateApiKey(prefix);
  const record = await insertKey(sql, { userId, name, keyHash: hashApiKey(key), display: displayApiKey(key, prefix), scopes });
  return { key, record };
}
