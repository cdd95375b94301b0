/** The model tools write with the account's context: its rules (docs/operations.md "The outside world": voice, rules and products). */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "./support/fake_openai_server.ts";
import { applyAccountRules } from "../adapters/ai/local/account_rules.ts";

test("the local engine applies the formatting rules it can check and leaves the rest", () => {
  const text = "Shipped it! 🚀 #buildinpublic #saas Big week";
  assert.equal(applyAccountRules(text, "No hashtags. No emoji."), "Shipped it! buildinpublic saas Big week");
  assert.equal(applyAccountRules(text, "Always credit sources"), text);
  assert.equal(applyAccountRules("Big WEEK", "write in lowercase"), "big week");
});

describe("rules through the endpoints", () => {
  let harness: Harness;
  let fake: FakeOpenAiServer;
  let remote: Harness;
  before(async () => {
    harness = await startHarness();
    fake = await startFakeOpenAiServer();
    remote = await startHarness({ config: { aiBaseUrl: fake.baseUrl, aiModel: "test-model" } });
  });
  after(async () => {
    await remote.close();
    await fake.close();
    await harness.close();
  });

  test("the local engine's rephrase follows the account's no-hashtag rule", async () => {
    const [transport] = transports(harness);
    const key = harness.world.keys.write;
    const text = "We shipped the new scheduler today #buildinpublic #devtools";
    const before = await transport.request("POST", "/v1/tools/rephrase", { key, body: { type: "concise", text } });
    assert.match(before.body.data.text, /#buildinpublic/);
    await transport.request("PATCH", "/v1/context", { key, body: { rules: "No hashtags, ever." } });
    const after = await transport.request("POST", "/v1/tools/rephrase", { key, body: { type: "concise", text } });
    assert.equal(after.status, 200);
    assert.doesNotMatch(after.body.data.text, /#/);
  });

  test("a remote model is told the rules, the products and the voice", async () => {
    const [transport] = transports(remote);
    const key = remote.world.keys.write;
    await transport.request("PATCH", "/v1/context", { key, body: { rules: "Never mention competitors." } });
    fake.script({ kind: "chat", text: "A remix." });
    const answer = await transport.request("POST", "/v1/posts/remix", { key, body: { text: "Our scheduler beats the rest.", closeness: 50 } });
    assert.equal(answer.status, 200);
    const system = fake.requests.at(-1)!.body.messages.find((message: any) => message.role === "system").content;
    assert.match(system, /Never mention competitors/);
    assert.match(system, /Threadline Scheduler/, "the demo products");
    assert.match(system, /own voice/);
  });
});
