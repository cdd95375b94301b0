/**
 * The X OAuth 2.0 client of the operator's X app (core/ports/x_oauth.ts), over fetch. Facts from
 * X's developer documentation (fundamentals/authentication/oauth-2-0/user-access-token.mdx):
 * the consent screen is `https://x.com/i/oauth2/authorize`; codes and refresh tokens are traded
 * at `POST https://api.x.com/2/oauth2/token` as `application/x-www-form-urlencoded`; a
 * confidential client authenticates with HTTP Basic (client id and secret), a public client sends
 * `client_id` in the body; the answer carries `access_token`, `expires_in`, `scope` and, with
 * `offline.access`, `refresh_token`.
 */
import type { XIdentity, XOAuth, XTokens } from "../../core/ports/x_oauth.ts";
import { XGrantRefused } from "../../core/ports/x_oauth.ts";

/** The operator's X app and where X is. */
export interface XOAuthSettings {
  clientId: string;
  /** Absent: a public client (PKCE alone). */
  clientSecret?: string;
  /** The consent screen (default `https://x.com/i/oauth2/authorize`; tests point it at the fake). */
  authorizeUrl?: string;
  /** The API root (`X_API_BASE_URL`, default `https://api.x.com`): the token endpoint and `/2/users/me`. */
  apiBaseUrl?: string;
  /** Bound on one call (default 10 s; X keeps a code about 30 s). */
  timeoutMs?: number;
}

/** OAuth error codes that mean the grant will never be accepted (RFC 6749 section 5.2). */
const REFUSED_FOR_GOOD = new Set(["invalid_grant", "invalid_client", "unauthorized_client", "invalid_request"]);

/** Creates the client. */
export function createXOAuthClient(settings: XOAuthSettings, fetcher: typeof fetch = fetch): XOAuth {
  const root = (settings.apiBaseUrl ?? "https://api.x.com").replace(/\/+$/, "").replace(/\/2$/, "");
  const timeoutMs = settings.timeoutMs ?? 10_000;

  async function token(form: Record<string, string>): Promise<XTokens> {
    const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" };
    const body = new URLSearchParams(form);
    if (settings.clientSecret) headers.Authorization = `Basic ${Buffer.from(`${settings.clientId}:${settings.clientSecret}`).toString("base64")}`;
    else body.set("client_id", settings.clientId);
    const response = await fetcher(`${root}/2/oauth2/token`, { method: "POST", headers, body, signal: AbortSignal.timeout(timeoutMs) });
    const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok) {
      const code = typeof answer.error === "string" ? answer.error : `status ${response.status}`;
      const detail = typeof answer.error_description === "string" ? `${code}: ${answer.error_description}` : code;
      if (response.status < 500 && REFUSED_FOR_GOOD.has(code)) throw new XGrantRefused(detail);
      throw new Error(`X's token endpoint answered ${response.status} (${detail})`);
    }
    if (typeof answer.access_token !== "string" || typeof answer.expires_in !== "number") {
      throw new Error("X's token endpoint answered without access_token or expires_in");
    }
    return {
      accessToken: answer.access_token,
      refreshToken: typeof answer.refresh_token === "string" ? answer.refresh_token : undefined,
      expiresIn: answer.expires_in,
      scopes: typeof answer.scope === "string" ? answer.scope.split(" ").filter(Boolean) : [],
    };
  }

  return {
    authorizeUrl({ state, challenge, redirectUri, scopes }) {
      const url = new URL(settings.authorizeUrl ?? "https://x.com/i/oauth2/authorize");
      url.searchParams.set("response_type", "code");
      url.searchParams.set("client_id", settings.clientId);
      url.searchParams.set("redirect_uri", redirectUri);
      url.searchParams.set("scope", scopes.join(" "));
      url.searchParams.set("state", state);
      url.searchParams.set("code_challenge", challenge);
      url.searchParams.set("code_challenge_method", "S256");
      return url.toString();
    },
    exchangeCode: ({ code, verifier, redirectUri }) => token({ grant_type: "authorization_code", code, redirect_uri: redirectUri, code_verifier: verifier }),
    refresh: (refreshToken) => token({ grant_type: "refresh_token", refresh_token: refreshToken }),
    async me(accessToken): Promise<XIdentity> {
      const response = await fetcher(`${root}/2/users/me?user.fields=profile_image_url`, {
        headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/json" },
        signal: AbortSignal.timeout(timeoutMs),
      });
      const answer = (await response.json().catch(() => ({}))) as { data?: { id?: string; username?: string; name?: string; profile_image_url?: string } };
      if (!response.ok || !answer.data?.id || !answer.data.username) throw new Error(`X's /2/users/me answered ${response.status}`);
      return {
        id: answer.data.id,
        username: answer.data.username,
        name: answer.data.name ?? answer.data.username,
        avatarUrl: answer.data.profile_image_url ?? `https://x.com/${answer.data.username}/photo`,
      };
    },
  };
}
