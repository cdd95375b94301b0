/** Remix and draft (spec: Other endpoints with stated parameters; supplement: Content, 3.3 prices). */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { mirrorProblem } from "../core/composer/mirror_guard.ts";

let harness: Harness;
before(async () => {
  harness = await startHarness();
});
after(() => harness.close());

test("the mirror guard refuses list-style posts and engagement bait, and accepts a plain post", () => {
  assert.match(mirrorProblem("Three tools I use:\n1. Linear\n2. Notion\n3. Figma\nWhich one do you use?") ?? "", /list-style/);
  assert.match(mirrorProblem("Like if you agree that remote work is here to stay. RT if you have shipped on a Friday.") ?? "", /bait/);
  assert.match(mirrorProblem("Comment YES and I will send you my template for cold emails that book calls.") ?? "", /bait/);
  assert.equal(
    mirrorProblem(
      "I spent a year shipping every Friday. The lesson was not about speed: it was about how small a change can be and still teach you something.",
    ),
    undefined,
  );
});

describeMatrix(({ name, transport }) => {
  describe(`composer over ${name}`, () => {
    const post = (path: string, body: unknown, key = harness.world.keys.write) => transport(harness).request("POST", path, { key, body });

    test("remix answers text with its credits; the account's own handle keeps the post's own facts", async () => {
      const answer = await post("/v1/posts/remix", {
        text: "We grew from 12 to 340 customers in 2025 by answering every support email ourselves.",
        closeness: 30,
      });
      assert.equal(answer.status, 200);
      assert.equal(answer.body.data.own_post, false);
      assert.ok(answer.body.meta.credits_charged >= 1);
      assert.equal(answer.headers.get("x-credits-charged"), String(answer.body.meta.credits_charged));
      const own = await post("/v1/posts/remix", { text: "We grew from 12 to 340 customers in 2025.", closeness: 80, author_handle: "@ada_builds" });
      assert.equal(own.body.data.own_post, true);
      assert.match(own.body.data.text, /340/);
    });

    test("remix bounds: closeness 0-100, author_handle shape, text 1-4000", async () => {
      for (const body of [
        { text: "x", closeness: 101 },
        { text: "x", closeness: -1 },
        { text: "x" },
        { text: "", closeness: 5 },
        { text: "x".repeat(4001), closeness: 5 },
        { text: "x", closeness: 5, author_handle: "not valid!" },
      ]) {
        const answer = await post("/v1/posts/remix", body);
        assert.equal(answer.status, 400, JSON.stringify(body).slice(0, 60));
        assert.equal(answer.body.error.code, "invalid_parameter");
      }
    });

    test("a draft costs 3 credits per draft written", async () => {
      const answer = await post("/v1/posts/draft", { brief: "Why we answer every support email ourselves, and what it taught us about pricing", count: 2 });
      assert.equal(answer.status, 200);
      assert.ok(answer.body.data.written >= 1 && answer.body.data.written <= 2);
      assert.equal(answer.body.data.drafts.length, answer.body.data.written);
      assert.equal(answer.body.meta.credits_charged, 3 * answer.body.data.written);
      assert.equal(answer.headers.get("x-credits-charged"), String(3 * answer.body.data.written));
    });

    test("a refused mirror answers 400 mirror_rejected and charges nothing", async () => {
      const answer = await post("/v1/posts/draft", {
        brief: "Our pricing story",
        mirror: "Five habits of great founders:\n1. Ship daily\n2. Talk to users\n3. Write\n4. Sleep\n5. Repeat",
      });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.error.code, "mirror_rejected");
      assert.equal(answer.headers.get("x-credits-charged"), "0");
    });

    test("draft bounds and the creator rule answer 400 invalid_parameter", async () => {
      for (const body of [
        { brief: "x", count: 4 },
        { brief: "x", voice: "creator" },
        { brief: "x", mirror: "too short" },
        { brief: "" },
        { brief: "x", voice: "robot" },
      ]) {
        const answer = await post("/v1/posts/draft", body);
        assert.equal(answer.status, 400, JSON.stringify(body));
        assert.equal(answer.body.error.code, "invalid_parameter");
      }
    });

    test("a draft in a creator's voice reads that creator; an unknown creator is 404 user_not_found", async () => {
      const answer = await post("/v1/posts/draft", {
        brief: "What evals taught us about shipping agents",
        voice: "creator",
        creator: harness.world.x!.user_handle,
      });
      assert.equal(answer.status, 200);
      const unknown = await post("/v1/posts/draft", { brief: "x", voice: "hybrid", creator: harness.world.x!.unknown_handle });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.error.code, "user_not_found");
    });
  });
});

describe("when the model is unreachable", () => {
  let failing: Harness;
  before(async () => {
    failing = await startHarness({ config: { faults: "ai" } });
  });
  after(() => failing.close());

  test("every draft failing answers 503 and keeps nothing; remix too", async () => {
    const [transport] = transports(failing);
    const draft = await transport.request("POST", "/v1/posts/draft", { key: failing.world.keys.write, body: { brief: "A brief" } });
    assert.equal(draft.status, 503);
    assert.equal(draft.body.error.code, "upstream_unavailable");
    assert.equal(draft.headers.get("x-credits-charged"), "0");
    const remix = await transport.request("POST", "/v1/posts/remix", { key: failing.world.keys.write, body: { text: "x", closeness: 50 } });
    assert.equal(remix.status, 503);
  });
});
