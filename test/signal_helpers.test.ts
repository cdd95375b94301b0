/**
 * The free ICP helpers (docs/areas.md "Signals"; spec AI credits: "Free AI calls"; supplement
 * Signals): keywords/suggest, icp/expand, icp/expand-from-url.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startHarness, transports, type Answer, type Harness } from "./support/harness.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { completeKeywords, expandIcp, type IcpHelperServices, rubricOf, suggestKeywords } from "../core/signals/icp_helpers.ts";
import { ApiError } from "../core/errors.ts";
import { createOpenAiCompatibleModel } from "../adapters/ai/openai_compatible/openai_compatible_model.ts";
import { startFakeOpenAiServer } from "./support/fake_openai_server.ts";
import { manualClock } from "./support/manual_clock.ts";
import { icpOfPage } from "../core/signals/icp_from_url.ts";

const SUGGEST = "/v1/signals/keywords/suggest";
const EXPAND = "/v1/signals/icp/expand";
const FROM_URL = "/v1/signals/icp/expand-from-url";
const ICP = "B2B SaaS founders struggling with churn";

let site: Server;
let siteUrl = "";
before(async () => {
  site = createServer((request, response) => {
    if (request.url === "/product") {
      response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(
        `<html><head><title>Churnless</title><meta name="description" content="Churn analytics for B2B SaaS founders"></head>
         <body><h1>Churnless</h1><h2>Predict churn before it happens</h2><ul><li>Retention dashboards</li></ul></body></html>`,
      );
    } else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => site.close(() => resolve())));

function assertFree(answer: Answer, label: string): void {
  assert.equal(answer.headers.get("x-credits-charged"), null, `${label}: a free call sends no X-Credits-Charged`);
  assert.match(answer.headers.get("x-credits-remaining") ?? "", /^\d+$/, `${label}: X-Credits-Remaining`);
  assert.ok(answer.headers.get("x-credits-reset"), `${label}: X-Credits-Reset`);
}

function assertInvalid(answer: Answer, field: string): void {
  assert.equal(answer.status, 400, JSON.stringify(answer.body));
  assert.equal(answer.body.error.code, "invalid_parameter");
  assert.match(answer.body.error.message, new RegExp(field));
}

describe("keyword completion and rubric points (core)", () => {
  test("completeKeywords keeps the model's ideas and completes a short answer from the ICP's own phrases", () => {
    assert.deepEqual(completeKeywords(["churn"], ICP, 3), ["churn", "B2B SaaS founders"]);
    assert.deepEqual(completeKeywords(["churn", "CHURN ", " retention"], ICP, 3), ["churn", "retention"]);
    assert.deepEqual(completeKeywords(["a", "b", "c", "d"], ICP, 3), ["a", "b", "c"]);
    assert.deepEqual(completeKeywords([], "dentists", 3), ["dentists", "#dentists"], "a one-word ICP adds its hashtag");
    assert.deepEqual(completeKeywords(["x".repeat(181)], "dentists", 3), ["dentists", "#dentists"], "an idea over 180 characters cannot be a keyword_watch");
    assert.deepEqual(completeKeywords(["churn"], ICP, 1), ["churn"]);
  });

  test("rubric points: must-haves share 70 and nice-to-haves 30, or must-haves 100 alone", () => {
    const base = { description: "d", keywords: [], roles: [], disqualifiers: [] };
    const both = rubricOf({ ...base, must_have: ["a", "b", "c"], nice_to_have: ["d", "e", "f", "g"] }, ICP);
    assert.deepEqual(
      both.scoring.map((row) => row.points),
      [24, 23, 23, 8, 8, 7, 7],
    );
    const alone = rubricOf({ ...base, must_have: ["a", "b", "c"], nice_to_have: [] }, ICP);
    assert.deepEqual(
      alone.scoring.map((row) => row.points),
      [34, 33, 33],
    );
    const none = rubricOf({ ...base, must_have: [], nice_to_have: [] }, ICP);
    assert.deepEqual(none.scoring, [{ criterion: `Matches "${ICP}"`, points: 100 }]);
    assert.deepEqual(both.thresholds, { high: 70, discovery: 50 });
  });

  test("icpOfPage draws from the title, description and headings, within 500 characters", () => {
    const page = { url: "u", title: "Churnless", description: "Churn analytics.", highlights: ["Churnless", "Predict churn"], text: "" };
    assert.equal(icpOfPage(page), "People interested in Churnless. Churn analytics. Topics: Predict churn");
    const long = icpOfPage({ ...page, description: "word ".repeat(200) }) ?? "";
    assert.ok(long.length <= 500 && long.length > 400, String(long.length));
    assert.equal(icpOfPage({ url: "u", title: null, description: null, highlights: [], text: "  " }), null);
  });
});

describe("the helpers over an OpenAI-compatible model (loopback fake)", () => {
  let fake: Awaited<ReturnType<typeof startFakeOpenAiServer>>;
  let services: IcpHelperServices;
  before(async () => {
    fake = await startFakeOpenAiServer();
    const model = createOpenAiCompatibleModel({ baseUrl: fake.baseUrl, apiKey: "sk-test", model: "gpt-test", retryBaseDelayMs: 10 });
    // Only the vocabulary of the network is read.
    services = { model, network: { vocabulary: () => ["churn", "pricing"] } as unknown as IcpHelperServices["network"] };
  });
  after(() => fake.close());

  test("one keyword from the model is completed from the ICP; the vocabulary is sent", async () => {
    fake.script({ kind: "chat", text: '{"keywords": ["churn"]}' });
    const from = fake.requests.length;
    assert.deepEqual(await suggestKeywords(services, ICP), ["churn", "B2B SaaS founders"]);
    assert.match(JSON.stringify(fake.requests[from].body), /churn, pricing/);
  });

  test("an expansion without rubric criteria still gives a rubric of 100 points; a malformed one is 502 upstream_error", async () => {
    fake.script({ kind: "chat", text: '{"description": "Founders.", "keywords": ["churn"], "roles": ["founders"]}' });
    const rubric = await expandIcp(services, ICP);
    assert.deepEqual(rubric.scoring, [{ criterion: `Matches "${ICP}"`, points: 100 }]);
    assert.deepEqual([rubric.roles, rubric.disqualifiers], [["founders"], []]);
    fake.script({ kind: "chat", text: "Founders, I think." });
    await assert.rejects(expandIcp(services, ICP), (error: unknown) => error instanceof ApiError && error.status === 502 && error.code === "upstream_error");
  });
});

describe("POST /v1/signals/keywords/suggest and /v1/signals/icp/expand", () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(() => harness.close());

  describeMatrix(({ name: transport }) => {
    const post = (path: string, body: unknown, key = harness.world.keys.write) =>
      transports(harness)
        .find((t) => t.name === transport)!
        .request("POST", path, { key, body });

    test(`[${transport}] suggest answers 2 or 3 keywords from the world's vocabulary, free`, async () => {
      const answer = await post(SUGGEST, { icp_description: ICP });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const { keywords } = answer.body.data;
      assert.ok(keywords.length >= 2 && keywords.length <= 3, keywords.join());
      assert.equal(keywords[0], "churn", "the vocabulary's best match comes first");
      assertFree(answer, "suggest");
    });

    test(`[${transport}] suggest completes a short model answer from the ICP's words, never inventing`, async () => {
      const one = await post(SUGGEST, { icp_description: "dentists" });
      assert.deepEqual(one.body.data.keywords, ["dentists", "#dentists"]);
      const indie = await post(SUGGEST, { icp_description: "indie game developers" });
      assert.ok(indie.body.data.keywords.length >= 2, indie.body.data.keywords.join());
      assert.ok(indie.body.data.keywords.includes("indie game developers"), indie.body.data.keywords.join());
    });

    test(`[${transport}] expand answers a rubric whose points add up to 100`, async () => {
      const answer = await post(EXPAND, { icp_description: `${ICP}, not agencies` });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const { icp_description, rubric } = answer.body.data;
      assert.equal(icp_description, `${ICP}, not agencies`);
      assert.ok(rubric.roles.includes("founders"));
      assert.ok(rubric.must_have.includes("Role: founders, co-founders, CEOs"), rubric.must_have.join(" | "));
      assert.ok(rubric.must_have.includes("Segment: B2B SaaS"), rubric.must_have.join(" | "));
      assert.ok(rubric.must_have.includes('States the need: "struggling with churn"'), rubric.must_have.join(" | "));
      assert.deepEqual(rubric.disqualifiers, ["Is agencies"]);
      assert.ok(rubric.keywords.includes("churn"));
      assert.equal(
        rubric.scoring.reduce((sum: number, row: { points: number }) => sum + row.points, 0),
        100,
      );
      assert.deepEqual(rubric.thresholds, { high: 70, discovery: 50 });
      assertFree(answer, "expand");
    });

    test(`[${transport}] icp_description of 2 or 501 characters, or without a searchable word, answers 400 invalid_parameter naming it`, async () => {
      for (const path of [SUGGEST, EXPAND]) {
        for (const icp of ["ab", "x".repeat(501), "and the", "y".repeat(51), 42]) assertInvalid(await post(path, { icp_description: icp }), "icp_description");
        assertInvalid(await post(path, {}), "icp_description");
        assert.equal((await post(path, { icp_description: "abc" })).status, 200, "3 characters are enough");
        assert.equal((await post(path, { icp_description: ` ${"churn ".repeat(83)}  ` })).status, 200, "trimmed to 497");
      }
    });

    test(`[${transport}] a read-scope key answers 403 insufficient_scope`, async () => {
      for (const [path, body] of [
        [SUGGEST, { icp_description: ICP }],
        [EXPAND, { icp_description: ICP }],
        [FROM_URL, { url: "https://shop.example/churn" }],
      ] as const) {
        const answer = await post(path, body, harness.world.keys.read);
        assert.equal(answer.status, 403, path);
        assert.equal(answer.body.error.code, "insufficient_scope", path);
      }
    });

    test(`[${transport}] another user's account answers 404 account_not_found`, async () => {
      const answer = await post(SUGGEST, { icp_description: ICP, account_id: harness.world.accounts.other_user });
      assert.equal(answer.status, 404);
      assert.equal(answer.body.error.code, "account_not_found");
    });
  });
});

describe("the helpers when the model is unreachable", () => {
  let failing: Harness;
  before(async () => {
    failing = await startHarness({ config: { faults: "ai" } });
  });
  after(() => failing.close());

  test("all three answer 503 upstream_unavailable, still without X-Credits-Charged", async () => {
    for (const [path, body] of [
      [SUGGEST, { icp_description: ICP }],
      [EXPAND, { icp_description: ICP }],
      [FROM_URL, { url: "https://shop.example/churn" }],
    ] as const) {
      const answer = await transports(failing)[0].request("POST", path, { key: failing.world.keys.write, body });
      assert.equal(answer.status, 503, path);
      assert.equal(answer.body.error.code, "upstream_unavailable", path);
      assert.equal(answer.headers.get("x-credits-charged"), null, path);
    }
  });
});

describe("POST /v1/signals/icp/expand-from-url", () => {
  let harness: Harness;
  const clock = manualClock(Date.now());
  before(async () => {
    harness = await startHarness({ config: { outboundAllowHosts: "127.0.0.1", clock } });
  });
  after(() => harness.close());
  // Every case of the write key counts towards its 10 calls in 10 minutes: 8 here, the rate test uses another owner.
  const post = (body: unknown, key = harness.world.keys.write, transport = 1) => transports(harness)[transport].request("POST", FROM_URL, { key, body });

  test("reads the page and answers an ICP drawn from it, its rubric and 2 or 3 keyword ideas, free", async () => {
    for (const transport of [0, 1]) {
      const answer = await post({ url: `${siteUrl}/product#pricing` }, harness.world.keys.write, transport);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const { data } = answer.body;
      assert.equal(data.url, `${siteUrl}/product`);
      assert.equal(data.page_title, "Churnless");
      assert.equal(
        data.icp_description,
        "People interested in Churnless. Churn analytics for B2B SaaS founders. Topics: Predict churn before it happens; Retention dashboards",
      );
      assert.ok(data.keywords.length >= 2 && data.keywords.length <= 3, data.keywords.join());
      assert.ok(data.keywords.includes("churn"), data.keywords.join());
      assert.ok(data.rubric.must_have.includes("Role: founders, co-founders, CEOs"), data.rubric.must_have.join(" | "));
      assertFree(answer, "expand-from-url");
    }
  });

  test("a page that cannot be read answers 422 scrape_failed", async () => {
    const missing = await post({ url: `${siteUrl}/missing` });
    assert.equal(missing.status, 422);
    assert.equal(missing.body.error.code, "scrape_failed");
    const unreachable = await post({ url: "https://gone.invalid/" });
    assert.equal(unreachable.status, 422);
    assert.equal(unreachable.body.error.code, "scrape_failed");
  });

  test("a private address is refused by the SSRF guard: 400 url_not_allowed", async () => {
    const refused = await post({ url: "https://10.0.0.1/pricing" });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.code, "url_not_allowed");
  });

  test("a bare domain is the https page the user means (the real CLI's own example: --url superx.so)", async () => {
    const answer = await post({ url: "shop.example/churn" });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.data.url, "https://shop.example/churn");
    assert.equal(answer.body.data.keywords[0], "churn");
  });

  test("a value that is not an http(s) URL answers 400 invalid_parameter naming url (no call counted)", async () => {
    for (const url of ["not a url", "ftp://example.com/x", "", 7, "localhost", "superx", "-bad-.example"]) assertInvalid(await post({ url }), "url");
    assertInvalid(await post({}), "url");
  });

  test("the page reads are shared with product scrapes: once spent, 429 rate_limited naming page_reads", async () => {
    const [product] = harness.world.products;
    let status = 200;
    for (let reads = 0; status === 200 && reads < 21; reads++) {
      status = (await transports(harness)[0].request("POST", `/v1/context/products/${product}/scrape`, { key: harness.world.keys.write })).status;
    }
    assert.equal(status, 429, "product scrapes spent the day's reads");
    const refused = await post({ url: `${siteUrl}/product` });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, "rate_limited");
    assert.equal(refused.body.error.bucket, "page_reads");
  });

  test("the 11th call of an account in 10 minutes answers 429 rate_limited with Retry-After, and succeeds once the first call is 10 minutes old", async () => {
    const key = harness.world.keys.other_user;
    for (let call = 1; call <= 10; call++) {
      const answer = await post({ url: "https://shop.example/churn" }, key);
      assert.equal(answer.status, 200, `call ${call}: ${JSON.stringify(answer.body)}`);
      // The example page says "churn" three times and "pricing" once: equal matches, churn first.
      assert.equal(answer.body.data.keywords[0], "churn", answer.body.data.keywords.join());
    }
    const refused = await post({ url: "https://shop.example/churn" }, key);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, "rate_limited");
    assert.equal(refused.body.error.bucket, "icp_url_expansions");
    const retryAfter = Number(refused.headers.get("retry-after"));
    // The first call leaves the window 600 s after it was made; whole seconds round up once more.
    assert.ok(retryAfter > 500 && retryAfter <= 601, String(retryAfter));
    assert.equal(refused.body.error.retry_after, retryAfter);
    clock.advance((retryAfter - 2) * 1000);
    assert.equal((await post({ url: "https://shop.example/churn" }, key)).status, 429, "still inside the 10 minutes");
    clock.advance(2_000);
    assert.equal((await post({ url: "https://shop.example/churn" }, key)).status, 200, "the first call has left the window");
    const suggest = await transports(harness)[1].request("POST", SUGGEST, { key, body: { icp_description: ICP } });
    assert.equal(suggest.status, 200, "the other helpers have no such bound");
  });
});
