/**
 * Storing an account's OAuth 1.0a access token and secret (docs/x.md, "OAuth 1.0a tokens"): an
 * operator who holds them from their X app (they are not explicitly expired: X's
 * fundamentals/authentication/faq.mdx) stores them instead of connecting through X's consent
 * screen. They are checked first with `GET /2/users/me` signed with them (`verify`), which says
 * which X account they act as; that account becomes one of the user's accounts as a connection
 * through the consent screen makes it (connect_finish.ts), and the token and secret are stored
 * sealed. Neither is ever logged nor answered.
 */
import type { Services } from "../context.ts";
import { ApiError } from "../errors.ts";
import { NetworkUpstreamError } from "../network/network_errors.ts";
import type { XIdentity } from "../ports/x_oauth.ts";
import { adoptXAccount, type ConnectedAccount } from "./connect_finish.ts";
import { saveOAuth1Connection } from "./x_connections_queries.ts";

/** An OAuth 1.0a access token and its secret. */
export interface OAuth1Token {
  token: string;
  secret: string;
}

/** Checks `token` with X (`GET /2/users/me` signed with it) and stores it for user `userId`'s account it acts as. */
export async function storeXOAuth1Token(
  services: Services,
  input: { userId: number } & OAuth1Token,
  verify: (token: OAuth1Token) => Promise<XIdentity>,
): Promise<ConnectedAccount> {
  const { sql, clock, secretBox } = services;
  if (!input.token || !input.secret) throw new ApiError("invalid_parameter", "Both the OAuth 1.0a access token and its secret are required");
  let identity: XIdentity;
  try {
    identity = await verify({ token: input.token, secret: input.secret });
  } catch (error) {
    if (error instanceof NetworkUpstreamError && error.status === 401) {
      throw new ApiError(
        "invalid_parameter",
        "X refused the OAuth 1.0a token: check the access token and secret and the app's X_CONSUMER_KEY and X_CONSUMER_SECRET",
      );
    }
    throw new ApiError("upstream_unavailable", `X could not be reached to check the OAuth 1.0a token: "${(error as Error).message}"`);
  }
  const sealed = { token: secretBox.seal(input.token), secret: secretBox.seal(input.secret) };
  return adoptXAccount(sql, input.userId, identity, (tx) => saveOAuth1Connection(tx, identity.id, sealed, new Date(clock.now())));
}
