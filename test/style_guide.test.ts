/** `POST /v1/context/style-guide/regenerate` (spec: free AI call, Limits 11; supplement 3.2). */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { manualClock } from "./support/manual_clock.ts";
import { createKey } from "../core/auth/keys.ts";
import { createUser } from "../core/accounts/users.ts";

const clock = manualClock(Date.now());
let harness: Harness;
before(async () => {
  harness = await startHarness({ config: { clock } });
});
after(() => harness.close());

describe("style guide", () => {
  const post = (key: string, body: Record<string, unknown> = {}) => transports(harness)[1].request("POST", "/v1/context/style-guide/regenerate", { key, body });

  test("is written from the account's stored posts, free, and shows in the context", async () => {
    const answer = await post(harness.world.keys.write);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.data.source, "stored");
    assert.ok(answer.body.data.posts_used >= 5);
    assert.ok(answer.body.data.generated.length > 20);
    assert.equal(answer.headers.get("x-credits-charged"), null, "a free call sends no X-Credits-Charged");
    assert.match(answer.headers.get("x-credits-remaining") ?? "", /^\d+$/);
    const context = await transports(harness)[0].request("GET", "/v1/context", { key: harness.world.keys.write });
    assert.equal(context.body.data.style_guide.generated, answer.body.data.generated);
  });

  test("can be regenerated once an hour per account", async () => {
    const again = await post(harness.world.keys.write);
    assert.equal(again.status, 429);
    assert.equal(again.body.error.code, "rate_limited");
    assert.ok(Number(again.headers.get("retry-after")) > 0);
    clock.advance(3_600_000);
    assert.equal((await post(harness.world.keys.write)).status, 200);
  });

  test("too few posts even live answers 400 not_enough_posts; a fourth live attempt in a day answers ai_action_limited", async () => {
    clock.set("2026-11-23T01:00:00Z");
    const user = await createUser(harness.services.sql, { name: "New" }, { username: "brand_new_acct", name: "New" });
    const { key } = await createKey(harness.services.sql, { userId: user.userId, name: "k", scopes: ["read", "write"], prefix: "sxk_" });
    for (let attempt = 1; attempt <= 3; attempt++) {
      const answer = await post(key);
      assert.equal(answer.status, 400, `attempt ${attempt}`);
      assert.equal(answer.body.error.code, "not_enough_posts");
      clock.advance(3_600_000);
    }
    const capped = await post(key);
    assert.equal(capped.status, 429);
    assert.equal(capped.body.error.code, "ai_action_limited");
    assert.equal(capped.body.error.scope, "account");
  });

  test("an editor share answers 403 editor_restricted", async () => {
    const answer = await post(harness.world.keys.write, { account_id: harness.world.accounts.editor_shared });
    assert.equal(answer.status, 403);
    assert.equal(answer.body.error.code, "editor_restricted");
  });
});
