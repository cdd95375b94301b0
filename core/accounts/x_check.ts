/**
 * The doctor for operators (`threadline x check`; docs/x.md, "Checking the X setup"): with the
 * configured credentials and without posting anything, it reads once with the app-only bearer
 * token and, for each connected account, checks that its token works (refreshed first when due,
 * as any X call would: x_tokens.ts), its granted scopes against those Threadline asks for
 * (x_scopes.ts), when its access token expires, and the rate windows X reports in its answers.
 * Nothing here changes an account: a token X refuses is reported, not marked.
 */
import type { XProbe, XProbeAnswer, XRateWindow } from "../ports/x_probe.ts";
import { type AccountCredential, type AccountTokenDeps, accountTokenFor } from "./x_tokens.ts";
import { type ConnectedAccountRow, connectedAccounts, connectionOf } from "./x_connections_queries.ts";
import { X_SCOPES } from "./x_scopes.ts";

/** What the check needs: what finding a token needs, and the probes. */
export interface XCheckDeps extends AccountTokenDeps {
  probe: XProbe;
}

/** The app-only bearer token's check. */
export interface AppCheck {
  healthy: boolean;
  /** X's status; 0 when X did not answer. */
  status: number;
  problem: string | null;
  window: XRateWindow | null;
}

/** One connected account's check; never a token. */
export interface AccountCheck {
  account_id: string;
  username: string;
  user_id: number;
  relation: "main" | "linked";
  healthy: boolean;
  /** What needs the operator's attention, in words; empty when healthy. */
  problems: string[];
  connection: "connected" | "reauth_required";
  scopes: string[];
  /** Scopes Threadline asks for that X did not grant. */
  missing_scopes: string[];
  /** Null for an OAuth 1.0a token, which does not expire. */
  access_expires_at: string | null;
  /** The access token was due and was refreshed by this check. */
  refreshed: boolean;
  /** A refresh token is stored (X granted `offline.access`). */
  can_refresh: boolean;
  /** `GET /2/users/me`'s window for this account, as X reported it. */
  window: XRateWindow | null;
}

/** The whole report: healthy when the app token and every account are. */
export interface XCheckReport {
  healthy: boolean;
  app: AppCheck;
  accounts: AccountCheck[];
}

/** Checks the app-only token and every connected account. */
export async function checkX(deps: XCheckDeps): Promise<XCheckReport> {
  const app = appCheck(await deps.probe.app());
  const accounts: AccountCheck[] = [];
  // One account after another: a check is a handful of calls, and X's windows are per user anyway.
  for (const row of await connectedAccounts(deps.sql)) accounts.push(await accountCheck(deps, row));
  return { healthy: app.healthy && accounts.every((account) => account.healthy), app, accounts };
}

function appCheck(answer: XProbeAnswer): AppCheck {
  const healthy = answer.status === 200;
  let problem: string | null = null;
  if (answer.status === 0) problem = `X could not be reached: ${answer.problem ?? "no answer"}`;
  else if (answer.status === 401) problem = "X refused the app-only bearer token (401): check X_BEARER_TOKEN";
  else if (!healthy) problem = `X answered ${answer.status} to the app-only read${answer.problem ? `: ${answer.problem}` : ""}`;
  return { healthy, status: answer.status, problem, window: answer.window ?? null };
}

async function accountCheck(deps: XCheckDeps, row: ConnectedAccountRow): Promise<AccountCheck> {
  const problems: string[] = [];
  let window: XRateWindow | null = null;
  let current = row;
  if (row.status === "reauth_required") {
    problems.push(`X refused its token for good (${row.reauth_reason ?? "refresh refused"}); connect it again`);
  } else {
    let token: AccountCredential | undefined;
    try {
      token = await accountTokenFor(deps, row.account_id);
    } catch (error) {
      // The refresh was refused (the account is now reauth_required) or X could not be reached.
      problems.push((error as Error).message);
    }
    const after = await connectionOf(deps.sql, row.account_id);
    if (after)
      current = { ...row, status: after.status, scopes: after.scopes, access_expires_at: after.access_expires_at, can_refresh: after.refresh_token !== null };
    if (token !== undefined) {
      const actor = typeof token === "string" ? { userId: row.account_id, accessToken: token } : { userId: row.account_id, oauth1: token.oauth1 };
      const answer = await deps.probe.me(actor);
      window = answer.window ?? null;
      if (answer.status === 200 && answer.user?.id !== row.account_id) {
        problems.push(`The token acts as X user "${answer.user?.id}", not as this account`);
      } else if (answer.status === 401) {
        problems.push("X refused the access token (401): the app was revoked or the token withdrawn; connect the account again");
      } else if (answer.status === 0) {
        problems.push(`X could not be reached: ${answer.problem ?? "no answer"}`);
      } else if (answer.status !== 200) {
        problems.push(`X answered ${answer.status} to GET /2/users/me${answer.problem ? `: ${answer.problem}` : ""}`);
      }
    }
  }
  const missing = X_SCOPES.filter((scope) => !current.scopes.includes(scope));
  if (missing.length > 0) problems.push(`X did not grant ${missing.map((scope) => `"${scope}"`).join(", ")}; connect the account again and approve them`);
  // An OAuth 1.0a token never expires (no access_expires_at) and needs no refresh token.
  if (current.status === "connected" && !current.can_refresh && current.access_expires_at) {
    problems.push(`No refresh token: the account needs connecting again when its access token expires (${current.access_expires_at.toISOString()})`);
  }
  return {
    account_id: row.account_id,
    username: row.username,
    user_id: row.user_id,
    relation: row.is_main ? "main" : "linked",
    healthy: problems.length === 0,
    problems,
    connection: current.status,
    scopes: current.scopes,
    missing_scopes: missing,
    access_expires_at: current.access_expires_at?.toISOString() ?? null,
    refreshed: current.access_expires_at?.getTime() !== row.access_expires_at?.getTime(),
    can_refresh: current.can_refresh,
    window,
  };
}
