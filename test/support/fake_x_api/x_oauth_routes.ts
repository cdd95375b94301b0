/**
 * X's OAuth 2.0 Authorization Code flow with PKCE in the fake X server, behaving like X where it
 * matters (X's developer documentation: fundamentals/authentication/oauth-2-0/
 * authorization-code.mdx and user-access-token.mdx): the consent screen `GET /i/oauth2/authorize`
 * approves at once as the account a test chose and redirects to `redirect_uri` with `state` and a
 * code; the code lives 30 seconds and is traded once at `POST /2/oauth2/token` with the PKCE
 * verifier (S256) and the same `redirect_uri`; access tokens live two hours; refresh tokens are
 * issued with `offline.access`, rotate at every refresh, and a used or revoked one is
 * `400 invalid_grant`. A confidential client authenticates with HTTP Basic, a public one sends
 * `client_id`. Times are the fake's clock, so a test moves time past an access token's life.
 */
import { createHash, randomBytes } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { Clock } from "../../../core/clock.ts";
import type { XAnswer } from "./x_problems.ts";

/** The operator's X app as the fake knows it. */
export interface FakeXApp {
  clientId: string;
  /** Set: a confidential client (HTTP Basic); absent: a public client. */
  clientSecret?: string;
  /** How long access tokens live, in seconds (default X's two hours; the runnable fake shortens it to show refreshes). */
  accessSeconds?: number;
  /**
   * A person's consent screen (the runnable fake, test/support/fake_x_api/serve_fake_x.ts): with no
   * approver chosen by a test, the screen answers this page, whose links approve as one account.
   */
  consentPage?: (authorizeUrl: URL) => XAnswer;
}

/** What a route answers: a JSON answer, or a redirect. */
export type OAuthAnswer = XAnswer | { redirect: string };

/** The fake's authorisation server. */
export interface FakeXOAuth {
  /** Who approves the next consent screens (an X user id), or `deny` to decline them. */
  approveAs(userId: string | "deny"): void;
  /** The X user a live access token acts as (undefined: unknown or expired). */
  userOf(accessToken: string): string | undefined;
  /** Revokes every token of `userId` (the user removed the app): its access tokens answer 401 and refreshes invalid_grant. */
  revoke(userId: string): void;
  /** Trades so far, by grant type. */
  trades: { authorization_code: number; refresh_token: number };
  /** Handles the OAuth routes; undefined for any other path. */
  handle(method: string, url: URL, headers: IncomingHttpHeaders, rawBody: string): OAuthAnswer | undefined;
}

/** Access tokens live two hours (authorization-code.mdx, "How long will my credentials stay valid?"). */
const ACCESS_SECONDS = 2 * 60 * 60;
/** An authorization code must be traded within 30 seconds (authorization-code.mdx, "Authorization code"). */
const CODE_MS = 30_000;

/** Creates the fake authorisation server for `app`. */
export function createFakeXOAuth(app: FakeXApp, clock: Clock): FakeXOAuth {
  let approver: string | "deny" | undefined;
  const codes = new Map<string, { challenge: string; redirectUri: string; userId: string; scopes: string[]; issuedAt: number; used: boolean }>();
  const access = new Map<string, { userId: string; expiresAt: number }>();
  const refresh = new Map<string, { userId: string; scopes: string[]; used: boolean; revoked: boolean }>();
  const trades = { authorization_code: 0, refresh_token: 0 };

  const problem = (status: number, error: string, description: string): XAnswer => ({ status, body: { error, error_description: description } });
  const issue = (userId: string, scopes: string[]) => {
    const accessToken = `xat-${randomBytes(12).toString("hex")}`;
    const seconds = app.accessSeconds ?? ACCESS_SECONDS;
    access.set(accessToken, { userId, expiresAt: clock.now() + seconds * 1000 });
    const body: Record<string, unknown> = { token_type: "bearer", expires_in: seconds, access_token: accessToken, scope: scopes.join(" ") };
    if (scopes.includes("offline.access")) {
      const refreshToken = `xrt-${randomBytes(12).toString("hex")}`;
      refresh.set(refreshToken, { userId, scopes, used: false, revoked: false });
      body.refresh_token = refreshToken;
    }
    return { status: 200, body };
  };
  /** The client's authentication: HTTP Basic for a confidential client, `client_id` in the form for a public one. */
  const clientOk = (headers: IncomingHttpHeaders, form: URLSearchParams) => {
    const basic = /^Basic (.+)$/.exec(headers.authorization ?? "")?.[1];
    if (app.clientSecret) return basic === Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64");
    return form.get("client_id") === app.clientId;
  };

  return {
    approveAs: (userId) => void (approver = userId),
    userOf(token) {
      const found = access.get(token);
      return found && found.expiresAt > clock.now() ? found.userId : undefined;
    },
    revoke(userId) {
      for (const token of refresh.values()) if (token.userId === userId) token.revoked = true;
      for (const [token, grant] of access) if (grant.userId === userId) access.delete(token);
    },
    trades,
    handle(method, url, headers, rawBody) {
      if (method === "GET" && url.pathname === "/i/oauth2/authorize") {
        const query = url.searchParams;
        const redirectUri = query.get("redirect_uri");
        if (query.get("client_id") !== app.clientId || !redirectUri) return problem(400, "invalid_request", "Unknown client or no redirect_uri");
        if (query.get("response_type") !== "code" || !query.get("state") || !query.get("code_challenge") || query.get("code_challenge_method") !== "S256") {
          return problem(400, "invalid_request", "response_type=code, state, code_challenge and code_challenge_method=S256 are required");
        }
        const back = new URL(redirectUri);
        back.searchParams.set("state", query.get("state") ?? "");
        // The runnable fake's person picks on the page; its links come back with `approve_as`.
        const chosen = approver ?? (app.consentPage ? (query.get("approve_as") ?? undefined) : undefined);
        if (chosen === undefined && app.consentPage) return app.consentPage(url);
        if (chosen === undefined || chosen === "deny") {
          back.searchParams.set("error", "access_denied");
          return { redirect: back.toString() };
        }
        const code = `code-${randomBytes(12).toString("hex")}`;
        const scopes = (query.get("scope") ?? "").split(" ").filter(Boolean);
        codes.set(code, { challenge: query.get("code_challenge") ?? "", redirectUri, userId: chosen, scopes, issuedAt: clock.now(), used: false });
        back.searchParams.set("code", code);
        return { redirect: back.toString() };
      }
      if (method === "POST" && url.pathname === "/2/oauth2/token") {
        if (!(headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")) return problem(400, "invalid_request", "The body must be a form");
        const form = new URLSearchParams(rawBody);
        if (!clientOk(headers, form)) return problem(401, "invalid_client", "Client authentication failed");
        const grant = form.get("grant_type");
        if (grant === "authorization_code") {
          const code = codes.get(form.get("code") ?? "");
          if (!code || code.used || clock.now() - code.issuedAt > CODE_MS)
            return problem(400, "invalid_grant", "Value passed for the authorization code was invalid.");
          code.used = true;
          const verifier = form.get("code_verifier") ?? "";
          if (createHash("sha256").update(verifier).digest("base64url") !== code.challenge || form.get("redirect_uri") !== code.redirectUri) {
            return problem(400, "invalid_request", "The code_verifier or redirect_uri does not match the authorization request");
          }
          trades.authorization_code += 1;
          return issue(code.userId, code.scopes);
        }
        if (grant === "refresh_token") {
          const token = refresh.get(form.get("refresh_token") ?? "");
          if (!token || token.used || token.revoked) return problem(400, "invalid_grant", "Value passed for the token was invalid.");
          token.used = true;
          trades.refresh_token += 1;
          return issue(token.userId, token.scopes);
        }
        return problem(400, "unsupported_grant_type", `grant_type "${grant}" is not supported`);
      }
      return undefined;
    },
  };
}
