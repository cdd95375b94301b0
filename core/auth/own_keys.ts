/**
 * A user's own API keys, managed with a key of theirs (`/v1/keys`): the spec's companion app
 * manages keys (Authentication 2-3); the console is that app here. The rules are the operator's
 * (core/auth/keys.ts): 10 active keys, shown once, rotation keeps name and scopes. A key only
 * ever reaches its own user's keys; another user's key id is `404 not_found`.
 */
import type { KeyContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { pageInfo } from "../schema.ts";
import { createKey, rotateKey, revokeKey } from "./keys.ts";
import { keysOfUser, type KeyRow } from "./keys_queries.ts";
import type { CreateKeyInput, KeyByIdInput, ListKeysInput } from "./own_key_schema.ts";

/** The caller's active keys, newest first. */
export async function listOwnKeys(ctx: KeyContext, input: ListKeysInput) {
  const rows = await keysOfUser(ctx.services.sql, ctx.principal.userId, false);
  const offset = (input.page - 1) * input.limit;
  return {
    data: rows.slice(offset, offset + input.limit).map((row) => toKey(ctx, row)),
    pagination: pageInfo(input.page, input.limit, rows.length, rows.length),
  };
}

/** Issues a key for the caller's user (`403 cap_reached` past 10 active keys). */
export async function createOwnKey(ctx: KeyContext, input: CreateKeyInput) {
  const { sql, settings } = ctx.services;
  const issued = await createKey(sql, {
    userId: ctx.principal.userId,
    name: input.name,
    scopes: input.scopes ?? ["read", "write"],
    prefix: settings.keyPrefix,
  });
  return { data: { ...toKey(ctx, issued.record), key: issued.key } };
}

/** Replaces one of the caller's keys with a new one of the same name and scopes; the old one stops working at once. */
export async function rotateOwnKey(ctx: KeyContext, input: KeyByIdInput) {
  await ownActiveKey(ctx, input.id);
  const { sql, keyCache, settings } = ctx.services;
  const issued = await rotateKey(sql, keyCache, input.id, settings.keyPrefix);
  return { data: { ...toKey(ctx, issued.record), key: issued.key } };
}

/** Revokes one of the caller's keys (the one in use too: the next request with it is `401 invalid_api_key`). */
export async function revokeOwnKey(ctx: KeyContext, input: KeyByIdInput) {
  await ownActiveKey(ctx, input.id);
  await revokeKey(ctx.services.sql, ctx.services.keyCache, input.id);
  return { data: { id: input.id, revoked: true as const } };
}

async function ownActiveKey(ctx: KeyContext, keyId: number): Promise<void> {
  const keys = await keysOfUser(ctx.services.sql, ctx.principal.userId, false);
  if (!keys.some((key) => key.id === keyId)) throw new ApiError("not_found", `Cannot find active key "${keyId}"`);
}

function toKey(ctx: KeyContext, row: KeyRow) {
  return {
    id: row.id,
    name: row.name,
    display: row.display,
    scopes: row.scopes,
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at?.toISOString() ?? null,
    current: row.id === ctx.principal.key.id,
  };
}
