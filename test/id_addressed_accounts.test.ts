/**
 * The account rule on id-addressed calls (spec rule 6; docs/architecture.md): an explicit
 * `account_id` is resolved before the object is looked for, so a foreign account answers
 * the same whether or not the id exists in it (no existence oracle), and a write naming a
 * viewer-shared account is refused before anything is read. The conformance sweep checks
 * every documented operation; these pin the oracle and the narrowing.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness } from "./support/harness.ts";

let harness: Harness;
before(async () => {
  harness = await startHarness();
});
after(() => harness.close());

const MISSING_ID = "987654321";

test("another user's account_id: an existing and a missing id answer the same 404 account_not_found", async () => {
  const { world } = harness;
  const http = transports(harness)[1];
  const other = world.accounts.other_user;
  for (const path of [`/v1/scheduled-posts/${world.scheduled_posts.draft}`, `/v1/articles/${world.articles.draft}`]) {
    const existing = await http.request("GET", `${path}?account_id=${other}`, { key: world.keys.write });
    const missing = await http.request("GET", `${path.replace(/\d+$/, MISSING_ID)}?account_id=${other}`, { key: world.keys.write });
    for (const answer of [existing, missing]) {
      assert.equal(answer.status, 404, path);
      assert.equal(answer.body.error.code, "account_not_found", path);
    }
  }
});

test("a write naming a viewer-shared account answers 403 writes_main_account_only, for a missing id too", async () => {
  const { world } = harness;
  const http = transports(harness)[1];
  for (const id of [world.scheduled_posts.draft, MISSING_ID]) {
    const answer = await http.request("PATCH", `/v1/scheduled-posts/${id}`, { key: world.keys.write, body: { account_id: world.accounts.shared, title: "x" } });
    assert.equal(answer.status, 403);
    assert.equal(answer.body.error.code, "writes_main_account_only");
  }
  const tag = await http.request("DELETE", `/v1/tags/${world.tags[0]}?account_id=${world.accounts.shared}`, { key: world.keys.write });
  assert.equal(tag.status, 403);
  assert.equal(tag.body.error.code, "writes_main_account_only");
});

test("an own account_id narrows the search: an article of the main account is not found through the linked account", async () => {
  const { world } = harness;
  const http = transports(harness)[1];
  const viaMain = await http.request("GET", `/v1/articles/${world.articles.draft}?account_id=${world.accounts.main}`, { key: world.keys.write });
  assert.equal(viaMain.status, 200);
  const viaLinked = await http.request("GET", `/v1/articles/${world.articles.draft}?account_id=${world.accounts.linked}`, { key: world.keys.write });
  assert.equal(viaLinked.status, 404);
  assert.equal(viaLinked.body.error.code, "not_found");
  const viaShared = await http.request("GET", `/v1/articles/${world.articles.draft}?account_id=${world.accounts.shared}`, { key: world.keys.write });
  assert.equal(viaShared.status, 404);
  assert.equal(viaShared.body.error.code, "not_found");
});
