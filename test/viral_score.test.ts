/** Viral score (spec: POST /v1/posts/viral-score; AI credits; supplement: Content). */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { manualClock } from "./support/manual_clock.ts";

// A fixed day, so the account's 90-day history (and so the fitted model) is the same on every run.
const clock = manualClock(Date.now());
let harness: Harness;
before(async () => {
  harness = await startHarness({ config: { clock } });
  clock.set("2026-12-10T12:00:00Z");
});
after(() => harness.close());

const score = (index: number, body: unknown, key = harness.world.keys.write) =>
  transports(harness)[index].request("POST", "/v1/posts/viral-score", { key, body });
const effectOf = (data: any, feature: string) => [...data.helped, ...data.hurt].find((entry: any) => entry.feature === feature);

describeMatrix(({ index, name }) => {
  describe(`viral score over ${name}`, () => {
    test("out-of-bounds text, a timestamp without offset and an unknown baseline answer 400 invalid_parameter", async () => {
      for (const body of [
        { text: "" },
        { text: "x".repeat(4_001) },
        { text: "hi", post_at: "2026-12-11T09:00:00" },
        { text: "hi", baseline: "world" },
        { text: "hi", has_image: "yes" },
      ]) {
        const answer = await score(index, body);
        assert.equal(answer.status, 400, JSON.stringify(body).slice(0, 50));
        assert.equal(answer.body.error.code, "invalid_parameter");
      }
    });

    test("the demo main account is scored on its own posts: numeric expected, accuracy in [0, 1]", async () => {
      const answer = await score(index, { text: "Shipped the onboarding flow in three days", post_at: "2026-12-11T15:00:00+01:00", has_image: true });
      assert.equal(answer.status, 200);
      const { data } = answer.body;
      assert.equal(data.baseline.kind, "account");
      assert.ok(data.baseline.posts_used >= 10);
      for (const name of ["likes", "replies", "reposts_and_quotes", "views"]) {
        const counter = data.counters[name];
        assert.equal(typeof counter.expected, "number", name);
        assert.ok(counter.median_multiple > 0 && counter.p75 >= counter.median_multiple && counter.p90 >= counter.p75, name);
      }
      assert.equal(data.counters.reposts_and_quotes.confidence, "low");
      assert.equal(data.counters.views.confidence, "low");
      assert.ok(data.accuracy >= 0 && data.accuracy <= 1);
      assert.ok(data.score >= 0 && data.score <= 100);
      assert.ok(Array.isArray(data.warnings));
      assert.ok(
        [...data.helped, ...data.hurt].some((entry: any) => entry.feature === "hour"),
        "post_at makes timing count",
      );
    });

    test("population baseline on request: expected is null", async () => {
      const answer = await score(index, { text: "What is the one metric you check every morning?", baseline: "population" });
      assert.equal(answer.status, 200);
      assert.equal(answer.body.data.baseline.kind, "population");
      assert.equal(answer.body.data.counters.likes.expected, null);
      assert.equal(answer.body.data.accuracy, null);
    });
  });
});

describe("helped and hurt", () => {
  test("a figure moves the estimate in the direction its effect says", async () => {
    // Same length and first line, so only the figure differs.
    const without = (await score(0, { text: "Shipped the onboarding flow in three days" })).body.data;
    const withFigure = (await score(0, { text: "Shipped the onboarding flow in 3 days now" })).body.data;
    const a = effectOf(without, "numbers");
    const b = effectOf(withFigure, "numbers");
    assert.ok(a && b, "the figure feature is listed");
    assert.equal(Math.sign(withFigure.counters.likes.median_multiple - without.counters.likes.median_multiple), Math.sign(b.effect - a.effect));
  });

  test("a question ending raises expected replies (the account never asks, so the population prior speaks)", async () => {
    const statement = (await score(0, { text: "Shipped the onboarding flow in three days." })).body.data;
    const question = (await score(0, { text: "Shipped the onboarding flow in three days?" })).body.data;
    const effect = effectOf(question, "question");
    assert.ok(effect, "the question feature is listed");
    assert.ok(effect.by_counter.replies > 1);
    assert.ok(question.counters.replies.median_multiple > statement.counters.replies.median_multiple);
  });
});

describe("viral score credits and caps", () => {
  test("the first call costs 1 extra, most calls 0, every 10th of the day 1", async () => {
    clock.set("2026-12-12T10:00:00Z");
    const key = harness.world.keys.other_user;
    const charged: number[] = [];
    for (let call = 1; call <= 10; call++) {
      const answer = await score(0, { text: `Draft number ${call} about onboarding` }, key);
      assert.equal(answer.status, 200);
      assert.equal(answer.headers.get("x-credits-charged"), String(answer.body.meta.credits_charged));
      charged.push(answer.body.meta.credits_charged);
    }
    assert.deepEqual(charged, [1, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    clock.set("2026-12-13T10:00:00Z");
    assert.equal((await score(0, { text: "Next day" }, key)).body.meta.credits_charged, 0, "the extra credit is once per account, ever");
  });

  test("the trial cap: 50 a day, the 51st answers 429 ai_action_limited with scope account", async () => {
    clock.set("2026-12-14T10:00:00Z");
    const key = harness.world.keys.trial;
    for (let call = 1; call <= 50; call++) {
      if (call % 10 === 1) clock.advance(61_000);
      assert.equal((await score(0, { text: "Short draft", baseline: "population" }, key)).status, 200, `call ${call}`);
    }
    clock.advance(61_000);
    const refused = await score(0, { text: "Short draft", baseline: "population" }, key);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, "ai_action_limited");
    assert.equal(refused.body.error.scope, "account");
  });
});

describe("an account with few posts", () => {
  // ada_labs was created on 2023-02-01: eight days later it has only a handful of posts (under 10).
  let young: Harness;
  before(async () => {
    young = await startHarness({ config: { clock: manualClock("2023-02-09T12:00:00Z") } });
  });
  after(() => young.close());

  test("is scored against the population, with expected null", async () => {
    for (const transport of transports(young)) {
      const answer = await transport.request("POST", "/v1/posts/viral-score", {
        key: young.world.keys.write,
        body: { text: "Shipped it", account_id: young.world.accounts.linked },
      });
      assert.equal(answer.status, 200, transport.name);
      assert.equal(answer.body.data.baseline.kind, "population");
      assert.ok(answer.body.data.baseline.usable_posts < 10);
      assert.equal(answer.body.data.counters.likes.expected, null);
      assert.ok(answer.body.data.warnings.some((warning: string) => warning.includes("population")));
    }
  });
});

describe("with the network unreachable", () => {
  let failing: Harness;
  before(async () => {
    failing = await startHarness({ config: { faults: "x" } });
  });
  after(() => failing.close());

  test("viral score answers 503 upstream_unavailable and charges nothing", async () => {
    for (const transport of transports(failing)) {
      const answer = await transport.request("POST", "/v1/posts/viral-score", { key: failing.world.keys.write, body: { text: "Shipped it" } });
      assert.equal(answer.status, 503, transport.name);
      assert.equal(answer.body.error.code, "upstream_unavailable");
      assert.equal(answer.headers.get("x-credits-charged"), "0");
    }
  });
});
