/**
 * The OpenAI-compatible client against a loopback fake server (test/support/
 * fake_openai_server.ts), never a mocked module: request shape, usage -> credits,
 * retries that honour Retry-After within bounds, the error mapping, bounded timeouts,
 * images; then the wiring: adapter choice from the configuration and THREADLINE_FAULTS=ai.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { startFakeOpenAiServer, TINY_PNG_BASE64, type FakeOpenAiServer } from "./support/fake_openai_server.ts";
import { startHarness } from "./support/harness.ts";
import { createOpenAiCompatibleModel, type OpenAiCompatibleOptions } from "../adapters/ai/openai_compatible/openai_compatible_model.ts";
import { openModel } from "../adapters/ai/open_model.ts";
import { configFromEnv } from "../adapters/runtime/config.ts";
import { ModelCapabilityError, ModelFailedError, ModelTimeoutError, ModelUnavailableError } from "../core/model/model_errors.ts";
import { modelApiError } from "../core/model/model_api_error.ts";
import { voiceProfile } from "../core/model/voice_profile.ts";

let fake: FakeOpenAiServer;
before(async () => {
  fake = await startFakeOpenAiServer();
});
after(() => fake.close());

/** A client of the fake with fast retries; each case reads only the requests it caused. */
function client(options: Partial<OpenAiCompatibleOptions> = {}) {
  return createOpenAiCompatibleModel({ baseUrl: fake.baseUrl, apiKey: "sk-test", model: "gpt-test", retryBaseDelayMs: 10, ...options });
}

async function sent<T>(run: () => Promise<T>): Promise<{ result: T; requests: FakeOpenAiServer["requests"] }> {
  const from = fake.requests.length;
  const result = await run();
  return { result, requests: fake.requests.slice(from) };
}

describe("chat completions", () => {
  test("sends the model, the task's messages, max_tokens, temperature and the Bearer key", async () => {
    fake.script({ kind: "chat", text: "Tightened post." });
    const voice = voiceProfile(["folks ship fast 🚀", "folks ship daily 🚀"]);
    const { result, requests } = await sent(() => client().generate({ task: "concise", input: { text: "A very long post.", voice } }));
    assert.equal(result.text, "Tightened post.");
    assert.equal(requests.length, 1);
    const [request] = requests;
    assert.equal(request.method, "POST");
    assert.equal(request.path, "/v1/chat/completions");
    assert.equal(request.headers.authorization, "Bearer sk-test");
    assert.match(String(request.headers["content-type"]), /^application\/json/);
    assert.equal(request.body.model, "gpt-test");
    assert.equal(request.body.max_tokens, 700);
    assert.equal(request.body.temperature, 0.2);
    assert.deepEqual(
      request.body.messages.map((message: { role: string }) => message.role),
      ["system", "user"],
    );
    assert.match(request.body.messages[0].content, /Make the post shorter/);
    assert.match(request.body.messages[1].content, /A very long post\./);
    // concise leaves the voice alone; a style preset carries it.
    assert.doesNotMatch(request.body.messages[0].content, /own voice/);
    fake.script({ kind: "chat", text: "Fun post." });
    const styled = await sent(() => client().generate({ task: "humorous", input: { text: "A post.", voice }, maxTokens: 50, temperature: 1 }));
    assert.match(styled.requests[0].body.messages[0].content, /own voice.*all lowercase.*favourite words: folks/s);
    assert.deepEqual([styled.requests[0].body.max_tokens, styled.requests[0].body.temperature], [50, 1]);
  });

  test("usage becomes credits at the configured prices, rounded up", async () => {
    fake.script({ kind: "chat", text: "x", usage: { prompt_tokens: 1000, completion_tokens: 500 }, model: "gpt-test-2026" });
    const cheap = await client().generate({ task: "grammar", input: { text: "hi" } });
    // 1000 * 0.25 / 1000 + 500 * 1 / 1000 = 0.75 cents -> 1 credit.
    assert.deepEqual([cheap.usage, cheap.costCredits, cheap.model], [{ inputTokens: 1000, outputTokens: 500 }, 1, "gpt-test-2026"]);
    fake.script({ kind: "chat", text: "x", usage: { prompt_tokens: 1000, completion_tokens: 500 } });
    const dear = await client({ prices: { inputPer1K: 2, outputPer1K: 4.5, image: 4 } }).generate({ task: "grammar", input: { text: "hi" } });
    // 2 + 2.25 = 4.25 cents -> 5 credits.
    assert.equal(dear.costCredits, 5);
    fake.script({ kind: "chat", text: "answer without usage", usage: null });
    const estimated = await client().generate({ task: "grammar", input: { text: "hi" } });
    assert.ok(estimated.usage.inputTokens > 0 && estimated.usage.outputTokens === 5 && estimated.costCredits === 1);
  });

  test("hook answers go ahead of the unchanged rest, whatever the model returns", async () => {
    const post = "Old first paragraph.\n\nSecond paragraph stays.\n\n- and the list";
    fake.script({ kind: "chat", text: "  A brand new hook.\n" });
    const { result, requests } = await sent(() => client().generate({ task: "hook", input: { text: post } }));
    assert.equal(result.text, "A brand new hook.\n\nSecond paragraph stays.\n\n- and the list");
    assert.match(requests[0].body.messages[1].content, /First paragraph \(rewrite this\):\n<data>\nOld first paragraph\./);
  });

  test("structured answers are validated and normalised; a malformed one fails (refunded)", async () => {
    fake.script({ kind: "chat", text: 'Sure!\n```json\n{"keywords": ["b2b saas", "hiring"]}\n```' });
    const ok = await client().generate({ task: "keyword_suggestion", input: { icp: "founders", vocabulary: ["b2b saas"] } });
    assert.equal(ok.text, '{"keywords":["b2b saas","hiring"]}');
    fake.script({ kind: "chat", text: "I think the keywords are saas and hiring" });
    await assert.rejects(() => client().generate({ task: "keyword_suggestion", input: { icp: "founders", vocabulary: [] } }), ModelFailedError);
  });
});

describe("failures", () => {
  test("429 with Retry-After is retried after the wait it asks for, then succeeds", async () => {
    fake.script({ kind: "status", status: 429, headers: { "Retry-After": "1" } }, { kind: "chat", text: "After the wait." });
    const { result, requests } = await sent(() => client({ maxRetryDelayMs: 2000 }).generate({ task: "grammar", input: { text: "hi" } }));
    assert.equal(result.text, "After the wait.");
    assert.equal(requests.length, 2);
    const waited = requests[1].at - requests[0].at;
    assert.ok(waited >= 950 && waited < 3000, `waited ${waited} ms`);
  });

  test("a Retry-After beyond the bound is not waited for: 503 at once, carrying the provider's Retry-After", async () => {
    fake.script({ kind: "status", status: 429, headers: { "Retry-After": "120" } });
    const started = Date.now();
    const { requests, result } = await sent(() =>
      client({ maxRetryDelayMs: 2000 })
        .generate({ task: "grammar", input: { text: "hi" } })
        .catch((error: unknown) => error),
    );
    assert.ok(Date.now() - started < 1000);
    assert.equal(requests.length, 1);
    assert.ok(result instanceof ModelUnavailableError && result.reason === "rate_limited" && result.retryAfterSeconds === 120);
    const api = modelApiError(result);
    assert.deepEqual([api?.status, api?.code, api?.headers["Retry-After"]], [503, "upstream_unavailable", "120"]);
  });

  test("500 is retried, then fails as 502 upstream_error", async () => {
    fake.script({ kind: "status", status: 500 }, { kind: "status", status: 502 }, { kind: "status", status: 500 });
    const { requests, result } = await sent(() =>
      client()
        .generate({ task: "grammar", input: { text: "hi" } })
        .catch((error: unknown) => error),
    );
    assert.equal(requests.length, 3, "one try and two retries");
    assert.ok(result instanceof ModelFailedError && result.status === 500);
    assert.deepEqual([modelApiError(result)?.status, modelApiError(result)?.code], [502, "upstream_error"]);
    assert.doesNotMatch(result.message, /Scripted/, "the provider's body stays out of the client's message");
  });

  test("401 is a configuration error, not retried", async () => {
    fake.script({ kind: "status", status: 401, body: { error: { message: "Incorrect API key provided: sk-t***" } } });
    const { requests, result } = await sent(() =>
      client()
        .generate({ task: "grammar", input: { text: "hi" } })
        .catch((error: unknown) => error),
    );
    assert.equal(requests.length, 1);
    assert.ok(result instanceof ModelUnavailableError && result.reason === "config");
    assert.match(result.message, /AI_API_KEY/);
    assert.doesNotMatch(result.message, /sk-t/);
  });

  test("a server that never answers is cut off at the time bound", async () => {
    fake.script({ kind: "hang" });
    const started = Date.now();
    await assert.rejects(
      () => client({ timeoutMs: 200 }).generate({ task: "grammar", input: { text: "hi" } }),
      (error: unknown) => error instanceof ModelTimeoutError && error.timeoutMs === 200 && modelApiError(error)?.code === "upstream_timeout",
    );
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 190 && elapsed < 1000, `${elapsed} ms`);
  });

  test("the bound covers retries too: a per-call timeout ends a retry loop", async () => {
    fake.script({ kind: "status", status: 500 }, { kind: "hang" });
    const started = Date.now();
    await assert.rejects(() => client().generate({ task: "grammar", input: { text: "hi" }, timeoutMs: 300 }), ModelTimeoutError);
    assert.ok(Date.now() - started < 1000);
  });

  test("malformed JSON fails without a retry; an empty answer fails too", async () => {
    fake.script({ kind: "malformed" });
    const { requests, result } = await sent(() =>
      client()
        .generate({ task: "grammar", input: { text: "hi" } })
        .catch((error: unknown) => error),
    );
    assert.equal(requests.length, 1);
    assert.ok(result instanceof ModelFailedError);
    assert.match(result.message, /malformed JSON/);
    fake.script({ kind: "chat", text: "   " });
    await assert.rejects(() => client().generate({ task: "grammar", input: { text: "hi" } }), ModelFailedError);
  });

  test("a caller that gives up cancels the call", async () => {
    fake.script({ kind: "hang" });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(
      () => client().generate({ task: "grammar", input: { text: "hi" }, signal: controller.signal }),
      (error: unknown) => error instanceof ModelFailedError && /cancelled/.test(error.message),
    );
  });

  test("no server listening is unavailable", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const model = createOpenAiCompatibleModel({ baseUrl: `http://127.0.0.1:${port}/v1`, model: "m" });
    await assert.rejects(
      () => model.generate({ task: "grammar", input: { text: "hi" } }),
      (error: unknown) => error instanceof ModelUnavailableError && error.reason === "unreachable",
    );
  });
});

describe("images", () => {
  test("b64_json becomes PNG bytes, priced per image", async () => {
    fake.script({ kind: "image" });
    const { result, requests } = await sent(() => client({ imageModel: "dall-e-3" }).generateImage({ prompt: "A calm cover", size: "1792x1024" }));
    assert.deepEqual(Buffer.from(result.bytes), Buffer.from(TINY_PNG_BASE64, "base64"));
    assert.deepEqual([result.mimeType, result.costCredits, result.model], ["image/png", 4, "dall-e-3"]);
    assert.equal(requests[0].path, "/v1/images/generations");
    assert.equal(requests[0].headers.authorization, "Bearer sk-test");
    assert.deepEqual(requests[0].body, { model: "dall-e-3", prompt: "A calm cover", n: 1, size: "1792x1024", response_format: "b64_json" });
  });

  test("GPT image models get no response_format; no image model is a capability error; a non-PNG fails", async () => {
    fake.script({ kind: "image" });
    const { requests } = await sent(() => client({ imageModel: "gpt-image-1" }).generateImage({ prompt: "p" }));
    assert.equal("response_format" in requests[0].body, false);
    assert.equal(requests[0].body.size, "1536x1024");
    await assert.rejects(
      () => client().generateImage({ prompt: "p" }),
      (error: unknown) => error instanceof ModelCapabilityError && /AI_IMAGE_MODEL/.test(error.message),
    );
    fake.script({ kind: "image", b64: Buffer.from("GIF89a not a png").toString("base64") });
    await assert.rejects(() => client({ imageModel: "dall-e-3" }).generateImage({ prompt: "p" }), ModelFailedError);
  });
});

describe("wiring", () => {
  test("openModel picks the adapter from the configuration and refuses a broken one", () => {
    assert.equal(openModel({}).engine, "local");
    assert.equal(openModel({ aiBaseUrl: fake.baseUrl, aiModel: "m" }).engine, "openai_compatible");
    assert.equal(openModel({ aiBaseUrl: fake.baseUrl, aiModel: "m" }, true).engine, "faulty");
    assert.throws(() => openModel({ aiBaseUrl: fake.baseUrl }), /AI_MODEL/);
    assert.throws(() => openModel({ aiBaseUrl: fake.baseUrl, aiModel: "m", aiPriceInputPer1K: Number("abc") }), /AI_PRICE_INPUT_PER_1K/);
  });

  test("configFromEnv reads the AI_* variables", () => {
    const config = configFromEnv({
      AI_BASE_URL: "https://llm.example/v1",
      AI_API_KEY: "k",
      AI_MODEL: "m",
      AI_IMAGE_MODEL: "i",
      AI_PRICE_INPUT_PER_1K: "0.5",
      AI_PRICE_OUTPUT_PER_1K: "2",
      AI_PRICE_IMAGE: "8",
      AI_TIMEOUT_MS: "30000",
    });
    assert.deepEqual(
      [
        config.aiBaseUrl,
        config.aiApiKey,
        config.aiModel,
        config.aiImageModel,
        config.aiPriceInputPer1K,
        config.aiPriceOutputPer1K,
        config.aiPriceImage,
        config.aiTimeoutMs,
      ],
      ["https://llm.example/v1", "k", "m", "i", 0.5, 2, 8, 30_000],
    );
  });

  test("a Threadline configured with AI_BASE_URL talks to that server through Services", async () => {
    const harness = await startHarness({ config: { aiBaseUrl: fake.baseUrl, aiApiKey: "sk-wired", aiModel: "wired-model" } });
    try {
      fake.script({ kind: "chat", text: "Wired." });
      const { result, requests } = await sent(() => harness.services.model.generate({ task: "grammar", input: { text: "hi" } }));
      assert.equal(result.text, "Wired.");
      assert.deepEqual([requests[0].headers.authorization, requests[0].body.model], ["Bearer sk-wired", "wired-model"]);
    } finally {
      await harness.close();
    }
  });

  test("THREADLINE_FAULTS=ai makes every model call fail as unavailable (503, refunded)", async () => {
    const harness = await startHarness({ config: { faults: "ai" } });
    try {
      const { model } = harness.services;
      for (const call of [() => model.generate({ task: "grammar", input: { text: "hi" } }), () => model.generateImage({ prompt: "p" })]) {
        await assert.rejects(call, (error: unknown) => {
          assert.ok(error instanceof ModelUnavailableError && error.reason === "fault");
          assert.deepEqual([modelApiError(error)?.status, modelApiError(error)?.code], [503, "upstream_unavailable"]);
          return true;
        });
      }
    } finally {
      await harness.close();
    }
  });
});
