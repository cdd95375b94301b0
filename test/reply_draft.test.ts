/**
 * Reply drafts (docs/areas.md "Engage"; spec: Engage, rule 7, Limits 8, AI credits; supplement:
 * Engage reply-draft): exactly one of `post_id` (one unit of the daily live allowance, none
 * when cached) or `post` wording (none), `thoughts` and `tone` bounds, text only, credit
 * headers, and a full refund when the model fails before output (local engine, the `ai`
 * fault switch and the loopback OpenAI-compatible fake).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { expectError } from "./support/expect_error.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "./support/fake_openai_server.ts";
import { createContextInner } from "../core/context.ts";
import { consumeAllowances } from "../core/limits/allowances.ts";
import { LIVE_LOOKUPS } from "../core/limits/allowance_catalog.ts";

const POST = "We grew MRR 3x in 6 months by killing our free plan. Ask me anything about pricing.";
let harness: Harness;

before(async () => {
  harness = await startHarness();
});
after(() => harness.close());

async function liveLookupsUsed(h: Harness): Promise<number> {
  const ctx = createContextInner({ services: h.services });
  const outcome = await consumeAllowances(ctx, h.world.accounts.main, [{ spec: LIVE_LOOKUPS, units: 0 }]);
  assert.equal(outcome.status, "allowed");
  return outcome.status === "allowed" ? outcome.allowances[0].used : -1;
}

describeMatrix(({ index, name }) => {
  const send = (body: unknown, key = harness.world.keys.write) => transports(harness)[index].request("POST", "/v1/engage/reply-draft", { key, body });

  describe(`reply draft (${name})`, () => {
    test("post wording drafts a reply without the live allowance, with credit headers; nothing is posted", async () => {
      const used = await liveLookupsUsed(harness);
      const answer = await send({ post: POST, author_name: "Sam", author_handle: "@sam_saas", thoughts: "we tried the same", tone: "concise" });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.ok(answer.body.data.text.length > 0);
      assert.equal(answer.body.data.tone, "concise");
      assert.equal(answer.body.data.post_id, null);
      assert.equal(answer.body.meta.live_lookups, 0);
      assert.equal(answer.headers.get("x-credits-charged"), String(answer.body.meta.credits_charged));
      assert.match(answer.headers.get("x-credits-remaining") ?? "", /^\d+$/);
      assert.equal(await liveLookupsUsed(harness), used, "Limits 8: wording spends no live lookup");
      // The real service's CLI sends the wording and its author as one object.
      const cli = await send({ post: { text: POST, author_name: "Sam", author_handle: "sam_saas" }, tone: "concise" });
      assert.equal(cli.status, 200, JSON.stringify(cli.body));
      assert.deepEqual([cli.body.data.tone, cli.body.data.post_id, cli.body.meta.live_lookups], ["concise", null, 0]);
    });

    test("post_id reads the post live for one unit of the daily allowance; a repeat within 15 minutes is free", async () => {
      assert.ok(harness.world.x);
      // Each transport drafts for a different post, so the first read is never cached.
      const postId = index === 0 ? harness.world.x.post_id : harness.world.x.large_post_id;
      const used = await liveLookupsUsed(harness);
      const answer = await send({ post_id: postId });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.data.post_id, postId);
      assert.equal(answer.body.data.tone, "engaging", "the default tone");
      assert.equal(answer.body.meta.live_lookups, 1);
      assert.equal(await liveLookupsUsed(harness), used + 1);
      const again = await send({ post_id: postId, tone: "humorous" });
      assert.equal(again.status, 200, JSON.stringify(again.body));
      assert.equal(again.body.meta.live_lookups, 0);
      assert.equal(await liveLookupsUsed(harness), used + 1, "cached: no second unit");
      expectError(await send({ post_id: "1" }), 404, "post_not_found");
    });

    test("neither or both sources, a bad tone, long thoughts or a bad handle are 400 invalid_parameter, with no credit charged", async () => {
      const bad = [
        {},
        { post: POST, post_id: "20" },
        { post: POST, tone: "angry" },
        { post: POST, thoughts: "t".repeat(2_001) },
        { post: POST, author_handle: "not a handle" },
        { post: "" },
        { post_id: "abc" },
        { post: 7 },
        { post: { author_name: "Sam" } },
        { post: { text: POST, author_handle: "not a handle" } },
        { post: { text: POST, likes: 3 } },
        { post: { text: POST }, author_handle: "sam_saas" },
      ];
      for (const body of bad) {
        const answer = await send(body);
        expectError(answer, 400, "invalid_parameter");
        assert.notEqual(answer.headers.get("x-credits-charged"), "1");
      }
      const ok = await send({ post: POST, thoughts: "t".repeat(2_000), tone: "inspirational" });
      assert.equal(ok.status, 200, "2,000 characters of thoughts are allowed");
      expectError(await send({ post: POST }, harness.world.keys.read), 403, "insufficient_scope");
      expectError(await send({ post: POST, account_id: harness.world.accounts.shared }), 403, "writes_main_account_only");
    });
  });
});

describe("reply draft with the model failing", () => {
  let failing: Harness;
  let fake: FakeOpenAiServer;
  let remote: Harness;
  before(async () => {
    failing = await startHarness({ config: { faults: "ai" } });
    fake = await startFakeOpenAiServer();
    remote = await startHarness({ config: { aiBaseUrl: fake.baseUrl, aiApiKey: "sk-test", aiModel: "test-model" } });
  });
  after(async () => {
    await failing.close();
    await remote.close();
    await fake.close();
  });

  test("an unreachable model is 503 upstream_unavailable and keeps no credits", async () => {
    const answer = await transports(failing)[1].request("POST", "/v1/engage/reply-draft", { key: failing.world.keys.write, body: { post: POST } });
    expectError(answer, 503, "upstream_unavailable");
    assert.equal(answer.body.error.retryable, undefined, "an outage is safe to retry: no retryable: false");
    assert.equal(answer.headers.get("x-credits-charged"), "0");
  });

  test("the model server writes the draft in the account's voice with the tone asked; a server error refunds in full", async () => {
    fake.script({ kind: "chat", text: "Killing the free plan takes nerve. What happened to signups?" });
    const answer = await transports(remote)[1].request("POST", "/v1/engage/reply-draft", {
      key: remote.world.keys.write,
      body: { post: POST, author_handle: "sam_saas", thoughts: "ask about signups", tone: "sarcastic" },
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.data.text, "Killing the free plan takes nerve. What happened to signups?");
    const prompt = JSON.stringify(fake.requests.at(-1)?.body);
    assert.match(prompt, /Sarcastic/);
    assert.match(prompt, /ask about signups/);
    assert.match(prompt, /@sam_saas/);
    fake.script({ kind: "chat", text: "Bold move." });
    const fromCli = await transports(remote)[0].request("POST", "/v1/engage/reply-draft", {
      key: remote.world.keys.write,
      body: { post: { text: POST, author_name: "Sam Saas", author_handle: "@founder_sam" } },
    });
    assert.equal(fromCli.status, 200, JSON.stringify(fromCli.body));
    const cliPrompt = JSON.stringify(fake.requests.at(-1)?.body);
    assert.match(cliPrompt, /@founder_sam/, "the author inside post reaches the model");
    assert.match(cliPrompt, /Sam Saas/);
    fake.script({ kind: "status", status: 500 }, { kind: "status", status: 500 }, { kind: "status", status: 500 });
    const broken = await transports(remote)[1].request("POST", "/v1/engage/reply-draft", { key: remote.world.keys.write, body: { post: POST } });
    expectError(broken, 502, "upstream_error");
    assert.equal(broken.headers.get("x-credits-charged"), "0");
  });
});
