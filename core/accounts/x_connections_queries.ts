/** SQL of connecting X accounts (tables `x_connect_requests`, `x_connections`; migration 0036). */
import type { Queryable } from "../db/sql.ts";
import { leasePieces } from "../leases/lease_queries.ts";

/** The refresh lease (core/leases/): one refresh per account at a time, on the database's clock. */
const refreshLease = leasePieces({ holder: "refresh_holder", until: "refresh_until" });

/** A started connection. */
export interface ConnectRequestRow {
  state: string;
  user_id: number;
  code_verifier: string;
  redirect_uri: string;
  expires_at: Date;
  used_at: Date | null;
}

/** Stores a started connection; clears requests that ended a day ago on the way. */
export async function insertConnectRequest(
  sql: Queryable,
  request: { state: string; userId: number; codeVerifier: string; redirectUri: string; now: Date; expiresAt: Date },
): Promise<void> {
  await sql`delete from x_connect_requests where expires_at < ${new Date(request.now.getTime() - 86_400_000)}`;
  await sql`
    insert into x_connect_requests (state, user_id, code_verifier, redirect_uri, created_at, expires_at)
    values (${request.state}, ${request.userId}, ${request.codeVerifier}, ${request.redirectUri}, ${request.now}, ${request.expiresAt})`;
}

/**
 * Takes the request `state` names for its one use: answers it when it was unused and had not
 * expired at `now`, marking it used in the same statement (a second callback with the same
 * `state` finds nothing).
 */
export async function useConnectRequest(sql: Queryable, state: string, now: Date): Promise<ConnectRequestRow | undefined> {
  const [row] = await sql<ConnectRequestRow[]>`
    update x_connect_requests set used_at = ${now}
     where state = ${state} and used_at is null and expires_at > ${now}
    returning state, user_id::int as user_id, code_verifier, redirect_uri, expires_at, used_at`;
  return row;
}

/** The owner of account `id` and whether it is their main account (undefined: no such account). */
export async function accountOwner(sql: Queryable, id: string): Promise<{ user_id: number; is_main: boolean } | undefined> {
  const [row] = await sql<{ user_id: number; is_main: boolean }[]>`
    select user_id::int as user_id, main_account_id is null as is_main from accounts where id = ${id}`;
  return row;
}

/** Refreshes an account's profile from X. */
export async function updateAccountProfile(sql: Queryable, id: string, profile: { username: string; name: string; avatarUrl: string }): Promise<void> {
  await sql`update accounts set username = ${profile.username}, name = ${profile.name}, avatar_url = ${profile.avatarUrl} where id = ${id}`;
}

/** Sealed tokens and what X said about them. */
export interface StoredTokens {
  accessToken: string;
  accessExpiresAt: Date;
  /** Sealed; undefined keeps the stored one (a reconnect without `offline.access` must not lose it). */
  refreshToken?: string;
  scopes: string[];
}

/** Stores the account's authorisation as connected (a reconnect replaces it, keeping a refresh token X did not replace). */
export async function saveConnection(sql: Queryable, accountId: string, tokens: StoredTokens, now: Date): Promise<void> {
  await sql`
    insert into x_connections (account_id, scopes, access_token, access_expires_at, refresh_token, status, connected_at, updated_at)
    values (${accountId}, ${tokens.scopes}, ${tokens.accessToken}, ${tokens.accessExpiresAt}, ${tokens.refreshToken ?? null}, 'connected', ${now}, ${now})
    on conflict (account_id) do update set
      kind = 'oauth2', token_secret = null, scopes = excluded.scopes, access_token = excluded.access_token, access_expires_at = excluded.access_expires_at,
      refresh_token = coalesce(excluded.refresh_token, x_connections.refresh_token),
      status = 'connected', reauth_reason = null, refresh_holder = null, refresh_until = null,
      connected_at = excluded.connected_at, updated_at = excluded.updated_at`;
}

/** Stores an account's OAuth 1.0a access token and secret (sealed) as its connection, replacing any other. */
export async function saveOAuth1Connection(sql: Queryable, accountId: string, sealed: { token: string; secret: string }, now: Date): Promise<void> {
  await sql`
    insert into x_connections (account_id, kind, scopes, access_token, token_secret, access_expires_at, refresh_token, status, connected_at, updated_at)
    values (${accountId}, 'oauth1', ${[]}, ${sealed.token}, ${sealed.secret}, null, null, 'connected', ${now}, ${now})
    on conflict (account_id) do update set
      kind = 'oauth1', scopes = excluded.scopes, access_token = excluded.access_token, token_secret = excluded.token_secret,
      access_expires_at = null, refresh_token = null, status = 'connected', reauth_reason = null, refresh_holder = null,
      refresh_until = null, connected_at = excluded.connected_at, refreshed_at = null, updated_at = excluded.updated_at`;
}

/** An account's connection as stored. */
export interface ConnectionRow {
  account_id: string;
  /** `oauth2`: access and refresh tokens; `oauth1`: an access token and its secret, which do not expire. */
  kind: "oauth2" | "oauth1";
  scopes: string[];
  access_token: string;
  /** Sealed; set for `oauth1` only. */
  token_secret: string | null;
  /** Null for `oauth1`. */
  access_expires_at: Date | null;
  refresh_token: string | null;
  status: "connected" | "reauth_required";
  reauth_reason: string | null;
  connected_at: Date;
  refreshed_at: Date | null;
}

const CONNECTION_COLUMNS =
  "account_id, kind, scopes, access_token, token_secret, access_expires_at, refresh_token, status, reauth_reason, connected_at, refreshed_at";

/** The connection of account `id`. */
export async function connectionOf(sql: Queryable, accountId: string): Promise<ConnectionRow | undefined> {
  const [row] = await sql<ConnectionRow[]>`select ${sql.unsafe(CONNECTION_COLUMNS)} from x_connections where account_id = ${accountId}`;
  return row;
}

/** The connections of several accounts (for `GET /v1/accounts`). */
export async function connectionsOf(sql: Queryable, accountIds: readonly string[]): Promise<ConnectionRow[]> {
  if (accountIds.length === 0) return [];
  return sql<ConnectionRow[]>`select ${sql.unsafe(CONNECTION_COLUMNS)} from x_connections where account_id in ${sql(accountIds as string[])}`;
}

/**
 * Takes the account's refresh lease for `holder` when its access token expires before `before`
 * and nobody else holds the lease (one refresh per account across every process: X rotates
 * refresh tokens, and a second refresh with the same one is refused). Answers the row when taken.
 */
export async function takeRefreshLease(
  sql: Queryable,
  accountId: string,
  holder: string,
  before: Date,
  leaseSeconds: number,
): Promise<ConnectionRow | undefined> {
  const [row] = await sql<ConnectionRow[]>`
    update x_connections set ${refreshLease.take(sql, { holder, leaseSeconds })}
     where account_id = ${accountId} and status = 'connected' and access_expires_at < ${before} and ${refreshLease.free(sql)}
    returning ${sql.unsafe(CONNECTION_COLUMNS)}`;
  return row;
}

/** Stores refreshed tokens (sealed) under the holder's lease and lets go of it. */
export async function saveRefreshedTokens(
  sql: Queryable,
  accountId: string,
  holder: string,
  tokens: { accessToken: string; accessExpiresAt: Date; refreshToken?: string; scopes: string[] },
  now: Date,
): Promise<boolean> {
  const rows = await sql`
    update x_connections set access_token = ${tokens.accessToken}, access_expires_at = ${tokens.accessExpiresAt},
           refresh_token = coalesce(${tokens.refreshToken ?? null}, refresh_token), scopes = ${tokens.scopes},
           refreshed_at = ${now}, updated_at = ${now}, ${refreshLease.drop(sql)}
     where account_id = ${accountId} and ${refreshLease.heldBy(sql, { holder })}
    returning 1`;
  return rows.length > 0;
}

/** Lets go of the refresh lease without a change (a refresh that failed for now). */
export async function releaseRefreshLease(sql: Queryable, accountId: string, holder: string): Promise<void> {
  await sql`update x_connections set ${refreshLease.drop(sql)} where account_id = ${accountId} and ${refreshLease.heldBy(sql, { holder })}`;
}

/**
 * Treats the account's OAuth 2.0 access token as expired at `now` (X answered 401 to a request
 * acting with it), so the next call refreshes it first. Answers whether a connection was changed.
 */
export async function expireAccessToken(sql: Queryable, accountId: string, now: Date): Promise<boolean> {
  const rows = await sql`
    update x_connections set access_expires_at = ${now}, updated_at = ${now}
     where account_id = ${accountId} and kind = 'oauth2' and status = 'connected' and access_expires_at > ${now}
    returning 1`;
  return rows.length > 0;
}

/** Marks the account as needing a new connection (X refused its refresh for good); answers the row when this call marked it. */
export async function markReauthRequired(sql: Queryable, accountId: string, holder: string, reason: string, now: Date): Promise<ConnectionRow | undefined> {
  const [row] = await sql<ConnectionRow[]>`
    update x_connections set status = 'reauth_required', reauth_reason = ${reason}, ${refreshLease.drop(sql)}, updated_at = ${now}
     where account_id = ${accountId} and ${refreshLease.heldBy(sql, { holder })}
    returning ${sql.unsafe(CONNECTION_COLUMNS)}`;
  return row;
}

/** The account's handle, for the event's `data`. */
export async function usernameOf(sql: Queryable, accountId: string): Promise<string | undefined> {
  const [row] = await sql<{ username: string }[]>`select username from accounts where id = ${accountId}`;
  return row?.username;
}

/** A connected account as the doctor (`threadline x check`) sees it: never a token, only whether a refresh token is stored. */
export interface ConnectedAccountRow {
  account_id: string;
  username: string;
  user_id: number;
  is_main: boolean;
  status: "connected" | "reauth_required";
  reauth_reason: string | null;
  scopes: string[];
  /** Null for an OAuth 1.0a token, which does not expire. */
  access_expires_at: Date | null;
  can_refresh: boolean;
}

/** Every account with an X connection, by user then account. */
export async function connectedAccounts(sql: Queryable): Promise<ConnectedAccountRow[]> {
  return sql<ConnectedAccountRow[]>`
    select c.account_id, a.username, a.user_id::int as user_id, a.main_account_id is null as is_main, c.status, c.reauth_reason,
           c.scopes, c.access_expires_at, c.refresh_token is not null as can_refresh
      from x_connections c join accounts a on a.id = c.account_id
     order by a.user_id, a.id`;
}
