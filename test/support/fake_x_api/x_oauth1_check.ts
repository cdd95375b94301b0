/**
 * The fake X server's check of OAuth 1.0a signed requests (X's developer documentation:
 * fundamentals/authentication/oauth-1-0a/authorizing-a-request.mdx): the `Authorization: OAuth`
 * header's consumer key must be the app's, its token one the fake knows, and its signature the one
 * the same library (oauth-1.0a, through adapters/x/x_api/x_oauth1.ts) computes from the request
 * with the app's secret and the token's secret.
 */
import { oauth1Signer, signedPartsOf, type XConsumer } from "../../../adapters/x/x_api/x_oauth1.ts";

/** The app and the OAuth 1.0a tokens the fake knows. */
export interface FakeXOAuth1 {
  consumer: XConsumer;
  /** Access token -> its secret and the X user it acts as. */
  tokens: Record<string, { secret: string; userId: string }>;
}

/** The X user a signed request acts as, or undefined when the header is not a valid signature of a known token. */
export function oauth1UserOf(known: FakeXOAuth1 | undefined, authorization: string, method: string, url: URL): string | undefined {
  if (!known || !authorization.startsWith("OAuth ")) return undefined;
  const params: Record<string, string> = {};
  for (const [, name, value] of authorization.slice(6).matchAll(/([a-z_]+)="([^"]*)"/g)) params[name] = decodeURIComponent(value);
  const token = known.tokens[params.oauth_token ?? ""];
  if (!token || params.oauth_consumer_key !== known.consumer.key || params.oauth_signature_method !== "HMAC-SHA1") return undefined;
  const { oauth_signature: signature, ...signed } = params;
  const expected = oauth1Signer(known.consumer).getSignature({ method, ...signedPartsOf(url) }, token.secret, signed as any);
  return signature === expected ? token.userId : undefined;
}
