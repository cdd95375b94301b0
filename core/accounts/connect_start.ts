/**
 * Starting to connect an X account (docs/x.md, "Connecting accounts"): a one-time `state` and a
 * PKCE verifier are stored for the key's user for 10 minutes, and the answer is the URL of X's
 * consent screen. X sends the browser back to the callback with a code, which finish_connect.ts
 * trades for the account's tokens.
 */
import type { KeyContext, Services } from "../context.ts";
import { ApiError } from "../errors.ts";
import { connectState, pkcePair } from "./pkce.ts";
import { insertConnectRequest } from "./x_connections_queries.ts";
import { X_SCOPES } from "./x_scopes.ts";

/** How long a started connection may be finished. */
export const CONNECT_REQUEST_MS = 10 * 60 * 1000;

/** The OAuth client and callback, or `503 x_oauth_not_configured` saying what is missing. */
export function xConnectOf(ctx: Pick<KeyContext, "services">) {
  const connect = ctx.services.xConnect;
  if (!connect) {
    throw new ApiError(
      "x_oauth_not_configured",
      "Connecting X accounts needs the operator's X app: set X_CLIENT_ID (and X_CLIENT_SECRET for a confidential client) and PUBLIC_URL or X_OAUTH_CALLBACK_URL",
    );
  }
  return connect;
}

/** Stores a connection request for the key's user; answers where to send the user. */
export async function startConnect(ctx: KeyContext) {
  return { data: await startConnectFor(ctx.services, ctx.principal.userId) };
}

/** Stores a connection request for user `userId` (the key's user, or the CLI's `--user`); answers where to send them. */
export async function startConnectFor(services: Services, userId: number) {
  const connect = xConnectOf({ services });
  const now = new Date(services.clock.now());
  const state = connectState();
  const { verifier, challenge } = pkcePair();
  const expiresAt = new Date(now.getTime() + CONNECT_REQUEST_MS);
  await insertConnectRequest(services.sql, {
    state,
    userId,
    codeVerifier: services.secretBox.seal(verifier),
    redirectUri: connect.callbackUrl,
    now,
    expiresAt,
  });
  const authorizeUrl = connect.oauth.authorizeUrl({ state, challenge, redirectUri: connect.callbackUrl, scopes: X_SCOPES });
  return { authorize_url: authorizeUrl, state, callback_url: connect.callbackUrl, scopes: [...X_SCOPES], expires_at: expiresAt.toISOString() };
}
