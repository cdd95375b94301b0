/**
 * X's OAuth 2.0 Authorization Code flow with PKCE, as the connect flow and the token refresher
 * see it (docs/x.md; X's developer documentation, fundamentals/authentication/oauth-2-0/
 * authorization-code.mdx and user-access-token.mdx). The adapter (adapters/x/x_oauth_client.ts)
 * talks to X's token endpoint; tests point it at the fake X server.
 */

/** What X's token endpoint answers. */
export interface XTokens {
  accessToken: string;
  /** Present when `offline.access` was granted; X rotates it at every refresh. */
  refreshToken?: string;
  /** Seconds the access token lives (X: two hours). */
  expiresIn: number;
  /** The scopes granted, which may be fewer than asked. */
  scopes: string[];
}

/** The X user a token acts as (`GET /2/users/me`). */
export interface XIdentity {
  id: string;
  username: string;
  name: string;
  avatarUrl: string;
}

/** X refused a grant for good (`invalid_grant`, a revoked app): the account must be connected again. */
export class XGrantRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "XGrantRefused";
  }
}

/** The OAuth client of the operator's X app. */
export interface XOAuth {
  /** Where the user approves: `state` and the S256 `challenge` bind the answer to this request. */
  authorizeUrl(params: { state: string; challenge: string; redirectUri: string; scopes: readonly string[] }): string;
  /** Trades an authorization code (valid about 30 s) for tokens. */
  exchangeCode(params: { code: string; verifier: string; redirectUri: string }): Promise<XTokens>;
  /** Trades a refresh token for new tokens; XGrantRefused when X will never accept it. */
  refresh(refreshToken: string): Promise<XTokens>;
  /** The user an access token acts as. */
  me(accessToken: string): Promise<XIdentity>;
}
