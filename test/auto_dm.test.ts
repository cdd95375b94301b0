/**
 * Auto DMs on scheduled posts (docs/areas.md "DM campaigns and auto DM"; supplement: Scheduling, auto DM): attached
 * on create and PATCH and shown without its text, bounds, the monthly `posts_with_auto_dm`
 * cap stripping it (`auto_dm_skipped: true`, the post still saved), removal returning the
 * slot, and, once the post is sent, the people who reply or repost messaged through the
 * same sender, each once per post, at most `max`.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness, type Transport } from "./support/harness.ts";
import { expectError } from "./support/expect_error.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { dmPeople, messagedPeople } from "./support/dm_people.ts";
import { manualClock } from "./support/manual_clock.ts";
import type { SimulatedNetwork } from "../adapters/x/simulated/simulated_network.ts";
import { dispatchAutoDms } from "../core/dm/auto_dm_engagers.ts";
import { sendDueMessages } from "../core/dm/dm_sender.ts";
import { PLANS } from "../core/plans/plans.ts";
import { HOUR_MS } from "../core/time/durations.ts";

let harness: Harness;
let people: ReturnType<typeof dmPeople>;
const sim = () => harness.services.network as SimulatedNetwork;

before(async () => {
  harness = await startHarness();
  people = dmPeople(sim(), await messagedPeople(harness.services.sql));
});
after(() => harness.close());

const SECRET = "Thanks for the reply, [first]! Here is the guide";

describeMatrix(({ index, name }) => {
  const transport = (): Transport => transports(harness)[index];
  const send = (method: string, path: string, body?: unknown, key = harness.world.keys.write, headers?: Record<string, string>) =>
    transport().request(method, path, { key, body, headers });

  describe(`auto_dm on scheduled posts (${name})`, () => {
    test("attached on create with its defaults, shown without its text; PATCH changes it; null removes it", async () => {
      const created = await send("POST", "/v1/scheduled-posts", { text: `Auto DM draft ${index}`, auto_dm: { message: SECRET } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.deepEqual(created.body.data.auto_dm, { attached: true, triggers: ["reply"], max: 100, batch_mode: false, enabled: true });
      assert.equal(created.body.data.auto_dm_skipped, undefined);
      assert.ok(!JSON.stringify(created.body).includes("Thanks for the reply"), "the DM text is never returned");
      const id = created.body.data.id;
      const read = await send("GET", `/v1/scheduled-posts/${id}`);
      assert.deepEqual(read.body.data.auto_dm, { attached: true, triggers: ["reply"], max: 100, batch_mode: false, enabled: true });
      assert.ok(!JSON.stringify(read.body).includes("Thanks for the reply"));
      const patched = await send("PATCH", `/v1/scheduled-posts/${id}`, {
        auto_dm: { message: "Hi [name]", triggers: ["reply", "repost"], max: 5, enabled: false },
      });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.deepEqual(patched.body.data.auto_dm, { attached: true, triggers: ["reply", "repost"], max: 5, batch_mode: false, enabled: false });
      // A PATCH without the key keeps it.
      assert.deepEqual((await send("PATCH", `/v1/scheduled-posts/${id}`, { title: "kept" })).body.data.auto_dm.max, 5);
      const removed = await send("PATCH", `/v1/scheduled-posts/${id}`, { auto_dm: null });
      assert.equal(removed.body.data.auto_dm, null);
    });

    test("the real service's CLI body: triggers as { reply, repost } flags, max_dms, batch_mode", async () => {
      const auto_dm = { message: SECRET, triggers: { reply: true, repost: true }, max_dms: 7, batch_mode: true };
      const created = await send("POST", "/v1/scheduled-posts", { text: `Auto DM from the CLI ${index}`, auto_dm });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.deepEqual(created.body.data.auto_dm, { attached: true, triggers: ["reply", "repost"], max: 7, batch_mode: true, enabled: true });
      const repostOnly = await send("PATCH", `/v1/scheduled-posts/${created.body.data.id}`, {
        auto_dm: { message: SECRET, triggers: { repost: true }, max: 7, max_dms: 7 },
      });
      assert.equal(repostOnly.status, 200, JSON.stringify(repostOnly.body));
      assert.deepEqual(repostOnly.body.data.auto_dm, { attached: true, triggers: ["repost"], max: 7, batch_mode: false, enabled: true });
    });

    test("bad auto_dm values are 400 invalid_parameter", async () => {
      for (const auto_dm of [
        { message: "x", triggers: { reply: false, repost: false } },
        { message: "x", triggers: {} },
        { message: "x", triggers: { like: true } },
        { message: "x", triggers: "reply" },
        { message: "x", max: 5, max_dms: 6 },
        { message: "x", max_dms: 0 },
        { message: "x", batch_mode: "yes" },
        { message: "x", max_people: 5 },
        { message: "" },
        { message: "x".repeat(1001) },
        { message: "x", triggers: [] },
        { message: "x", triggers: ["like"] },
        { message: "x", max: 0 },
        { message: "x", max: 101 },
        { triggers: ["reply"] },
        "on",
      ]) {
        const answer = await send("POST", "/v1/scheduled-posts", { text: "bad auto dm", auto_dm });
        expectError(answer, 400, "invalid_parameter");
        assert.match(answer.body.error.message, /auto_dm/);
      }
    });
  });
});

describe("auto_dm slots and sending", () => {
  test("the month's posts_with_auto_dm cap strips it (auto_dm_skipped), the post is still saved, and removal returns the slot", async () => {
    // B is on the basic plan (its write bucket allows this test's writes in a minute).
    const key = harness.world.keys.throttled;
    const cap = PLANS.basic.dms!.postsWithAutoDm;
    const send = (method: string, path: string, body?: unknown) => transports(harness)[0].request(method, path, { key, body });
    const ids: string[] = [];
    for (let i = 0; i < cap; i++) {
      const answer = await send("POST", "/v1/scheduled-posts", { text: `Slot ${i}`, auto_dm: { message: "hi" } });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      assert.equal(answer.body.data.auto_dm?.attached, true);
      ids.push(answer.body.data.id);
    }
    const over = await send("POST", "/v1/scheduled-posts", { text: "One too many", auto_dm: { message: "hi" } });
    assert.equal(over.status, 201, JSON.stringify(over.body));
    assert.equal(over.body.data.auto_dm_skipped, true);
    assert.equal(over.body.data.auto_dm, null);
    assert.equal(over.body.data.parts[0].text, "One too many");
    // Removing one returns its slot: the next attaches.
    assert.equal((await send("PATCH", `/v1/scheduled-posts/${ids[0]}`, { auto_dm: null })).body.data.auto_dm, null);
    const again = await send("PATCH", `/v1/scheduled-posts/${over.body.data.id}`, { auto_dm: { message: "hi" } });
    assert.equal(again.body.data.auto_dm?.attached, true);
    assert.equal(again.body.data.auto_dm_skipped, undefined);
  });

  test("a plan without DMs strips it too", async () => {
    const answer = await transports(harness)[0].request("POST", "/v1/scheduled-posts", {
      key: harness.world.keys.trial,
      body: { text: "Trial post", auto_dm: { message: "hi" } },
    });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    assert.equal(answer.body.data.auto_dm_skipped, true);
  });

  test("after the post is sent, repliers and reposters are messaged once per post, at most max, never the account", async () => {
    const { sql } = harness.services;
    const main = harness.world.accounts.main;
    const created = await transports(harness)[0].request("POST", "/v1/scheduled-posts", {
      key: harness.world.keys.write,
      body: { text: `Sent with an auto DM ${Date.now()}`, scheduled_for: "now", auto_dm: { message: "Thanks [first]", triggers: ["reply", "repost"], max: 3 } },
      headers: { "Idempotency-Key": `auto-dm-${Date.now()}` },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.data.status, "sent");
    const postId = created.body.data.x_post_id as string;
    const [replier1, replier2, reposter, extra] = people.open(4);
    await sim().publishPost({ authorId: replier1, text: "Great post", replyToId: postId });
    await sim().publishPost({ authorId: main, text: "Thanks all", replyToId: postId });
    await sim().repost(reposter, postId);
    const clock = manualClock(Date.now());
    const deps = { sql, network: sim(), clock };
    assert.equal(await dispatchAutoDms(deps), 2);
    await sim().publishPost({ authorId: replier2, text: "Agreed", replyToId: postId });
    await sim().publishPost({ authorId: extra, text: "Me too", replyToId: postId });
    await sim().publishPost({ authorId: replier1, text: "Again", replyToId: postId });
    // Only one more fits under max 3; the repeat replier is not queued twice.
    assert.equal(await dispatchAutoDms(deps), 1);
    assert.equal(await dispatchAutoDms(deps), 0);
    const [campaign] = await sql<{ id: number; source: string }[]>`
      select c.id, c.source from dm_campaigns c where c.scheduled_post_id = ${Number(created.body.data.id)}`;
    assert.equal(campaign.source, "auto_dm");
    const result = await sendDueMessages(deps, main);
    assert.ok(result.sent >= 3);
    const rows = await sql<{ recipient_id: string; status: string; sent_text: string }[]>`
      select recipient_id, status, sent_text from dm_messages where campaign_id = ${campaign.id} order by id`;
    assert.equal(rows.length, 3);
    assert.ok(!rows.some((row) => row.recipient_id === main), "the account never messages itself");
    assert.deepEqual(new Set(rows.map((row) => row.recipient_id)).size, 3);
    assert.ok(rows.every((row) => row.status === "sent" && /^Thanks \S+$/.test(row.sent_text)));
    const read = await transports(harness)[0].request("GET", `/v1/dm/campaigns/${campaign.id}`, { key: harness.world.keys.write });
    assert.equal(read.body.data.source, "auto_dm");
    assert.equal(read.body.data.scheduled_post_id, Number(created.body.data.id));
  });

  test("in batch mode the people are queued together once an hour, the first batch an hour after sending", async () => {
    const { sql } = harness.services;
    const created = await transports(harness)[0].request("POST", "/v1/scheduled-posts", {
      key: harness.world.keys.write,
      body: { text: `Batched auto DM ${Date.now()}`, scheduled_for: "now", auto_dm: { message: "Thanks [first]", batch_mode: true } },
      headers: { "Idempotency-Key": `auto-dm-batch-${Date.now()}` },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const postId = created.body.data.x_post_id as string;
    const [first, second, third] = people.open(3);
    await sim().publishPost({ authorId: first, text: "Nice", replyToId: postId });
    await sim().publishPost({ authorId: second, text: "Agreed", replyToId: postId });
    const clock = manualClock(Date.now());
    const deps = { sql, network: sim(), clock };
    const queuedFor = async () => {
      const [row] = await sql<{ count: number }[]>`
        select count(*)::int as count from dm_messages m join dm_campaigns c on c.id = m.campaign_id
         where c.scheduled_post_id = ${Number(created.body.data.id)}`;
      return row.count;
    };
    await dispatchAutoDms(deps);
    assert.equal(await queuedFor(), 0, "nobody before the first hour");
    clock.advance(HOUR_MS + 1_000);
    await dispatchAutoDms(deps);
    assert.equal(await queuedFor(), 2, "the first batch holds both repliers");
    await sim().publishPost({ authorId: third, text: "Late to this", replyToId: postId });
    clock.advance(10 * 60_000);
    await dispatchAutoDms(deps);
    assert.equal(await queuedFor(), 2, "the next batch waits for the hour");
    clock.advance(HOUR_MS);
    await dispatchAutoDms(deps);
    assert.equal(await queuedFor(), 3);
  });
});
