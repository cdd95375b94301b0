/** SQL for API keys. */
import type { Queryable } from "../db/sql.ts";
import type { Scope } from "../request_state/principal.ts";

/** A key as listed (never the key itself). */
export interface KeyRow {
  id: number;
  user_id: number;
  name: string;
  display: string;
  scopes: Scope[];
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/** The active key with `keyHash`, joined with its user and the user's main account. */
export async function activeKeyByHash(sql: Queryable, keyHash: string) {
  const [row] = await sql<
    (KeyRow & { user_name: string; plan: string; subscription_status: string; onboarded: boolean; billing_anchor: Date; main_account_id: string })[]
  >`
    select k.id, k.user_id, k.name, k.display, k.scopes, k.created_at, k.last_used_at, k.revoked_at,
           u.name as user_name, u.plan, u.subscription_status, u.onboarded, u.billing_anchor, a.id as main_account_id
      from api_keys k
      join users u on u.id = k.user_id
      join accounts a on a.user_id = u.id and a.main_account_id is null
     where k.key_hash = ${keyHash} and k.revoked_at is null`;
  return row;
}

/** Records use; callers throttle this to once a minute per key. */
export async function touchKey(sql: Queryable, keyId: number): Promise<Date> {
  const [row] = await sql<{ last_used_at: Date }[]>`
    update api_keys set last_used_at = now() where id = ${keyId} returning last_used_at`;
  return row?.last_used_at ?? new Date();
}

/** Inserts a key record. */
export async function insertKey(sql: Queryable, key: { userId: number; name: string; keyHash: string; display: string; scopes: Scope[] }): Promise<KeyRow> {
  const [row] = await sql<KeyRow[]>`
    insert into api_keys (user_id, name, key_hash, display, scopes)
    values (${key.userId}, ${key.name}, ${key.keyHash}, ${key.display}, ${sql.array(key.scopes)})
    returning id, user_id, name, display, scopes, created_at, last_used_at, revoked_at`;
  return row;
}

/** Active keys of a user, locking the user row so concurrent creates count correctly. */
export async function countActiveKeysForUpdate(sql: Queryable, userId: number): Promise<number | undefined> {
  const [user] = await sql<{ id: number }[]>`select id from users where id = ${userId} for update`;
  if (!user) return undefined;
  const [{ count }] = await sql<{ count: number }[]>`
    select count(*)::int as count from api_keys where user_id = ${userId} and revoked_at is null`;
  return count;
}

/** Every key of a user, newest first. */
export async function keysOfUser(sql: Queryable, userId: number, includeRevoked: boolean): Promise<KeyRow[]> {
  return sql<KeyRow[]>`
    select id, user_id, name, display, scopes, created_at, last_used_at, revoked_at
      from api_keys where user_id = ${userId} and (${includeRevoked} or revoked_at is null)
     order by created_at desc, id desc`;
}

/** The key `keyId` (active or not), locked for the rest of the transaction. */
export async function keyForUpdate(sql: Queryable, keyId: number): Promise<KeyRow | undefined> {
  const [row] = await sql<KeyRow[]>`
    select id, user_id, name, display, scopes, created_at, last_used_at, revoked_at
      from api_keys where id = ${keyId} for update`;
  return row;
}

/** Revokes an active key; answers false when it was not active. */
export async function revokeKeyRow(sql: Queryable, keyId: number, replacedBy?: number): Promise<boolean> {
  const rows = await sql`
    update api_keys set revoked_at = now(), replaced_by = ${replacedBy ?? null}
     where id = ${keyId} and revoked_at is null returning id`;
  return rows.length === 1;
}

/** What decides whether a key still works: its revocation (and replacement) and its user's subscription. */
export async function keyStanding(sql: Queryable, keyId: number) {
  const [row] = await sql<{ revoked_at: Date | null; replaced_by: number | null; subscription_status: string }[]>`
    select k.revoked_at, k.replaced_by, u.subscription_status
      from api_keys k join users u on u.id = k.user_id
     where k.id = ${keyId}`;
  return row;
}
