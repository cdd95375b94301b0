/**
 * The fake X server as a process, so a person can try the real X adapter without X
 * (docs/x.md, "Try it without X"): `npm run fake-x` listens on loopback, serves the
 * simulated world in X API v2's shapes with X's OAuth 2.0 flow for one app, shows a consent
 * page listing the world's accounts, and prints the environment a Threadline server needs
 * to use it. Access tokens live `FAKE_X_ACCESS_SECONDS` (default 120) instead of X's two
 * hours, so refreshes are seen within minutes.
 *
 * @example
 * // npm run fake-x                 (prints X_API_BASE_URL=..., X_CLIENT_ID=..., ...)
 * // env $(npm run -s fake-x -- --env-only) npm start
 */
import { ANCHOR_ACCOUNTS } from "../../../adapters/x/simulated/anchors.ts";
import { escapeHtml } from "../../../core/text/escape_html.ts";
import { startFakeXServer } from "./fake_x_server.ts";
import type { XAnswer } from "./x_problems.ts";

const port = Number(process.env.FAKE_X_PORT ?? 0);
const accessSeconds = Number(process.env.FAKE_X_ACCESS_SECONDS ?? 120);
if (!Number.isInteger(port) || port < 0) throw new Error(`FAKE_X_PORT must be a port number, got "${process.env.FAKE_X_PORT}"`);
if (!Number.isInteger(accessSeconds) || accessSeconds < 1) {
  throw new Error(`FAKE_X_ACCESS_SECONDS must be a whole number of seconds, got "${process.env.FAKE_X_ACCESS_SECONDS}"`);
}

const app = { clientId: "fake-x-client", clientSecret: "fake-x-secret", accessSeconds, consentPage };
const fake = await startFakeXServer({ app, port, bearerToken: "fake-x-bearer-token" });
const env = {
  X_API_BASE_URL: fake.url,
  X_BEARER_TOKEN: fake.bearerToken,
  X_CLIENT_ID: app.clientId,
  X_CLIENT_SECRET: app.clientSecret,
  X_AUTHORIZE_URL: `${fake.url}/i/oauth2/authorize`,
};
const lines = Object.entries(env).map(([name, value]) => `${name}=${value}`);
if (process.argv.includes("--env-only")) {
  console.log(lines.join(" "));
} else {
  console.log(
    `Fake X listening on ${fake.url} (access tokens live ${accessSeconds} s). Start Threadline with:\n\n  ${lines.join(" \\\n  ")} \\\n  PUBLIC_URL=http://127.0.0.1:8787 npm start\n`,
  );
}
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void fake.close().then(() => process.exit(0)));

/** X's consent screen for a person: one link per account of the simulated world, and a refusal. */
function consentPage(authorizeUrl: URL): XAnswer {
  const choice = (value: string) => {
    const next = new URL(authorizeUrl);
    next.searchParams.set("approve_as", value);
    return escapeHtml(`${next.pathname}${next.search}`);
  };
  const accounts = ANCHOR_ACCOUNTS.map(
    (account) => `<li><a href="${choice(account.id)}">Authorize as @${escapeHtml(account.username)}</a> (${escapeHtml(account.name)})</li>`,
  ).join("\n");
  const body = `<!doctype html><meta charset="utf-8"><title>Fake X: authorize app</title>
<h1>Fake X: authorize "${escapeHtml(authorizeUrl.searchParams.get("client_id") ?? "")}"</h1>
<p>Scopes: ${escapeHtml(authorizeUrl.searchParams.get("scope") ?? "")}</p>
<ul>${accounts}</ul>
<p><a href="${choice("deny")}">Cancel</a></p>`;
  return { status: 200, body, headers: { "Content-Type": "text/html; charset=utf-8" } };
}
