/**
 * The operator's X commands (docs/x.md, "Connecting from the command line" and "Checking the X
 * setup"): `threadline accounts connect` through its loopback callback, and `threadline x check`,
 * against the fake X server (test/support/fake_x_api/). The commands' pieces run in process on
 * the harness's database; the `threadline` command itself runs as a child process on an embedded
 * data directory, following X's authorize redirect without a browser.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startHarness, type Harness } from "./support/harness.ts";
import { startFakeXServer, type FakeXServer } from "./support/fake_x_api/fake_x_server.ts";
import type { SimulatedNetwork } from "../adapters/x/simulated/simulated_network.ts";
import { createXOAuthClient } from "../adapters/x/x_oauth_client.ts";
import { createXProbe } from "../adapters/x/x_api/x_probe.ts";
import { openConnectLoopback } from "../adapters/cli/connect_loopback.ts";
import { connectThroughLoopback } from "../adapters/cli/accounts_connect_command.ts";
import type { CommandIo } from "../adapters/cli/command_io.ts";
import { runXCheck } from "../adapters/cli/x_check_command.ts";
import { endpointOf } from "../adapters/x/x_api/x_api_client.ts";
import { connectionOf, saveConnection } from "../core/accounts/x_connections_queries.ts";
import { X_SCOPES } from "../core/accounts/x_scopes.ts";
import type { Services } from "../core/context.ts";
import { manualClock } from "./support/manual_clock.ts";
import { childEnv, pollUntil, runNode, startNode } from "./support/child_node.ts";

const APP = { clientId: "tl-cli-client", clientSecret: "tl-cli-secret" };
/** The server's callback; the CLI's loopback replaces it for its own connections. */
const SERVER_CALLBACK = "https://threadline.example/connect/x/callback";
/** What X's tokens and their sealed forms look like (the fake's `xat-`/`xrt-`, the secret box's `tl1.`). */
const TOKEN_SHAPES = /xat-|xrt-|tl1\./;

/** An io that keeps what a command wrote. */
function captureIo(): CommandIo & { text(): string } {
  const lines: string[] = [];
  return { out: (text) => void lines.push(text), info: (text) => void lines.push(text), text: () => lines.join("\n") };
}

/** Follows the consent URL as a browser would, approving as `approver`; answers the loopback URL X sent the browser to. */
async function consent(fake: FakeXServer, authorizeUrl: string, approver: string | "deny"): Promise<string> {
  fake.oauth!.approveAs(approver);
  const answer = await fetch(authorizeUrl, { redirect: "manual" });
  assert.equal(answer.status, 302, "X's consent screen redirects to the callback");
  return answer.headers.get("location")!;
}

const CONSENT_URL = /http:\/\/127\.0\.0\.1:\d+\/i\/oauth2\/authorize\S+/;

describe("accounts connect and x check, in process", () => {
  let harness: Harness;
  let fake: FakeXServer;
  let userId: number;

  before(async () => {
    harness = await startHarness({ config: { xClientId: APP.clientId, xClientSecret: APP.clientSecret, xOAuthCallbackUrl: SERVER_CALLBACK } });
    // X is the harness's own simulated world, so X's users are the demo world's people.
    fake = await startFakeXServer({ network: harness.services.network as SimulatedNetwork, app: APP });
    harness.services.xConnect = {
      oauth: createXOAuthClient({ ...APP, apiBaseUrl: fake.url, authorizeUrl: `${fake.url}/i/oauth2/authorize` }),
      callbackUrl: SERVER_CALLBACK,
    };
    const [row] = await harness.services.sql<{ user_id: number }[]>`select user_id::int as user_id from accounts where id = ${harness.world.accounts.main}`;
    userId = row.user_id;
  });
  after(async () => {
    await fake?.close();
    await harness?.close();
  });

  /** Runs the connect with a loopback on a free port; the browser's part is `browse`, given the consent URL. */
  async function connectWithLoopback(user: string, browse: (authorizeUrl: string, callbackUrl: string) => Promise<void>, timeoutMs = 10_000) {
    const loopback = await openConnectLoopback(0);
    const io = captureIo();
    try {
      const running = connectThroughLoopback(harness.services, loopback, { user, timeoutMs }, io).then(
        (connected) => ({ connected, error: undefined }),
        (error: Error) => ({ connected: undefined, error }),
      );
      const url = await pollUntil("the consent URL", () => CONSENT_URL.exec(io.text())?.[0], { timeoutMs: 10_000 });
      await browse(url, loopback.callbackUrl);
      return { ...(await running), io, callbackUrl: loopback.callbackUrl };
    } finally {
      await loopback.close();
    }
  }

  const checkWith = async (services: Services = harness.services, json = true) => {
    const io = captureIo();
    const probe = createXProbe({ baseUrl: fake.url, bearerToken: fake.bearerToken, clock: services.clock });
    const code = await runXCheck(services, { oauth: harness.services.xConnect!.oauth, probe }, { json }, io);
    return { code, text: io.text(), report: json ? JSON.parse(io.text()) : undefined };
  };

  test("accounts connect connects the approving X account through the loopback callback; the browser gets the server's page", async () => {
    let page = { status: 0, text: "" };
    const result = await connectWithLoopback(String(userId), async (url, callbackUrl) => {
      const consentUrl = new URL(url);
      assert.equal(consentUrl.searchParams.get("redirect_uri"), callbackUrl, "X is told the loopback, not the server's callback");
      assert.match(callbackUrl, /^http:\/\/127\.0\.0\.1:\d+\/connect\/x\/callback$/);
      const back = await consent(fake, url, harness.world.accounts.main);
      assert.ok(back.startsWith(`${callbackUrl}?`), "X sends the browser to the loopback");
      const answer = await fetch(back);
      page = { status: answer.status, text: await answer.text() };
    });
    assert.equal(result.error, undefined, String(result.error));
    assert.deepEqual(result.connected, { account_id: harness.world.accounts.main, username: harness.world.handles.main, relation: "main", created: false });
    assert.equal(page.status, 200);
    assert.match(page.text, /Account connected/);
    assert.equal((await connectionOf(harness.services.sql, harness.world.accounts.main))?.status, "connected");
    assert.match(result.io.text(), /Waiting up to 10 s/);
    assert.doesNotMatch(result.io.text(), TOKEN_SHAPES, "no token in the output");
  });

  test("accounts connect fails with X's reason when the consent is declined; another state's redirect does not end the wait", async () => {
    let stray = 0;
    const result = await connectWithLoopback(String(userId), async (url, callbackUrl) => {
      stray = (await fetch(`${callbackUrl}?state=not-ours&code=x`)).status;
      const back = await consent(fake, url, "deny");
      assert.equal((await fetch(back)).status, 400, "the browser is told the connection failed");
    });
    assert.equal(stray, 400);
    assert.equal(result.connected, undefined);
    assert.match(result.error?.message ?? "", /The connection failed \(invalid_parameter\): X did not authorise the connection: "access_denied"/);
  });

  test("accounts connect gives up after --timeout; an unknown --user is refused before X is asked", async () => {
    const result = await connectWithLoopback(String(userId), async () => {}, 300);
    assert.match(result.error?.message ?? "", /X did not send the browser back within 0.3 s; run the command again/);
    const loopback = await openConnectLoopback(0);
    try {
      await assert.rejects(connectThroughLoopback(harness.services, loopback, { user: "999999", timeoutMs: 1000 }, captureIo()), /No user "999999"/);
      await assert.rejects(
        connectThroughLoopback(harness.services, loopback, { user: "ada", timeoutMs: 1000 }, captureIo()),
        /--user must be a user id or an email/,
      );
    } finally {
      await loopback.close();
    }
  });

  test("x check reports a connected account healthy with its scopes, expiry and X's rate windows (exit 0)", async () => {
    const reset = Math.floor(Date.now() / 1000) + 600;
    fake.script(
      {
        path: "/2/usage/tweets",
        kind: "status",
        status: 200,
        body: { data: {} },
        headers: { "x-rate-limit-limit": "50", "x-rate-limit-remaining": "49", "x-rate-limit-reset": String(reset) },
      },
      {
        path: "/2/users/me",
        kind: "status",
        status: 200,
        body: { data: { id: harness.world.accounts.main, username: harness.world.handles.main, name: "Ada" } },
        headers: { "x-rate-limit-limit": "75", "x-rate-limit-remaining": "74", "x-rate-limit-reset": String(reset) },
      },
    );
    const { code, report, text } = await checkWith();
    assert.equal(code, 0, text);
    assert.equal(report.healthy, true);
    assert.deepEqual(report.app.window, { endpoint: "GET /2/usage/tweets", limit: 50, remaining: 49, reset_at: new Date(reset * 1000).toISOString() });
    const [main] = report.accounts;
    assert.equal(main.account_id, harness.world.accounts.main);
    assert.equal(main.relation, "main");
    assert.deepEqual(main.problems, []);
    assert.deepEqual(main.missing_scopes, []);
    assert.equal(main.can_refresh, true);
    assert.ok(Date.parse(main.access_expires_at) > Date.now() + 60 * 60 * 1000);
    assert.deepEqual(main.window, { endpoint: "GET /2/users/me", limit: 75, remaining: 74, reset_at: new Date(reset * 1000).toISOString() });
    assert.doesNotMatch(text, TOKEN_SHAPES, "no token in the report");
    // Nothing was posted: only reads reached X.
    assert.ok(fake.requests.every((request) => request.method === "GET" || request.pathname === "/2/oauth2/token"));
    const table = await checkWith(harness.services, false);
    assert.equal(table.code, 0);
    assert.match(table.text, /@ada_builds\s+1600000000000000001\s+\d+\s+main\s+healthy\s+expires in \dh \d+m\s+all 9/);
    assert.match(table.text, /All healthy/);
  });

  test("endpointOf() names X's rate-window endpoint: ids become :id, the version segment stays", () => {
    assert.equal(endpointOf("GET", "/2/usage/tweets"), "GET /2/usage/tweets");
    assert.equal(endpointOf("DELETE", "/2/tweets/1600000000000000001"), "DELETE /2/tweets/:id");
    assert.equal(endpointOf("POST", "/2/users/42/retweets"), "POST /2/users/:id/retweets");
  });

  test("x check needs attention (exit 1) for a missing scope, a revoked token and a reauth_required account", async () => {
    const { sql } = harness.services;
    const main = harness.world.accounts.main;
    // A grant without dm.write.
    const row = (await connectionOf(sql, main))!;
    const fewer = X_SCOPES.filter((scope) => scope !== "dm.write");
    await saveConnection(sql, main, { accessToken: row.access_token, accessExpiresAt: row.access_expires_at!, scopes: fewer }, new Date());
    let checked = await checkWith();
    assert.equal(checked.code, 1);
    assert.deepEqual(checked.report.accounts[0].missing_scopes, ["dm.write"]);
    assert.match(checked.report.accounts[0].problems.join(), /X did not grant "dm.write"/);
    await saveConnection(sql, main, { accessToken: row.access_token, accessExpiresAt: row.access_expires_at!, scopes: row.scopes }, new Date());
    assert.equal((await checkWith()).code, 0);

    // The user removed the app: X refuses the access token.
    fake.oauth!.revoke(main);
    checked = await checkWith();
    assert.equal(checked.code, 1);
    assert.equal(checked.report.accounts[0].connection, "connected");
    assert.match(checked.report.accounts[0].problems.join(), /X refused the access token \(401\)/);

    // Two hours on, the refresh X refuses marks it reauth_required; the check after that reports it without asking X.
    const later: Services = { ...harness.services, clock: manualClock(Date.now() + 2 * 60 * 60 * 1000) };
    checked = await checkWith(later);
    assert.equal(checked.code, 1);
    assert.equal(checked.report.accounts[0].connection, "reauth_required");
    assert.match(checked.report.accounts[0].problems.join(), /invalid_grant/);
    const tokenCalls = fake.requests.filter((request) => request.pathname === "/2/oauth2/token").length;
    const table = await checkWith(later, false);
    assert.equal(table.code, 1);
    assert.match(table.text, /@ada_builds .*reauth required/);
    assert.match(table.text, /- X refused its token for good \(X refused the refresh: invalid_grant/);
    assert.match(table.text, /1 thing needs attention/);
    assert.equal(fake.requests.filter((request) => request.pathname === "/2/oauth2/token").length, tokenCalls, "X is not asked again");
    assert.doesNotMatch(table.text + checked.text, TOKEN_SHAPES, "no token in the report");
  });
});

describe("the threadline command", () => {
  let fake: FakeXServer;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  const CLI = ["--import", "tsx", "adapters/cli/main.ts"];
  const account = "1600000000000000001";

  before(async () => {
    fake = await startFakeXServer({ app: APP });
    assert.ok(await fake.network.userById(account), "the fake's world has the account");
    dataDir = await mkdtemp(join(tmpdir(), "threadline-x-cli-"));
    env = childEnv({
      DATA_DIR: dataDir,
      LOG_LEVEL: "silent",
      X_API_BASE_URL: fake.url,
      X_BEARER_TOKEN: fake.bearerToken,
      X_CLIENT_ID: APP.clientId,
      X_CLIENT_SECRET: APP.clientSecret,
      X_AUTHORIZE_URL: `${fake.url}/i/oauth2/authorize`,
      // The server's callback: `accounts connect` uses its loopback instead.
      X_OAUTH_CALLBACK_URL: SERVER_CALLBACK,
      PUBLIC_URL: undefined,
      X_USER_TOKEN: undefined,
    });
    const created = await runNode([...CLI, "accounts", "create", "--name", "Ada", "--username", "ada_builds", "--account-id", account], { env });
    assert.equal(created.code, 0, created.stderr);
  });
  after(async () => {
    await fake?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** Runs `accounts connect` as a child; the browser approves as `approver`. */
  async function connectAs(approver: string | "deny") {
    const child = startNode([...CLI, "accounts", "connect", "--user", "1", "--port", "0", "--json"], { env });
    try {
      const url = await pollUntil("the consent URL", () => CONSENT_URL.exec(child.stderr)?.[0], {
        timeoutMs: 60_000,
        abort: () => (child.child.exitCode !== null ? `the command exited: ${child.stderr}` : undefined),
      });
      const back = await consent(fake, url, approver);
      await fetch(back);
      const { code } = await child.exited;
      return { code, stdout: child.stdout, stderr: child.stderr };
    } finally {
      await child.stop("SIGKILL");
    }
  }

  test("accounts connect exits 0 with the connected account; x check then reports it healthy (exit 0)", async () => {
    const connected = await connectAs(account);
    assert.equal(connected.code, 0, connected.stderr);
    assert.deepEqual(JSON.parse(connected.stdout), { account_id: account, username: "ada_builds", relation: "main", created: false });
    const checked = await runNode([...CLI, "x", "check"], { env });
    assert.equal(checked.code, 0, checked.stdout + checked.stderr);
    assert.match(checked.stdout, /X app \(app-only bearer token\): ok/);
    assert.match(checked.stdout, /@ada_builds\s+1600000000000000001\s+1\s+main\s+healthy/);
    for (const output of [connected.stdout, connected.stderr, checked.stdout, checked.stderr])
      assert.doesNotMatch(output, TOKEN_SHAPES, "no token in the output");
  });

  test("a declined consent exits 1 naming X's reason", async () => {
    const declined = await connectAs("deny");
    assert.equal(declined.code, 1);
    assert.match(declined.stderr, /Error: The connection failed \(invalid_parameter\): X did not authorise the connection: "access_denied"/);
  });

  test("no redirect within --timeout exits 1 saying so", async () => {
    const waited = await runNode([...CLI, "accounts", "connect", "--user", "1", "--port", "0", "--timeout", "1"], { env });
    assert.equal(waited.code, 1);
    assert.match(waited.stderr, /Error: X did not send the browser back within 1 s; run the command again \(--timeout gives more time\)/);
    assert.match(waited.stderr, CONSENT_URL, "the consent URL was printed");
  });

  test("x check exits 2 when X is not configured, naming what to set", async () => {
    const plain = childEnv({ DATA_DIR: dataDir, LOG_LEVEL: "silent", X_API_BASE_URL: undefined, X_BEARER_TOKEN: undefined, X_CLIENT_ID: undefined });
    const checked = await runNode([...CLI, "x", "check"], { env: plain });
    assert.equal(checked.code, 2, checked.stderr);
    assert.match(checked.stderr, /X is not configured \(Threadline runs on the simulated network\): set X_API_BASE_URL, X_BEARER_TOKEN, X_CLIENT_ID/);
    const json = await runNode([...CLI, "x", "check", "--json"], { env: plain });
    assert.equal(json.code, 2);
    assert.deepEqual(JSON.parse(json.stdout), { healthy: false, configured: false, missing: ["X_API_BASE_URL", "X_BEARER_TOKEN", "X_CLIENT_ID"] });
  });
});
