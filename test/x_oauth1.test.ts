/**
 * OAuth 1.0a user tokens (docs/x.md "OAuth 1.0a tokens"): an account whose credential is an
 * access token and secret has its requests signed with them and the app's API key and secret
 * (X's fundamentals/authentication/oauth-1-0a/authorizing-a-request.mdx); the fake X server
 * verifies each signature with the same library, so a post published this way reached X signed,
 * and a wrong secret is refused as X refuses it.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { ApiError } from "../core/errors.ts";
import { networkApiError } from "../core/network/network_api_error.ts";
import { NetworkRejectedError, NetworkUpstreamError } from "../core/network/network_errors.ts";
import { createXApiNetwork } from "../adapters/x/x_api/x_api_network.ts";
import { startFakeXServer, type FakeXServer } from "./support/fake_x_api/fake_x_server.ts";
import { storeOAuth1Command } from "../adapters/cli/store_oauth1_command.ts";
import { accountOwner, connectionOf } from "../core/accounts/x_connections_queries.ts";
import { accountTokenFor } from "../core/accounts/x_tokens.ts";
import type { SimulatedNetwork } from "../adapters/x/simulated/simulated_network.ts";
import { startHarness, type Harness } from "./support/harness.ts";

const ADA_ID = "1600000000000000001";
const CONSUMER = { key: "app-api-key", secret: "app-api-secret" };
const ADA = { token: `${ADA_ID}-ada-access-token`, secret: "ada-access-secret" };

let fake: FakeXServer;

before(async () => {
  fake = await startFakeXServer({ oauth1: { consumer: CONSUMER, tokens: { [ADA.token]: { secret: ADA.secret, userId: ADA_ID } } } });
});
after(async () => {
  await fake.close();
});

/** The X client signing as `token`; `consumer` null: no API key and secret configured. */
function network(token: { token: string; secret: string }, consumer: typeof CONSUMER | null = CONSUMER) {
  return createXApiNetwork({
    baseUrl: fake.url,
    bearerToken: fake.bearerToken,
    consumer: consumer ?? undefined,
    userToken: () => ({ oauth1: token }),
    timeoutMs: 5000,
  });
}

describe("OAuth 1.0a user tokens", () => {
  test("an account with OAuth 1.0a tokens publishes a post, each request signed and verified by X", async () => {
    const from = fake.requests.length;
    const post = await network(ADA).publishPost({ authorId: ADA_ID, text: "Signed with OAuth 1.0a", token: "oauth1-1" });
    assert.equal(post.authorId, ADA_ID);
    assert.equal((await fake.network.postById(post.id)).text, "Signed with OAuth 1.0a");
    const sent = fake.requests.slice(from);
    const create = sent.find((request) => request.method === "POST" && request.pathname === "/2/tweets");
    assert.ok(create, "the post was sent to X");
    const header = String(create.headers.authorization);
    assert.match(header, /^OAuth /);
    for (const name of ["oauth_consumer_key", "oauth_nonce", "oauth_signature", "oauth_signature_method", "oauth_timestamp", "oauth_token", "oauth_version"]) {
      assert.ok(header.includes(`${name}="`), `the header carries ${name}`);
    }
    assert.ok(header.includes('oauth_signature_method="HMAC-SHA1"'));
    assert.ok(!header.includes(ADA.secret) && !header.includes(CONSUMER.secret), "no secret is sent");
  });

  test("a wrong token secret is refused by X: 502 upstream_error naming the credentials", async () => {
    const error = await network({ ...ADA, secret: "not-the-secret" })
      .publishPost({ authorId: ADA_ID, text: "Not signed right" })
      .then(
        () => assert.fail("published with a wrong secret"),
        (caught: unknown) => caught,
      );
    assert.ok(error instanceof NetworkUpstreamError, String(error));
    assert.match(error.message, /refused the credentials \(HTTP 401\)/);
    const mapped = networkApiError(error);
    assert.ok(mapped instanceof ApiError);
    assert.deepEqual([mapped.status, mapped.code], [502, "upstream_error"]);
  });

  test("a wrong API secret is refused too, and without an API key and secret nothing is sent", async () => {
    await assert.rejects(network(ADA, { ...CONSUMER, secret: "other" }).publishPost({ authorId: ADA_ID, text: "Wrong app secret" }), NetworkUpstreamError);
    const from = fake.requests.length;
    await assert.rejects(network(ADA, null).publishPost({ authorId: ADA_ID, text: "No app keys" }), (error: Error) => {
      assert.ok(error instanceof NetworkRejectedError);
      assert.match(error.message, /X_CONSUMER_KEY, X_CONSUMER_SECRET/);
      return true;
    });
    assert.equal(fake.requests.length, from);
  });
});

describe("storing an account's OAuth 1.0a token (threadline accounts x-oauth1)", () => {
  let harness: Harness;
  let xFake: FakeXServer;
  let stranger: { id: string; username: string };
  let userId: number;
  const token = { token: "stranger-access-token", secret: "stranger-access-secret" };
  const refreshes: string[] = [];
  const deps = () => ({
    sql: harness.services.sql,
    clock: harness.services.clock,
    secretBox: harness.services.secretBox,
    oauth: {
      authorizeUrl: () => "",
      exchangeCode: async () => assert.fail("no code is traded"),
      me: async () => assert.fail("no OAuth 2.0 identity is asked"),
      refresh: async (refreshToken: string) => {
        refreshes.push(refreshToken);
        return assert.fail("an OAuth 1.0a token is never refreshed");
      },
    },
  });
  const store = (secret: string) =>
    storeOAuth1Command(
      harness.services,
      { words: ["accounts", "x-oauth1"], flags: { user: String(userId) } },
      {
        X_API_BASE_URL: xFake.url,
        X_BEARER_TOKEN: xFake.bearerToken,
        X_CONSUMER_KEY: CONSUMER.key,
        X_CONSUMER_SECRET: CONSUMER.secret,
        X_ACCESS_TOKEN: token.token,
        X_ACCESS_TOKEN_SECRET: secret,
      },
    );

  before(async () => {
    harness = await startHarness();
    const followers = await harness.services.network.followers(harness.world.accounts.main, { limit: 20 } as never);
    const accounts = new Set(Object.values(harness.world.accounts));
    stranger = followers.items.find((user) => !accounts.has(user.id))!;
    userId = (await accountOwner(harness.services.sql, harness.world.accounts.main))!.user_id;
    xFake = await startFakeXServer({
      network: harness.services.network as SimulatedNetwork,
      oauth1: { consumer: CONSUMER, tokens: { [token.token]: { secret: token.secret, userId: stranger.id } } },
    });
  });
  after(async () => {
    await xFake?.close();
    await harness?.close();
  });

  test("a wrong secret is refused by X and nothing is stored: 400 invalid_parameter", async () => {
    await assert.rejects(store("not-the-secret"), (error: unknown) => {
      assert.ok(error instanceof ApiError);
      assert.deepEqual([error.status, error.code], [400, "invalid_parameter"]);
      assert.ok(!error.message.includes("not-the-secret"), "the secret is not repeated");
      return true;
    });
    assert.equal(await connectionOf(harness.services.sql, stranger.id), undefined);
  });

  test("a token X accepts is stored sealed for the account it acts as, which publishes with it, unrefreshed", async () => {
    const stored = await store(token.secret);
    assert.deepEqual(stored, { account_id: stranger.id, username: stranger.username, relation: "linked", created: true });
    const row = (await connectionOf(harness.services.sql, stranger.id))!;
    assert.equal(row.kind, "oauth1");
    assert.equal(row.access_expires_at, null);
    for (const sealed of [row.access_token, row.token_secret!]) assert.match(sealed, /^tl1\./, "sealed");
    assert.deepEqual(await accountTokenFor(deps(), stranger.id), { oauth1: token });
    const x = createXApiNetwork({
      baseUrl: xFake.url,
      bearerToken: xFake.bearerToken,
      consumer: CONSUMER,
      userToken: (id) => accountTokenFor(deps(), id),
      timeoutMs: 5000,
    });
    const post = await x.publishPost({ authorId: stranger.id, text: "Stored OAuth 1.0a token", token: "stored-1" });
    assert.equal(post.authorId, stranger.id);
    assert.deepEqual(refreshes, []);
    const listed = await fetch(`${harness.baseUrl}/v1/accounts?limit=100`, { headers: { Authorization: `Bearer ${harness.world.keys.write}` } });
    const account = (await listed.json()).data.find((item: any) => item.id === stranger.id);
    assert.deepEqual([account?.x_connection.kind, account?.x_connection.status, account?.x_connection.access_expires_at], ["oauth1", "connected", null]);
    const shown = JSON.stringify(account);
    assert.ok(!shown.includes(token.token) && !shown.includes(token.secret) && !shown.includes("tl1."), "no token, sealed or not");
  });
});
