/**
 * `threadline x check [--json]`: the doctor (docs/x.md, "Checking the X setup"). With the
 * configured X credentials and without posting anything, it runs core/accounts/x_check.ts and
 * prints a table (or the report as JSON). Exit code 0: all healthy; 1: something needs attention
 * (the app token, or an account: reauth_required, a missing scope, a token X refused); 2: X is
 * not configured (Threadline runs on the simulated network).
 */
import type { AnyRouter } from "@trpc/server";
import { appRouter } from "../../routers/index.ts";
import type { Services } from "../../core/context.ts";
import type { XOAuth } from "../../core/ports/x_oauth.ts";
import type { XProbe, XRateWindow } from "../../core/ports/x_probe.ts";
import { checkX, type XCheckReport } from "../../core/accounts/x_check.ts";
import { openRuntime } from "../runtime/open_runtime.ts";
import { configFromEnv } from "../runtime/config.ts";
import { createXOAuthClient } from "../x/x_oauth_client.ts";
import { createXProbe } from "../x/x_api/x_probe.ts";
import type { Args } from "./args.ts";
import { type CommandIo, consoleIo } from "./command_io.ts";

/** The exit codes. */
export const X_CHECK_EXIT = { healthy: 0, attention: 1, notConfigured: 2 } as const;

/** Runs the command; answers the exit code. */
export async function xCheckCommand(args: Args, io: CommandIo = consoleIo): Promise<number> {
  const config = configFromEnv();
  const settings = { X_API_BASE_URL: config.xApiBaseUrl, X_BEARER_TOKEN: config.xBearerToken, X_CLIENT_ID: config.xClientId };
  const missing = Object.entries(settings)
    .filter(([, value]) => !value)
    .map(([name]) => name);
  if (missing.length > 0 || !config.xApiBaseUrl || !config.xBearerToken || !config.xClientId) {
    const message = `X is not configured (Threadline runs on the simulated network): set ${missing.join(", ")} (README, "Connect your X account")`;
    if (args.flags.json) io.out(JSON.stringify({ healthy: false, configured: false, missing }, null, 2));
    else io.info(message);
    return X_CHECK_EXIT.notConfigured;
  }
  const runtime = await openRuntime(appRouter as AnyRouter, config);
  try {
    const { clock } = runtime.services;
    const oauth = createXOAuthClient({
      clientId: config.xClientId,
      clientSecret: config.xClientSecret,
      apiBaseUrl: config.xApiBaseUrl,
      timeoutMs: config.xApiTimeoutMs,
    });
    const probe = createXProbe({ baseUrl: config.xApiBaseUrl, bearerToken: config.xBearerToken, timeoutMs: config.xApiTimeoutMs, clock });
    return await runXCheck(runtime.services, { oauth, probe }, { json: args.flags.json === true }, io);
  } finally {
    await runtime.close();
  }
}

/** Checks with `services`' database and the X app's `oauth` and `probe`; prints the report; answers the exit code. */
export async function runXCheck(services: Services, x: { oauth: XOAuth; probe: XProbe }, options: { json: boolean }, io: CommandIo): Promise<number> {
  const report = await checkX({ sql: services.sql, clock: services.clock, secretBox: services.secretBox, oauth: x.oauth, probe: x.probe });
  io.out(options.json ? JSON.stringify({ configured: true, ...report }, null, 2) : formatReport(report, services.clock.now()));
  return report.healthy ? X_CHECK_EXIT.healthy : X_CHECK_EXIT.attention;
}

/** The report as a table a person reads. */
export function formatReport(report: XCheckReport, now: number): string {
  const lines: string[] = [];
  const app = report.app;
  lines.push(`X app (app-only bearer token): ${app.healthy ? "ok" : `needs attention: ${app.problem}`}${app.window ? `; ${windowText(app.window, now)}` : ""}`);
  lines.push("");
  if (report.accounts.length === 0) {
    lines.push("No connected accounts: connect one with threadline accounts connect --user <id>");
  } else {
    const rows = [["ACCOUNT", "X USER ID", "USER", "RELATION", "STATUS", "ACCESS TOKEN", "SCOPES", "RATE WINDOW"]];
    for (const account of report.accounts) {
      rows.push([
        `@${account.username}`,
        account.account_id,
        String(account.user_id),
        account.relation,
        account.healthy ? "healthy" : account.connection === "reauth_required" ? "reauth required" : "needs attention",
        account.access_expires_at === null
          ? "never expires (OAuth 1.0a)"
          : `${account.refreshed ? "refreshed, " : ""}expires ${durationText(Date.parse(account.access_expires_at) - now)}`,
        account.missing_scopes.length === 0 ? `all ${account.scopes.length}` : `missing ${account.missing_scopes.join(" ")}`,
        account.window ? windowText(account.window, now) : "-",
      ]);
    }
    const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
    for (const [index, row] of rows.entries()) {
      lines.push(
        row
          .map((cell, column) => cell.padEnd(widths[column]))
          .join("  ")
          .trimEnd(),
      );
      const account = index > 0 ? report.accounts[index - 1] : undefined;
      for (const problem of account?.problems ?? []) lines.push(`    - ${problem}`);
    }
  }
  lines.push("");
  const attention = report.accounts.filter((account) => !account.healthy).length + (report.app.healthy ? 0 : 1);
  lines.push(report.healthy ? "All healthy" : `${attention} ${attention === 1 ? "thing needs" : "things need"} attention`);
  return lines.join("\n");
}

function windowText(window: XRateWindow, now: number): string {
  return `${window.endpoint} ${window.remaining}/${window.limit} left, resets ${durationText(Date.parse(window.reset_at) - now)}`;
}

/** `in 1h 59m`, `in 4m`, `2h 3m ago`. */
function durationText(ms: number): string {
  const minutes = Math.round(Math.abs(ms) / 60_000);
  const text = minutes >= 60 ? `${Math.floor(minutes / 60)}h ${minutes % 60}m` : `${minutes}m`;
  return ms >= 0 ? `in ${text}` : `${text} ago`;
}
