/**
 * X refusing an account's token (docs/x.md, "X's refusals" and "Publishing while an account needs
 * reconnecting"): a 401 on a request acting as a connected account forces a refresh before the
 * next call; a refresh X refuses marks the account `reauth_required`, and its writes then fail
 * with NetworkAuthLostError, which the DM sender reads as a lost authorisation. Against the fake
 * X server, connecting through its consent screen.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, type Harness } from "./support/harness.ts";
import { startFakeXServer, type FakeXServer } from "./support/fake_x_api/fake_x_server.ts";
import { refusalAnswer } from "./support/fake_x_api/x_problems.ts";
import type { SimulatedNetwork } from "../adapters/x/simulated/simulated_network.ts";
import { openNetwork } from "../adapters/x/open_network.ts";
import { connectionOf } from "../core/accounts/x_connections_queries.ts";
import { NetworkAuthLostError, NetworkRejectedError, NetworkUpstreamError } from "../core/network/network_errors.ts";
import { isAuthLost } from "../core/dm/dm_sender.ts";
import { isPermanentFailure } from "../core/network/permanent_failure.ts";
import { pausesPublishing } from "../core/scheduling/publish_pause.ts";

const CALLBACK = "https://threadline.example/connect/x/callback";
const APP = { clientId: "tl-test-client", clientSecret: "tl-test-secret" };

let harness: Harness;
let fake: FakeXServer;

before(async () => {
  harness = await startHarness({ config: { xClientId: APP.clientId, xClientSecret: APP.clientSecret, xOAuthCallbackUrl: CALLBACK } });
  fake = await startFakeXServer({ network: harness.services.network as SimulatedNetwork, app: APP });
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

/** Connects `approver` (an X user of the fake) through the consent screen and the callback. */
async function connect(approver: string): Promise<void> {
  const started = await fetch(`${harness.baseUrl}/v1/accounts/connect`, { method: "POST", headers: { Authorization: `Bearer ${harness.world.keys.write}` } });
  assert.equal(started.status, 200);
  const { data } = await started.json();
  fake.oauth!.approveAs(approver);
  const consent = await fetch(data.authorize_url, { redirect: "manual" });
  const back = new URL(consent.headers.get("location")!);
  const answer = await fetch(`${harness.baseUrl}${back.pathname}${back.search}`, { headers: { Accept: "application/json" } });
  assert.equal(answer.status, 200, await answer.text());
}

/** The X network as `serve` opens it: each account's connected token, refreshed by the fake's OAuth app. */
function xNetwork() {
  return openNetwork({
    sql: harness.services.sql,
    clock: harness.services.clock,
    secretBox: harness.services.secretBox,
    xApi: { baseUrl: fake.url, bearerToken: fake.bearerToken, oauth: { ...APP, apiBaseUrl: fake.url } },
  });
}

describe("X refusing an account's token", () => {
  test("a 401 forces a refresh before the next write; a refused refresh makes the account reauth_required and its writes NetworkAuthLostError", async () => {
    const account = harness.world.accounts.main;
    await connect(account);
    const x = xNetwork();
    const first = await connectionOf(harness.services.sql, account);
    assert.equal(first?.refreshed_at, null);

    // X refuses the access token once: retryable, and the token is treated as expired.
    fake.script({ path: "/2/tweets", kind: "status", ...refusalAnswer("expired_token") });
    const refused = await x.publishPost({ authorId: account, text: `Refused once ${Date.now()}` }).then(
      () => assert.fail("X answered 401"),
      (error: unknown) => error,
    );
    assert.ok(refused instanceof NetworkUpstreamError && refused.status === 401);
    assert.equal(isPermanentFailure(refused), false);
    assert.ok((await connectionOf(harness.services.sql, account))!.access_expires_at!.getTime() <= Date.now(), "expired at once");

    // The next write refreshes first, then publishes.
    const published = await x.publishPost({ authorId: account, text: `After a forced refresh ${Date.now()}` });
    assert.ok(published.id);
    const refreshed = await connectionOf(harness.services.sql, account);
    assert.ok(refreshed?.refreshed_at, "refreshed");
    assert.notEqual(refreshed.access_token, first?.access_token);
    assert.equal(refreshed.status, "connected");

    // The app is revoked: the forced refresh is refused, the account needs reconnecting.
    fake.oauth!.revoke(account);
    fake.script({ path: "/2/tweets", kind: "status", ...refusalAnswer("expired_token") });
    await assert.rejects(x.publishPost({ authorId: account, text: `Revoked ${Date.now()}` }), NetworkUpstreamError);
    const lost = await x.publishPost({ authorId: account, text: `Lost ${Date.now()}` }).then(
      () => assert.fail("the account is reauth_required"),
      (error: unknown) => error,
    );
    assert.ok(lost instanceof NetworkAuthLostError, String(lost));
    assert.equal(lost.accountId, account);
    assert.equal((await connectionOf(harness.services.sql, account))?.status, "reauth_required");
    // The publisher pauses on it and the DM sender reads it as a lost authorisation.
    assert.ok(pausesPublishing(lost));
    assert.ok(isAuthLost(lost));
    // Reconnecting clears it.
    fake.oauth!.approveAs(account);
    await connect(account);
    assert.equal((await connectionOf(harness.services.sql, account))?.status, "connected");
  });

  test("the DM sender's lost authorisation is the typed error (or X's 401), not a refusal's wording", () => {
    assert.equal(isAuthLost(new NetworkAuthLostError("1", "gone")), true);
    assert.equal(isAuthLost(new NetworkUpstreamError("X refused the credentials (HTTP 401)", 401)), true);
    assert.equal(isAuthLost(new NetworkRejectedError("invalid", "The user-context token is fine, the text is not")), false);
    assert.equal(isAuthLost(new NetworkRejectedError("suspended", "This account is suspended")), false);
  });
});
