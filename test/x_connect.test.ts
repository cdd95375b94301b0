/**
 * Connecting X accounts (docs/x.md, "Connecting accounts"): OAuth 2.0 Authorization Code with
 * PKCE against the fake X server (test/support/fake_x_api/x_oauth_routes.ts), followed without a
 * browser: `POST /v1/accounts/connect`, X's consent screen (approving as the account a test picks),
 * its redirect to the callback, the code traded with the verifier, `/2/users/me`. Both storage
 * modes (the suite runs in each).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, type Harness } from "./support/harness.ts";
import { startFakeXServer, type FakeXServer } from "./support/fake_x_api/fake_x_server.ts";
import type { SimulatedNetwork } from "../adapters/x/simulated/simulated_network.ts";
import { expectError } from "./support/expect_error.ts";
import { connectionOf, saveConnection } from "../core/accounts/x_connections_queries.ts";
import { accountTokenFor } from "../core/accounts/x_tokens.ts";
import { createXApiNetwork } from "../adapters/x/x_api/x_api_network.ts";
import { NetworkAuthLostError, NetworkRejectedError } from "../core/network/network_errors.ts";
import { ApiError } from "../core/errors.ts";
import { runJobsOnce } from "../core/jobs/job_runner.ts";
import { deductPostQuota } from "../core/post_quota/post_quota.ts";
import { REAUTH_RECHECK_MS } from "../core/scheduling/publish_pause.ts";
import { publishNowAndRead } from "../core/scheduling/publish_now_request.ts";
import { PUBLISH_JOB_KIND, schedulePublication } from "../core/scheduling/schedule_publication.ts";
import { insertPost, updatePostColumns } from "../core/scheduling/scheduled_posts_queries.ts";
import { jobHandlers } from "../jobs/task_list.ts";
import { manualClock } from "./support/manual_clock.ts";

/** The callback X is told about; the test delivers X's redirect to the harness itself. */
const CALLBACK = "https://threadline.example/connect/x/callback";
const APP = { clientId: "tl-test-client", clientSecret: "tl-test-secret" };

let harness: Harness;
let fake: FakeXServer;

before(async () => {
  harness = await startHarness({ config: { xClientId: APP.clientId, xClientSecret: APP.clientSecret, xOAuthCallbackUrl: CALLBACK } });
  // X is the harness's own simulated world, so X's users are the demo world's people.
  fake = await startFakeXServer({ network: harness.services.network as SimulatedNetwork, app: APP });
  // The harness was configured before the fake listened: point its X app at it now.
  const { createXOAuthClient } = await import("../adapters/x/x_oauth_client.ts");
  harness.services.xConnect = {
    oauth: createXOAuthClient({ ...APP, apiBaseUrl: fake.url, authorizeUrl: `${fake.url}/i/oauth2/authorize` }),
    callbackUrl: CALLBACK,
  };
});
after(async () => {
  await fake?.close();
  await harness?.close();
});

/** Starts a connection with `key` and approves on X as `approver`; answers the start and the callback URL X sends the browser to. */
async function approveOnX(key: string, approver: string | "deny") {
  const started = await fetch(`${harness.baseUrl}/v1/accounts/connect`, { method: "POST", headers: { Authorization: `Bearer ${key}` } });
  assert.equal(started.status, 200, await started.clone().text());
  const { data } = await started.json();
  fake.oauth!.approveAs(approver);
  const consent = await fetch(data.authorize_url, { redirect: "manual" });
  assert.equal(consent.status, 302);
  const back = new URL(consent.headers.get("location")!);
  assert.equal(`${back.origin}${back.pathname}`, CALLBACK, "X sends the browser to the registered callback");
  return { start: data, callback: `${harness.baseUrl}${back.pathname}${back.search}` };
}

/** Delivers X's redirect to the callback; answers its status and JSON body. */
async function deliver(callback: string) {
  const answer = await fetch(callback, { headers: { Accept: "application/json" } });
  return { status: answer.status, body: await answer.json() };
}

/** Starts a connection with `key`, approves on X as `approver`, and delivers X's redirect to the callback; answers the callback's answer. */
async function connectAs(key: string, approver: string | "deny") {
  const { start, callback } = await approveOnX(key, approver);
  return { start, callback, ...(await deliver(callback)) };
}

describe("connecting X accounts", () => {
  test("the start answers X's consent screen with S256 PKCE, a one-time state and the scopes", async () => {
    const answer = await fetch(`${harness.baseUrl}/v1/accounts/connect`, { method: "POST", headers: { Authorization: `Bearer ${harness.world.keys.write}` } });
    assert.equal(answer.status, 200);
    const { data } = await answer.json();
    const url = new URL(data.authorize_url);
    assert.equal(`${url.origin}${url.pathname}`, `${fake.url}/i/oauth2/authorize`);
    assert.equal(url.searchParams.get("response_type"), "code");
    assert.equal(url.searchParams.get("client_id"), APP.clientId);
    assert.equal(url.searchParams.get("redirect_uri"), CALLBACK);
    assert.equal(url.searchParams.get("code_challenge_method"), "S256");
    assert.match(url.searchParams.get("code_challenge") ?? "", /^[A-Za-z0-9_-]{43}$/);
    assert.equal(url.searchParams.get("state"), data.state);
    assert.deepEqual(url.searchParams.get("scope")?.split(" "), data.scopes);
    assert.ok(data.scopes.includes("offline.access"), "refresh tokens are asked for");
    assert.ok(Math.abs(Date.parse(data.expires_at) - Date.now() - 600_000) < 60_000, "valid 10 minutes");
    // A read-only key cannot start one.
    const readOnly = await fetch(`${harness.baseUrl}/v1/accounts/connect`, { method: "POST", headers: { Authorization: `Bearer ${harness.world.keys.read}` } });
    assert.equal(readOnly.status, 403);
    assert.equal((await readOnly.json()).error.code, "insufficient_scope");
  });

  test("approving as the user's main X account connects it; tokens are stored sealed and never answered", async () => {
    const connected = await connectAs(harness.world.keys.write, harness.world.accounts.main);
    assert.equal(connected.status, 200, JSON.stringify(connected.body));
    assert.deepEqual(connected.body.data, {
      account_id: harness.world.accounts.main,
      username: connected.body.data.username,
      relation: "main",
      created: false,
    });
    const row = await connectionOf(harness.services.sql, harness.world.accounts.main);
    assert.ok(row, "the connection is stored");
    assert.equal(row.status, "connected");
    assert.ok(row.scopes.includes("tweet.write"));
    for (const token of [row.access_token, row.refresh_token as string]) assert.match(token, /^tl1\./, "sealed");
    assert.match(harness.services.secretBox.open(row.access_token), /^xat-/);
    assert.ok(Math.abs(row.access_expires_at!.getTime() - Date.now() - 7_200_000) < 60_000, "X's two hours");
    assert.ok(!JSON.stringify(connected.body).includes("xat-"), "no token in the answer");
    // The same link again: used once.
    const again = await fetch(connected.callback, { headers: { Accept: "application/json" } });
    expectError({ status: again.status, body: await again.json() }, 400, "invalid_parameter");
  });

  test("another X account becomes a linked account, listed by GET /v1/accounts", async () => {
    const followers = await harness.services.network.followers(harness.world.accounts.main, { limit: 20 } as never);
    const accounts = new Set(Object.values(harness.world.accounts));
    const stranger = followers.items.find((user) => !accounts.has(user.id))!;
    const connected = await connectAs(harness.world.keys.write, stranger.id);
    assert.equal(connected.status, 200, JSON.stringify(connected.body));
    assert.deepEqual(connected.body.data, { account_id: stranger.id, username: stranger.username, relation: "linked", created: true });
    const listed = await fetch(`${harness.baseUrl}/v1/accounts?limit=100`, { headers: { Authorization: `Bearer ${harness.world.keys.write}` } });
    const account = (await listed.json()).data.find((item: any) => item.id === stranger.id);
    assert.equal(account?.relation, "linked");
    assert.equal(account?.username, stranger.username);
    assert.equal(account?.x_connection.status, "connected");
    assert.ok(account?.x_connection.scopes.includes("offline.access"));
    assert.ok(Date.parse(account?.x_connection.access_expires_at) > Date.now());
    assert.ok(!JSON.stringify(account).includes("xat-") && !JSON.stringify(account).includes("tl1."), "no token, sealed or not");
  });

  test("another user's account is 409 x_account_in_use; a declined consent and an unknown state are 400 invalid_parameter", async () => {
    const taken = await connectAs(harness.world.keys.write, harness.world.accounts.other_user);
    expectError({ status: taken.status, body: taken.body }, 409, "x_account_in_use");
    const declined = await connectAs(harness.world.keys.write, "deny");
    expectError({ status: declined.status, body: declined.body }, 400, "invalid_parameter");
    assert.match(declined.body.error.message, /access_denied/);
    const unknown = await fetch(`${harness.baseUrl}/connect/x/callback?state=nope&code=nope`, { headers: { Accept: "application/json" } });
    expectError({ status: unknown.status, body: await unknown.json() }, 400, "invalid_parameter");
    // A browser gets a page, not JSON.
    const page = await fetch(`${harness.baseUrl}/connect/x/callback?state=nope&code=nope`);
    assert.equal(page.status, 400);
    assert.match(page.headers.get("content-type") ?? "", /text\/html/);
    assert.match(await page.text(), /The connection failed/);
  });

  test("two users connecting the same new X account at once: one connects it, the other is 409 x_account_in_use", async () => {
    const followers = await harness.services.network.followers(harness.world.accounts.main, { limit: 40 } as never);
    const known = new Set((await harness.services.sql<{ id: string }[]>`select id from accounts`).map((row) => row.id));
    const stranger = followers.items.filter((user) => !known.has(user.id)).at(-1)!;
    const mine = await approveOnX(harness.world.keys.write, stranger.id);
    const theirs = await approveOnX(harness.world.keys.other_user, stranger.id);
    const answers = await Promise.all([deliver(mine.callback), deliver(theirs.callback)]);
    const statuses = answers.map((answer) => answer.status).sort();
    assert.deepEqual(statuses, [200, 409], JSON.stringify(answers));
    const refused = answers.find((answer) => answer.status === 409)!;
    expectError(refused, 409, "x_account_in_use");
  });

  test("a reconnect whose grant brings no refresh token keeps the stored one", async () => {
    const { sql, secretBox } = harness.services;
    const account = harness.world.accounts.linked;
    const now = new Date();
    const sealed = (text: string) => secretBox.seal(text);
    await saveConnection(sql, account, { accessToken: sealed("a1"), accessExpiresAt: now, refreshToken: sealed("r1"), scopes: ["offline.access"] }, now);
    await saveConnection(sql, account, { accessToken: sealed("a2"), accessExpiresAt: now, scopes: ["tweet.read"] }, now);
    const row = await connectionOf(sql, account);
    assert.equal(secretBox.open(row!.access_token), "a2");
    assert.equal(secretBox.open(row!.refresh_token!), "r1", "the working refresh token is not lost");
  });
});

describe("staying connected", () => {
  /** Connects a fresh linked account (a follower of the main account not yet connected); answers its id. */
  async function freshAccount(index: number): Promise<string> {
    const followers = await harness.services.network.followers(harness.world.accounts.main, { limit: 50 } as never);
    const taken = new Set(Object.values(harness.world.accounts));
    const candidates = followers.items.filter((user) => !taken.has(user.id));
    const id = candidates[candidates.length - 1 - index].id;
    const connected = await connectAs(harness.world.keys.write, id);
    assert.equal(connected.status, 200, JSON.stringify(connected.body));
    return id;
  }
  const depsAt = (clock: ReturnType<typeof manualClock>) => ({
    sql: harness.services.sql,
    clock,
    secretBox: harness.services.secretBox,
    oauth: harness.services.xConnect!.oauth,
  });

  test("past its two hours the token is refreshed once, the refresh token rotates, and a post publishes with it", async () => {
    const account = await freshAccount(0);
    const clock = manualClock(Date.now());
    const first = await accountTokenFor(depsAt(clock), account);
    assert.equal(fake.oauth!.userOf(first as string), account, "the connected token acts as the account");
    const refreshes = fake.oauth!.trades.refresh_token;
    clock.advance(2 * 60 * 60 * 1000 - 60_000);
    const second = await accountTokenFor(depsAt(clock), account);
    assert.notEqual(second, first, "refreshed within 5 minutes of expiry");
    assert.equal(fake.oauth!.trades.refresh_token, refreshes + 1);
    assert.equal(await accountTokenFor(depsAt(clock), account), second, "a fresh token is used as it is");
    assert.equal(fake.oauth!.trades.refresh_token, refreshes + 1);
    const x = createXApiNetwork({ baseUrl: fake.url, bearerToken: fake.bearerToken, userToken: (id) => accountTokenFor(depsAt(clock), id), clock });
    clock.advance(2 * 60 * 60 * 1000);
    const post = await x.publishPost({ authorId: account, text: `After the token expired ${Date.now()}` });
    assert.equal(post.authorId, account);
    assert.equal(fake.oauth!.trades.refresh_token, refreshes + 2, "the rotated refresh token worked");
  });

  test("two processes needing a refresh at the same moment make one refresh and use the same token", async () => {
    const account = await freshAccount(1);
    const clock = manualClock(Date.now() + 2 * 60 * 60 * 1000);
    const refreshes = fake.oauth!.trades.refresh_token;
    // Two deps objects stand for two processes: nothing is shared but the database.
    const [a, b] = await Promise.all([accountTokenFor(depsAt(clock), account), accountTokenFor(depsAt(clock), account)]);
    assert.equal(a, b);
    assert.equal(fake.oauth!.trades.refresh_token, refreshes + 1, "one refresh: a second would have reused the rotated token");
  });

  test("a refresh X refuses for good marks the account reauth_required, and X is not asked again", async () => {
    const account = await freshAccount(2);
    fake.oauth!.revoke(account);
    const clock = manualClock(Date.now() + 2 * 60 * 60 * 1000);
    await assert.rejects(
      accountTokenFor(depsAt(clock), account),
      (error: Error) => error instanceof NetworkRejectedError && /user-context token/.test(error.message),
    );
    const row = await connectionOf(harness.services.sql, account);
    assert.equal(row?.status, "reauth_required");
    assert.match(row?.reauth_reason ?? "", /invalid_grant/);
    const listed = await fetch(`${harness.baseUrl}/v1/accounts?limit=100`, { headers: { Authorization: `Bearer ${harness.world.keys.write}` } });
    const shown = (await listed.json()).data.find((item: any) => item.id === account);
    assert.equal(shown.x_connection.status, "reauth_required", "GET /v1/accounts shows it");
    assert.match(shown.x_connection.reason, /invalid_grant/);
    // The owner hears of it: `account.reauth_required`, recorded with the mark.
    const events = await fetch(`${harness.baseUrl}/v1/events?types=account.reauth_required&account_id=${account}`, {
      headers: { Authorization: `Bearer ${harness.world.keys.write}` },
    });
    assert.equal(events.status, 200);
    const [event] = (await events.json()).data;
    assert.equal(event?.object.id, account);
    assert.equal(event.data.x_connection.status, "reauth_required");
    assert.ok(!JSON.stringify(event).includes("tl1.") && !JSON.stringify(event).includes("xat-"), "no token in the event");
    const refreshes = fake.oauth!.trades.refresh_token;
    await assert.rejects(accountTokenFor(depsAt(clock), account), /connect the account again/);
    assert.equal(fake.oauth!.trades.refresh_token, refreshes);
    // Connecting it again brings it back.
    const again = await connectAs(harness.world.keys.write, account);
    assert.equal(again.status, 200);
    assert.equal((await connectionOf(harness.services.sql, account))?.status, "connected");
  });

  test("a post due while its account is reauth_required stays scheduled without spending attempts, publish-now is 409 reauth_required, and reconnecting publishes it", async () => {
    const account = await freshAccount(3);
    fake.oauth!.revoke(account);
    // Past the token's two hours the refresh is refused for good: the account is reauth_required.
    await assert.rejects(accountTokenFor(depsAt(manualClock(Date.now() + 2 * 60 * 60 * 1000)), account), NetworkAuthLostError);
    const clock = manualClock(Date.now());
    const sql = harness.services.sql;
    const x = createXApiNetwork({ baseUrl: fake.url, bearerToken: fake.bearerToken, userToken: (id) => accountTokenFor(depsAt(clock), id), clock });
    const text = `Waits for its account ${Date.now()}`;
    const postId = await sql.begin(async (tx) => {
      const now = new Date(clock.now());
      const id = await insertPost(tx, account, { status: "scheduled", scheduled_for: new Date(clock.now() - 1000), parts: [{ text, media: [] }] }, now);
      const charge = await deductPostQuota(tx, account, [`post:${id}`], { now, reason: "scheduled" });
      await updatePostColumns(tx, id, { quota_period_start: charge.periodStart }, now);
      await schedulePublication(tx, [id]);
      return id;
    });
    // One attempt only: waiting for the account must not spend it.
    await sql`update jobs set max_attempts = 1 where kind = ${PUBLISH_JOB_KIND} and payload->>'postId' = ${String(postId)}`;
    const handlers = jobHandlers({ sql, clock, network: x });
    const runJob = () =>
      runJobsOnce({ sql, handlers: { [PUBLISH_JOB_KIND]: handlers[PUBLISH_JOB_KIND] }, runnerId: "x-reauth-test", kinds: [PUBLISH_JOB_KIND] });
    const job = async () =>
      (
        await sql<{ status: string; attempts: number; run_at: Date; last_error: string | null }[]>`
          select status, attempts, run_at, last_error from jobs where kind = ${PUBLISH_JOB_KIND} and payload->>'postId' = ${String(postId)}`
      )[0];
    const post = async () => (await sql<{ status: string; error: string | null }[]>`select status, error from scheduled_posts where id = ${postId}`)[0];
    const sent = () => fake.requests.filter((request) => request.method === "POST" && request.pathname === "/2/tweets").length;
    const before = sent();

    assert.equal((await runJob()).retried, 1);
    const waiting = await job();
    assert.deepEqual([waiting.status, waiting.attempts, waiting.run_at.getTime()], ["queued", 0, clock.now() + REAUTH_RECHECK_MS]);
    assert.match(waiting.last_error ?? "", /waits for its account to be connected again/);
    assert.deepEqual(await post(), { status: "scheduled", error: null });
    assert.equal(sent(), before, "nothing was sent to X");

    // Publish-now on the paused account: 409 reauth_required, the post still scheduled.
    const ctx = { services: { ...harness.services, network: x, clock } } as unknown as Parameters<typeof publishNowAndRead>[0];
    const refused = await publishNowAndRead(ctx, postId).then(
      () => assert.fail("publish-now should be refused"),
      (error: unknown) => error as ApiError,
    );
    assert.ok(refused instanceof ApiError);
    assert.deepEqual([refused.status, refused.code], [409, "reauth_required"]);
    assert.deepEqual(await post(), { status: "scheduled", error: null });

    // Connecting the account again (X's redirect to the callback) makes the waiting job due at once.
    const again = await connectAs(harness.world.keys.write, account);
    assert.equal(again.status, 200);
    assert.ok((await job()).run_at.getTime() <= Date.now(), "due at once, not in 15 minutes");
    assert.equal((await runJob()).completed, 1);
    assert.equal((await post()).status, "sent");
    assert.equal(sent(), before + 1, "published once");
  });
});

describe("without an X app", () => {
  let plain: Harness;
  before(async () => {
    plain = await startHarness();
  });
  after(() => plain.close());

  test("POST /v1/accounts/connect answers 503 x_oauth_not_configured naming X_CLIENT_ID", async () => {
    const answer = await fetch(`${plain.baseUrl}/v1/accounts/connect`, { method: "POST", headers: { Authorization: `Bearer ${plain.world.keys.write}` } });
    const body = await answer.json();
    expectError({ status: answer.status, body }, 503, "x_oauth_not_configured");
    assert.match(body.error.message, /X_CLIENT_ID/);
  });
});
