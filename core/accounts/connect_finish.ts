/**
 * Finishing a connection (docs/x.md, "Connecting accounts"): X sends the browser back to the
 * callback with `state` and a `code` (or an `error` when the user declined). The `state` is used
 * once and only within its 10 minutes; the code is traded at once (X keeps it about 30 seconds)
 * with the stored PKCE verifier; `/2/users/me` says which X account approved. That account
 * becomes (or stays) one of the starting user's accounts, whose id is the X user id: the user's
 * main account when it is that X account, else a linked account. Its tokens are stored sealed;
 * a reconnect replaces them but keeps a refresh token X did not replace.
 */
import type { Services } from "../context.ts";
import { ApiError } from "../errors.ts";
import { linkAccountIn } from "./users.ts";
import { XGrantRefused, type XIdentity } from "../ports/x_oauth.ts";
import type { Queryable, Sql } from "../db/sql.ts";
import { accountOwner, saveConnection, updateAccountProfile, useConnectRequest } from "./x_connections_queries.ts";
import { xConnectOf } from "./connect_start.ts";
import { isUniqueViolation } from "../db/pg_errors.ts";

/** What X's redirect carries. */
export interface ConnectCallback {
  state?: string;
  code?: string;
  /** `access_denied` when the user declined. */
  error?: string;
  error_description?: string;
}

/** The account a finished connection connected. */
export interface ConnectedAccount {
  account_id: string;
  username: string;
  relation: "main" | "linked";
  /** The account did not exist before: it was linked to the user's main account now. */
  created: boolean;
}

/** Finishes the connection `callback.state` started; answers the connected account. */
export async function finishConnect(services: Services, callback: ConnectCallback): Promise<ConnectedAccount> {
  const { oauth } = xConnectOf({ services });
  const { sql, clock, secretBox } = services;
  if (!callback.state) throw new ApiError("invalid_parameter", "The callback has no state; start again with POST /v1/accounts/connect");
  const request = await useConnectRequest(sql, callback.state, new Date(clock.now()));
  if (!request) throw new ApiError("invalid_parameter", "This connection link is unknown, already used or expired; start again with POST /v1/accounts/connect");
  if (callback.error) {
    throw new ApiError("invalid_parameter", `X did not authorise the connection: "${callback.error_description ?? callback.error}"`);
  }
  if (!callback.code) throw new ApiError("invalid_parameter", "The callback has no code; start again with POST /v1/accounts/connect");
  let tokens: Awaited<ReturnType<typeof oauth.exchangeCode>>;
  let identity: Awaited<ReturnType<typeof oauth.me>>;
  try {
    tokens = await oauth.exchangeCode({ code: callback.code, verifier: secretBox.open(request.code_verifier), redirectUri: request.redirect_uri });
    identity = await oauth.me(tokens.accessToken);
  } catch (error) {
    if (error instanceof XGrantRefused)
      throw new ApiError("invalid_parameter", `X refused the code: "${error.message}"; start again with POST /v1/accounts/connect`);
    throw new ApiError("upstream_unavailable", `X could not be reached to finish the connection: "${(error as Error).message}"`);
  }
  const now = new Date(clock.now());
  const stored = {
    accessToken: secretBox.seal(tokens.accessToken),
    accessExpiresAt: new Date(now.getTime() + tokens.expiresIn * 1000),
    refreshToken: tokens.refreshToken === undefined ? undefined : secretBox.seal(tokens.refreshToken),
    scopes: tokens.scopes,
  };
  return adoptXAccount(sql, request.user_id, identity, (tx) => saveConnection(tx, identity.id, stored, now));
}

/**
 * Makes the X account `identity` one of user `userId`'s accounts (its profile refreshed when it
 * is already theirs, else linked to their main account) and stores its credential with `save`, in
 * one transaction. An X account another user holds is refused (409 x_account_in_use).
 */
export async function adoptXAccount(sql: Sql, userId: number, identity: XIdentity, save: (tx: Queryable) => Promise<void>): Promise<ConnectedAccount> {
  const profile = { username: identity.username, name: identity.name, avatarUrl: identity.avatarUrl };
  const adopt = async (): Promise<ConnectedAccount> => {
    const owner = await accountOwner(sql, identity.id);
    if (owner && owner.user_id !== userId) {
      throw new ApiError("x_account_in_use", `The X account @${identity.username} is connected to another user of this server`);
    }
    await sql.begin(async (tx) => {
      if (owner) await updateAccountProfile(tx, identity.id, profile);
      else await linkAccountIn(tx, userId, { id: identity.id, ...profile });
      await save(tx);
    });
    return { account_id: identity.id, username: identity.username, relation: owner?.is_main ? "main" : "linked", created: !owner };
  };
  try {
    return await adopt();
  } catch (error) {
    // Two callbacks for one new X account at once: the second to insert it lost the race, and
    // looks again (its own user's account now, or another user's: 409).
    if (isUniqueViolation(error)) return adopt();
    throw error;
  }
}
