/**
 * X's prices and the monthly X budget (docs/x.md "X's prices and your budget") against the fake
 * X on loopback: a Threadline configured with the X API meters every call by kind at
 * x-api/getting-started/pricing.mdx's prices (or `X_PRICES`), and refuses X-spending work before
 * a user's monthly budget is crossed.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import type { Sql } from "../core/db/sql.ts";
import { deductPostQuota } from "../core/post_quota/post_quota.ts";
import { publishScheduledPost } from "../core/scheduling/publish_post.ts";
import { schedulePublication } from "../core/scheduling/schedule_publication.ts";
import { insertPost, updatePostColumns } from "../core/scheduling/scheduled_posts_queries.ts";
import { XBudgetSpentError } from "../core/x_usage/x_budget_error.ts";
import { DEFAULT_X_PRICES, xPricesOf } from "../core/x_usage/x_prices.ts";
import { adminApi } from "../core/admin/admin_api.ts";
import { configFromEnv } from "../adapters/runtime/config.ts";
import { kindOfCall } from "../adapters/x/x_api/x_usage_watcher.ts";
import { isPermanentFailure } from "../core/network/permanent_failure.ts";
import { startFakeXServer, type FakeXServer } from "./support/fake_x_api/fake_x_server.ts";
import { startHarness, transports, type Harness } from "./support/harness.ts";

const ADA_ID = "1600000000000000001";
const ADA_LABS_ID = "1600000000000000002";
const ADA_TOKEN = "user-token-ada";

let fake: FakeXServer;
let harness: Harness;
let sql: Sql;
let adaUser: number;

before(async () => {
  fake = await startFakeXServer({ seed: 7, userTokens: { [ADA_TOKEN]: ADA_ID } });
  harness = await startHarness({
    config: {
      xApiBaseUrl: fake.url,
      xBearerToken: fake.bearerToken,
      xUserToken: ADA_TOKEN,
      // Post reads at $0.002 instead of the page's $0.005: the override applies.
      xPrices: xPricesOf('{"post_read": 0.002}'),
    },
  });
  sql = harness.services.sql;
  [{ user_id: adaUser }] = await sql<{ user_id: number }[]>`select user_id from accounts where id = ${ADA_ID}`;
});
after(async () => {
  await harness?.close();
  await fake?.close();
});

const month = () => new Date(harness.services.clock.now()).toISOString().slice(0, 7);
const tag = () => randomBytes(4).toString("hex");

/** The usage rows of an account this month, by kind. */
async function usageOf(accountId: string) {
  const rows = await sql<{ kind: string; calls: number; units: number; spend: string }[]>`
    select kind, calls, units, spend_usd::text as spend from x_usage where account_id = ${accountId} and month = ${month()}`;
  return Object.fromEntries(rows.map((row) => [row.kind, { calls: Number(row.calls), units: Number(row.units), spend: Number(row.spend) }]));
}

/** A scheduled post due now, as the create endpoint leaves it. */
async function schedulePost(text: string) {
  const { clock } = harness.services;
  return sql.begin(async (tx) => {
    const now = new Date(clock.now());
    const postId = await insertPost(tx, ADA_ID, { status: "scheduled", scheduled_for: new Date(clock.now() - 1000), parts: [{ text, media: [] }] }, now);
    const charge = await deductPostQuota(tx, ADA_ID, [`post:${postId}`], { now, reason: "scheduled" });
    await updatePostColumns(tx, postId, { quota_period_start: charge.periodStart }, now);
    await schedulePublication(tx, [postId]);
    const [{ publish_version }] = await tx<{ publish_version: number }[]>`select publish_version from scheduled_posts where id = ${postId}`;
    return { postId, version: publish_version };
  });
}

describe("X's prices", { timeout: 120_000 }, () => {
  test("X_PRICES overrides named kinds and keeps the page's price for the rest; a bad one stops the start", () => {
    const prices = configFromEnv({ X_PRICES: '{"post_create_url": 0, "dm_create": 0.02}' }).xPrices;
    assert.deepEqual(prices, { ...DEFAULT_X_PRICES, post_create_url: 0, dm_create: 0.02 });
    assert.equal(DEFAULT_X_PRICES.post_create_url, 0.2);
    assert.throws(() => xPricesOf('{"post_created": 1}'), /unknown kind "post_created"/);
    assert.throws(() => xPricesOf('{"post_read": -1}'), /at least 0/);
    assert.throws(() => xPricesOf("[1]"), /JSON object/);
    assert.equal(configFromEnv({ X_MONTHLY_BUDGET_USD: "25" }).xMonthlyBudgetUsd, 25);
  });

  test("a call's kind: a post with a URL, a DM, a delete, reads of posts and users, an owned read", () => {
    const call = (method: "GET" | "POST" | "DELETE", endpoint: string, extra: { path?: string; userId?: string; body?: unknown } = {}) =>
      kindOfCall({ method, endpoint: `${method} ${endpoint}`, path: extra.path ?? endpoint, userId: extra.userId, body: extra.body });
    assert.equal(call("POST", "/2/tweets", { body: { text: "plain" } }), "post_create");
    assert.equal(call("POST", "/2/tweets", { body: { text: "see https://example.com/a" } }), "post_create_url");
    assert.equal(call("POST", "/2/dm_conversations/with/:id/messages"), "dm_create");
    assert.equal(call("DELETE", "/2/tweets/:id"), "interaction_delete");
    assert.equal(call("GET", "/2/tweets"), "post_read");
    assert.equal(call("GET", "/2/users/:id/tweets", { path: "/2/users/42/tweets" }), "post_read");
    assert.equal(call("GET", "/2/users/:id/tweets", { path: "/2/users/42/tweets", userId: "42" }), "owned_read");
    assert.equal(call("GET", "/2/users/by/username/:id"), "user_read");
    assert.equal(call("GET", "/2/users/:id/followers", { path: "/2/users/42/followers" }), "user_read");
    assert.equal(call("POST", "/2/media/upload"), undefined);
  });

  test("calls are metered per account and month with their kinds, units and prices", async () => {
    const network = harness.services.network;
    assert.equal(network.info.kind, "x_api");
    // Delta from what the instance itself spent already (the demo world's due posts go out at start).
    const none = { calls: 0, units: 0, spend: 0 };
    const beforeAda = await usageOf(ADA_ID);
    await network.publishPost({ authorId: ADA_ID, text: `A plain post ${tag()}` });
    await network.publishPost({ authorId: ADA_ID, text: `A post with a link https://example.com/${tag()}` });
    await network.sendDm({ senderId: ADA_ID, recipientId: ADA_LABS_ID, text: `Hello ${tag()}` });
    const { items } = await network.timeline(ADA_LABS_ID, { limit: 3 });
    const beforeApp = (await usageOf("app")).post_read ?? none;
    await network.postsByIds(items.map((post) => post.id));

    const ada = await usageOf(ADA_ID);
    const grew = (kind: string) => {
      const [now, then] = [ada[kind] ?? none, beforeAda[kind] ?? none];
      return { calls: now.calls - then.calls, units: now.units - then.units, spend: Math.round((now.spend - then.spend) * 1e6) / 1e6 };
    };
    assert.deepEqual(grew("post_create"), { calls: 1, units: 1, spend: 0.015 });
    assert.deepEqual(grew("post_create_url"), { calls: 1, units: 1, spend: 0.2 });
    assert.deepEqual(grew("dm_create"), { calls: 1, units: 1, spend: 0.015 });
    // App-only reads act as no account: they count under `app`, per post returned, at the overridden price.
    const app = (await usageOf("app")).post_read;
    assert.equal(items.length, 3);
    assert.equal(app.calls - beforeApp.calls, 1);
    assert.equal(app.units - beforeApp.units, 3);
    assert.ok(Math.abs(app.spend - beforeApp.spend - 3 * 0.002) < 1e-9);
  });

  test("a budget crossed mid-run stops spending: the next post fails with the budget reason and nothing reaches X", async () => {
    const deps = { sql, network: harness.services.network, clock: harness.services.clock };
    const first = await schedulePost(`Within budget ${tag()}`);
    assert.equal((await publishScheduledPost(deps, first)).outcome, "sent");
    const [{ spent }] = await sql<{ spent: string }[]>`
      select coalesce(sum(x.spend_usd), 0)::text as spent from x_usage x join accounts a on a.id = x.account_id
       where a.user_id = ${adaUser} and x.month = ${month()}`;
    // What the user's accounts spent so far, and less than a plain post ($0.015) more.
    const budget = Math.ceil((Number(spent) + 0.005) * 100) / 100;
    assert.ok(budget - Number(spent) < DEFAULT_X_PRICES.post_create);
    await adminApi(harness.services).setXBudget(adaUser, budget);
    try {
      const from = fake.requests.length;
      const second = await schedulePost(`Over budget ${tag()}`);
      const refused = await publishScheduledPost(deps, second);
      assert.deepEqual(refused, { outcome: "failed", error: `X refused the post: The monthly X budget of $${budget} is spent` });
      assert.equal(fake.requests.slice(from).filter((request) => request.method === "POST").length, 0, "nothing is sent to X");
      const [row] = await sql<{ status: string; error: string }[]>`select status, error from scheduled_posts where id = ${second.postId}`;
      assert.equal(row.status, "error");
      assert.match(row.error, /The monthly X budget of \$[\d.]+ is spent/);
      // The DM sender ends a message the same way: the refusal is permanent.
      await assert.rejects(harness.services.network.sendDm({ senderId: ADA_ID, recipientId: ADA_LABS_ID, text: `Hi ${tag()}` }), (error) => {
        assert.ok(error instanceof XBudgetSpentError);
        assert.ok(isPermanentFailure(error));
        return true;
      });
    } finally {
      await adminApi(harness.services).setXBudget(adaUser, null);
    }
  });

  test("the admin API sets a user's monthly X budget, clears it, and refuses a bad one or an unknown user", async () => {
    const admin = adminApi(harness.services);
    const budgetOf = async () => (await sql<{ b: string | null }[]>`select x_monthly_budget_usd::text as b from users where id = ${adaUser}`)[0].b;
    await admin.setXBudget(adaUser, 12.5);
    assert.equal(Number(await budgetOf()), 12.5);
    await admin.setXBudget(adaUser, null);
    assert.equal(await budgetOf(), null);
    await assert.rejects(admin.setXBudget(adaUser, -1), /at least 0, got "-1"/);
    await assert.rejects(admin.setXBudget(987_654_321, 5), /Cannot find user "987654321"/);
  });

  for (const transport of ["in-process", "http"] as const) {
    test(`a post whose text holds a URL answers an x_url_price warning; a plain one none (${transport})`, async () => {
      const t = transports(harness)[transport === "in-process" ? 0 : 1];
      const key = harness.world.keys.write;
      const linked = await t.request("POST", "/v1/scheduled-posts", {
        key,
        body: { parts: [{ text: `Plain ${tag()}` }, { text: `Read www.example.com/${tag()}` }] },
      });
      assert.equal(linked.status, 201, JSON.stringify(linked.body));
      assert.deepEqual(
        linked.body.data.warnings.map((warning: { code: string }) => warning.code),
        ["x_url_price"],
      );
      assert.match(linked.body.data.warnings[0].message, /^Part 2 holds a URL: X charges about 13 times/);
      const read = await t.request("GET", `/v1/scheduled-posts/${linked.body.data.id}`, { key });
      assert.deepEqual(read.body.data.warnings, linked.body.data.warnings);
      const plain = await t.request("POST", "/v1/scheduled-posts", { key, body: { text: `No link here ${tag()}` } });
      assert.equal(plain.status, 201);
      assert.equal(plain.body.data.warnings, undefined);
    });
  }

  test("GET /v1/x/usage shows the key's user's accounts per month with kinds, spend, budget and what is left", async () => {
    const admin = adminApi(harness.services);
    await admin.setXBudget(adaUser, 50);
    try {
      for (const t of transports(harness)) {
        const answer = await t.request("GET", `/v1/x/usage?month=${month()}`, { key: harness.world.keys.read });
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        const report = answer.body.data;
        const ada = report.accounts.find((account: { account_id: string }) => account.account_id === ADA_ID);
        const rows = await usageOf(ADA_ID);
        assert.deepEqual(
          Object.fromEntries(
            ada.kinds.map((kind: { kind: string; calls: number; units: number; spend_usd: number }) => [
              kind.kind,
              { calls: kind.calls, units: kind.units, spend: kind.spend_usd },
            ]),
          ),
          rows,
        );
        assert.ok(ada.kinds.some((kind: { kind: string }) => kind.kind === "post_create_url"));
        assert.equal(report.budget_usd, 50);
        assert.ok(Math.abs(report.left_usd - (50 - report.spend_usd)) < 1e-6);
        assert.ok(
          report.accounts.every((account: { account_id: string }) => account.account_id !== "app"),
          "app-only reads belong to no user",
        );
        const other = await t.request("GET", `/v1/x/usage?month=${month()}`, { key: harness.world.keys.other_user });
        assert.deepEqual(other.body.data.accounts, []);
        assert.equal(other.body.data.budget_usd, null);
        const past = await t.request("GET", "/v1/x/usage?month=2020-01", { key: harness.world.keys.read });
        assert.deepEqual([past.body.data.month, past.body.data.accounts, past.body.data.spend_usd], ["2020-01", [], 0]);
        const bad = await t.request("GET", "/v1/x/usage?month=2026-13", { key: harness.world.keys.read });
        assert.deepEqual([bad.status, bad.body.error.code], [400, "invalid_parameter"]);
      }
    } finally {
      await admin.setXBudget(adaUser, null);
    }
  });
});
