/**
 * OAuth 1.0a user-context signing for X API v2 requests (X's developer documentation:
 * fundamentals/authentication/oauth-1-0a/authorizing-a-request.mdx and creating-a-signature.mdx).
 * The app's API key and secret (the consumer) and an account's access token and secret sign each
 * request with HMAC-SHA1 into an `Authorization: OAuth ...` header; the signature covers the
 * method, the URL without its query, the query parameters and the `oauth_*` values. A JSON body
 * is not a form body, so it is not signed (RFC 5849 section 3.4.1.3). The signing itself is the
 * `oauth-1.0a` library's; this file only feeds it.
 */
import { createHmac } from "node:crypto";
import OAuthModule from "oauth-1.0a";

// oauth-1.0a is CommonJS; under ESM its constructor arrives as the module's default.
const OAuth = (OAuthModule as unknown as { default?: typeof OAuthModule }).default ?? OAuthModule;

/** The X app's API key and secret (X_CONSUMER_KEY, X_CONSUMER_SECRET). */
export interface XConsumer {
  key: string;
  secret: string;
}

/** An account's OAuth 1.0a access token and secret (they do not expire). */
export interface XOAuth1Token {
  token: string;
  secret: string;
}

/** The signer of `consumer`, as X wants it: HMAC-SHA1, version 1.0 (authorizing-a-request.mdx, "Collecting parameters"). */
export function oauth1Signer(consumer: XConsumer): InstanceType<typeof OAuth> {
  return new OAuth({
    consumer: { key: consumer.key, secret: consumer.secret },
    signature_method: "HMAC-SHA1",
    hash_function: (base, key) => createHmac("sha1", key).update(base).digest("base64"),
  });
}

/** What the signature covers of `url`: the URL without its query, and the query's decoded parameters. */
export function signedPartsOf(url: URL): { url: string; data: Record<string, string> } {
  return { url: `${url.origin}${url.pathname}`, data: Object.fromEntries(url.searchParams) };
}

/** The `Authorization` header of one request signed as `token`. */
export function oauth1Authorization(consumer: XConsumer, token: XOAuth1Token, method: string, url: URL): string {
  const signer = oauth1Signer(consumer);
  const signed = signer.authorize({ method, ...signedPartsOf(url) }, { key: token.token, secret: token.secret });
  return signer.toHeader(signed).Authorization;
}
