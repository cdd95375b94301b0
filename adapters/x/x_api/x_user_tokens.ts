/**
 * User-context auth for writes. X's app-only bearer token reads public data but cannot
 * post, repost, delete or send DMs (X answers 403 "Unsupported Authentication"), and a
 * user token acts as exactly one account: X has no "post as" parameter. So a write as
 * `authorId` needs that account's token. A single token (`X_USER_TOKEN`) is checked
 * once against `GET /2/users/me`, so a write for another account is refused instead of
 * landing under the wrong name; a lookup function serves several accounts.
 */
import { NetworkAuthLostError } from "../../../core/network/network_errors.ts";
import type { XActor, XApiClient } from "./x_api_client.ts";
import type { XOAuth1Token } from "./x_oauth1.ts";

/** An account's credential: an OAuth 2.0 user access token, or an OAuth 1.0a access token and secret. */
export type UserCredential = string | { oauth1: XOAuth1Token };

/** A user-context token, or how to find the credential of an account (undefined: none). */
export type UserTokenSource = string | ((userId: string) => UserCredential | undefined | Promise<UserCredential | undefined>);

/** Returns `actorFor(userId)`: `userId` with the token acting as it, or a NetworkAuthLostError saying why there is none. */
export function createUserTokens(client: XApiClient, source: UserTokenSource | undefined): (userId: string) => Promise<XActor> {
  let owner: Promise<string> | undefined;
  return async (userId) => {
    if (source === undefined) {
      throw new NetworkAuthLostError(
        userId,
        "Writing to X needs a user-context token (OAuth 2.0 user access token); only the app-only bearer token is configured",
      );
    }
    if (typeof source === "function") {
      const token = await source(userId);
      if (!token) throw new NetworkAuthLostError(userId, `No X user-context token is configured for user "${userId}"`);
      return typeof token === "string" ? { userId, accessToken: token } : { userId, oauth1: token.oauth1 };
    }
    owner ??= client
      .data<{ id: string }>({ path: "/2/users/me", actingAs: { userId: "me", accessToken: source }, subject: { resource: "user", ref: "me" } })
      .then(
        (body) => body.data.id,
        (error: unknown) => {
          // A failed check (X unreachable) is asked again on the next write.
          owner = undefined;
          throw error;
        },
      );
    const ownerId = await owner;
    if (ownerId !== userId) throw new NetworkAuthLostError(userId, `The X user token acts as user "${ownerId}", not as user "${userId}"`);
    return { userId, accessToken: source };
  };
}
