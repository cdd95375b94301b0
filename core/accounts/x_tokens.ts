/**
 * The access token an X call acts with (docs/x.md, "Staying connected"). An access token lives
 * two hours; one that expires within 5 minutes is refreshed first. X rotates refresh tokens and
 * refuses a refresh token used twice (`invalid_grant`), so exactly one process refreshes an
 * account at a time: it takes the account's refresh lease (on the database's clock); the others
 * wait for the new token. A refresh X refuses for good marks the account `reauth_required`
 * and records `account.reauth_required` in the same transaction: its writes stop with that
 * reason until it is connected again.
 */
import type { Clock } from "../clock.ts";
import type { Sql } from "../db/sql.ts";
import { NetworkAuthLostError, NetworkUnavailableError } from "../network/network_errors.ts";
import type { SecretBox } from "../ports/secret_box.ts";
import { XGrantRefused, type XOAuth } from "../ports/x_oauth.ts";
import {
  connectionOf,
  expireAccessToken,
  markReauthRequired,
  releaseRefreshLease,
  saveRefreshedTokens,
  takeRefreshLease,
  usernameOf,
} from "./x_connections_queries.ts";
import { connectionView } from "./x_connection_view.ts";
import { recordEvent } from "../events/record_event.ts";

/** What finding a token needs. */
export interface AccountTokenDeps {
  sql: Sql;
  clock: Clock;
  secretBox: SecretBox;
  oauth: XOAuth;
}

/** What acts as an account: an OAuth 2.0 access token, or an OAuth 1.0a access token and its secret (signed with the app's API key). */
export type AccountCredential = string | { oauth1: { token: string; secret: string } };

/**
 * Forces a refresh of the account's access token before its next use: X refused it (a 401 on a
 * request acting as the account: revoked or expired early; `x-api/fundamentals/response-codes-and-errors.mdx`,
 * "401 Unauthorized"). A refresh X then refuses for good marks the account `reauth_required`.
 */
export async function forceTokenRefresh(deps: Pick<AccountTokenDeps, "sql" | "clock">, accountId: string): Promise<boolean> {
  return expireAccessToken(deps.sql, accountId, new Date(deps.clock.now()));
}

/** A token expiring within this is refreshed before use. */
export const REFRESH_AHEAD_MS = 5 * 60 * 1000;
/** How long a refresh may hold the lease: X's token call is bounded well inside it. */
const REFRESH_LEASE_SECONDS = 30;
/** How long a caller waits for another process's refresh, and how often it looks. */
const WAIT_MS = 15_000;
const LOOK_MS = 100;

/**
 * The credential acting as `accountId` (its X user id): its access token, or its OAuth 1.0a token
 * and secret as stored. Rejects with a NetworkAuthLostError when the account has no working
 * connection (the publisher and the DM sender pause the account until it is connected again), or NetworkUnavailableError when X
 * could not be reached to refresh.
 */
export async function accountTokenFor(deps: AccountTokenDeps, accountId: string): Promise<AccountCredential> {
  const deadline = deps.clock.now() + WAIT_MS;
  for (;;) {
    const row = await connectionOf(deps.sql, accountId);
    if (!row) throw new NetworkAuthLostError(accountId, `No X user-context token: the account ${accountId} is not connected (POST /v1/accounts/connect)`);
    if (row.status === "reauth_required") {
      throw new NetworkAuthLostError(
        accountId,
        `The X user-context token of account ${accountId} was refused; connect the account again (${row.reauth_reason ?? "refresh refused"})`,
      );
    }
    // OAuth 1.0a tokens are not explicitly expired (X's fundamentals/authentication/faq.mdx): never refreshed.
    if (row.kind === "oauth1") return { oauth1: { token: deps.secretBox.open(row.access_token), secret: deps.secretBox.open(row.token_secret!) } };
    const now = deps.clock.now();
    if (row.access_expires_at!.getTime() - now > REFRESH_AHEAD_MS) return deps.secretBox.open(row.access_token);
    const refreshed = await refreshOnce(deps, accountId);
    if (refreshed) return refreshed;
    // Another process holds the lease: its new token shows up in the row.
    if (deps.clock.now() >= deadline) throw new NetworkUnavailableError(`Refreshing the X token of account ${accountId} took too long`);
    await new Promise((resolve) => setTimeout(resolve, LOOK_MS));
  }
}

/** Refreshes the account's tokens under its lease; answers the new access token, or undefined when another holder has the lease. */
async function refreshOnce(deps: AccountTokenDeps, accountId: string): Promise<string | undefined> {
  const holder = crypto.randomUUID();
  const before = new Date(deps.clock.now() + REFRESH_AHEAD_MS);
  const row = await takeRefreshLease(deps.sql, accountId, holder, before, REFRESH_LEASE_SECONDS);
  if (!row) return undefined;
  if (!row.refresh_token) {
    await needsReconnect(deps, accountId, holder, "no refresh token (offline.access was not granted)");
    throw new NetworkAuthLostError(accountId, `The X user-context token of account ${accountId} expired and cannot be refreshed; connect the account again`);
  }
  try {
    const tokens = await deps.oauth.refresh(deps.secretBox.open(row.refresh_token));
    const now = new Date(deps.clock.now());
    await saveRefreshedTokens(
      deps.sql,
      accountId,
      holder,
      {
        accessToken: deps.secretBox.seal(tokens.accessToken),
        accessExpiresAt: new Date(now.getTime() + tokens.expiresIn * 1000),
        refreshToken: tokens.refreshToken === undefined ? undefined : deps.secretBox.seal(tokens.refreshToken),
        scopes: tokens.scopes.length > 0 ? tokens.scopes : row.scopes,
      },
      now,
    );
    return tokens.accessToken;
  } catch (error) {
    if (error instanceof XGrantRefused) {
      await needsReconnect(deps, accountId, holder, `X refused the refresh: ${error.message}`);
      throw new NetworkAuthLostError(accountId, `The X user-context token of account ${accountId} was refused (${error.message}); connect the account again`);
    }
    await releaseRefreshLease(deps.sql, accountId, holder);
    throw new NetworkUnavailableError(`X could not be reached to refresh the token of account ${accountId}: ${(error as Error).message}`);
  }
}

/** Marks the account `reauth_required` under the holder's lease and records `account.reauth_required`, together. */
async function needsReconnect(deps: AccountTokenDeps, accountId: string, holder: string, reason: string): Promise<void> {
  const now = new Date(deps.clock.now());
  await deps.sql.begin(async (tx) => {
    const row = await markReauthRequired(tx, accountId, holder, reason, now);
    if (!row) return;
    const data = { id: accountId, username: (await usernameOf(tx, accountId)) ?? null, x_connection: connectionView(row) };
    await recordEvent(tx, { accountId, type: "account.reauth_required", objectType: "account", objectId: accountId, data, now });
  });
}
