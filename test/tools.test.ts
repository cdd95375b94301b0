/** Composer tools (spec Tools, rule 7, AI credits, Credit headers; supplement section 5). */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "./support/fake_openai_server.ts";
import { REPHRASE_TYPES } from "../core/model/model_task.ts";

let harness: Harness;
before(async () => {
  harness = await startHarness();
});
after(() => harness.close());

// Wordy and with grammar slips, so every type has something honest to change.
const POST = "So i basically think that shipping small, really small, is honestly the the best way to learn  fast.\n\nWe did it for a year and it worked";

describeMatrix(({ name, transport }) => {
  describe(`tools over ${name}`, () => {
    const post = (path: string, body: unknown, key = harness.world.keys.write) => transport(harness).request("POST", path, { key, body });

    test("every rephrase type answers text and its credits, except translate on the local engine", async () => {
      for (const type of REPHRASE_TYPES) {
        const answer = await post("/v1/tools/rephrase", { type, text: POST });
        if (type === "translate") {
          assert.equal(answer.status, 503, type);
          assert.equal(answer.body.error.code, "upstream_unavailable");
          assert.match(answer.body.error.message, /AI_BASE_URL/);
          assert.deepEqual(
            [answer.body.error.retryable, answer.body.error.capability, answer.body.error.requires],
            [false, "translate", "AI_BASE_URL and AI_MODEL"],
            "the envelope tells a program that retrying cannot help",
          );
          assert.equal(answer.headers.get("retry-after"), null);
          assert.equal(answer.headers.get("x-credits-charged"), "0", "refunded in full");
          continue;
        }
        assert.equal(answer.status, 200, type);
        assert.equal(typeof answer.body.data.text, "string");
        assert.notEqual(answer.body.data.text, POST, `${type} changed the text`);
        assert.equal(answer.body.meta.account_id, harness.world.accounts.main);
        assert.ok(answer.body.meta.credits_charged >= 1);
        assert.equal(answer.headers.get("x-credits-charged"), String(answer.body.meta.credits_charged));
        assert.match(answer.headers.get("x-credits-remaining") ?? "", /^\d+$/);
      }
    });

    test("hook rewrites only the first paragraph and keeps the rest", async () => {
      const answer = await post("/v1/tools/rephrase", { type: "hook", text: POST });
      const rest = POST.slice(POST.indexOf("\n\n"));
      assert.ok(answer.body.data.text.endsWith(rest));
      assert.notEqual(answer.body.data.text, POST);
    });

    test("inline-edit needs an instruction or an edit_type; factcheck answers a verdict", async () => {
      const missing = await post("/v1/tools/inline-edit", { text: "teh plan" });
      assert.equal(missing.status, 400);
      assert.equal(missing.body.error.code, "invalid_parameter");
      const edited = await post("/v1/tools/inline-edit", { text: "teh plan is good", edit_type: "grammar" });
      assert.equal(edited.status, 200);
      assert.match(edited.body.data.text, /^The plan is good/);
      const checked = await post("/v1/tools/factcheck", { text: "Water boils at 100 C at sea level." });
      assert.equal(checked.status, 200);
      assert.ok(["true", "false", "unknown"].includes(checked.body.data.result));
      assert.ok(Array.isArray(checked.body.data.sources));
    });

    test("invalid input answers 400 invalid_parameter and charges nothing", async () => {
      for (const body of [{ type: "poetic", text: "x" }, { type: "concise", text: "" }, { type: "concise", text: "x".repeat(25_001) }, { type: "concise" }]) {
        const answer = await post("/v1/tools/rephrase", body);
        assert.equal(answer.status, 400, JSON.stringify(body).slice(0, 60));
        assert.equal(answer.body.error.code, "invalid_parameter");
        assert.equal(answer.headers.get("x-credits-charged"), null);
      }
    });

    test("a read key, a shared account and an empty pool are refused with their codes", async () => {
      const readOnly = await post("/v1/tools/rephrase", { type: "concise", text: POST }, harness.world.keys.read);
      assert.equal(readOnly.status, 403);
      assert.equal(readOnly.body.error.code, "insufficient_scope");
      const shared = await post("/v1/tools/rephrase", { type: "concise", text: POST, account_id: harness.world.accounts.shared });
      assert.equal(shared.status, 403);
      assert.equal(shared.body.error.code, "writes_main_account_only");
      const broke = await post("/v1/tools/rephrase", { type: "concise", text: POST }, harness.world.keys.no_credits);
      assert.equal(broke.status, 429);
      assert.equal(broke.body.error.code, "ai_credits_exhausted");
      assert.equal(broke.body.error.credits_remaining, 0);
    });
  });
});

describe("with the model unreachable", () => {
  let failing: Harness;
  before(async () => {
    failing = await startHarness({ config: { faults: "ai" } });
  });
  after(() => failing.close());

  test("tools answer 503 upstream_unavailable and keep no credits", async () => {
    const answer = await transports(failing)[1].request("POST", "/v1/tools/rephrase", { key: failing.world.keys.write, body: { type: "concise", text: POST } });
    assert.equal(answer.status, 503);
    assert.equal(answer.body.error.code, "upstream_unavailable");
    assert.equal(answer.headers.get("x-credits-charged"), "0");
  });
});

describe("with an OpenAI-compatible model server", () => {
  let fake: FakeOpenAiServer;
  let remote: Harness;
  before(async () => {
    fake = await startFakeOpenAiServer();
    remote = await startHarness({ config: { aiBaseUrl: fake.baseUrl, aiApiKey: "sk-test", aiModel: "test-model" } });
  });
  after(async () => {
    await remote.close();
    await fake.close();
  });

  test("rephrase is written by the server, charged by its usage, and translate works", async () => {
    fake.script({ kind: "chat", text: "Ship small. Learn fast.", usage: { prompt_tokens: 2_000, completion_tokens: 1_000 } });
    const answer = await transports(remote)[1].request("POST", "/v1/tools/rephrase", { key: remote.world.keys.write, body: { type: "concise", text: POST } });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.data.text, "Ship small. Learn fast.");
    // 2,000 input tokens at 0.25 cents per 1K and 1,000 output at 1 cent: 1.5 cents, kept as 2 credits.
    assert.equal(answer.body.meta.credits_charged, 2);
    const request = fake.requests.at(-1)!;
    assert.equal(request.headers.authorization, "Bearer sk-test");
    assert.equal(request.body.model, "test-model");
    fake.script({ kind: "chat", text: "Hola" });
    const translated = await transports(remote)[1].request("POST", "/v1/tools/rephrase", {
      key: remote.world.keys.write,
      body: { type: "translate", text: "Hello" },
    });
    assert.equal(translated.status, 200);
    assert.equal(translated.body.data.text, "Hola");
  });

  test("a server error before output answers 502 upstream_error and refunds in full", async () => {
    fake.script({ kind: "status", status: 500 }, { kind: "status", status: 500 }, { kind: "status", status: 500 });
    const answer = await transports(remote)[1].request("POST", "/v1/tools/rephrase", { key: remote.world.keys.write, body: { type: "concise", text: POST } });
    assert.equal(answer.status, 502);
    assert.equal(answer.body.error.code, "upstream_error");
    assert.equal(answer.headers.get("x-credits-charged"), "0");
  });
});
