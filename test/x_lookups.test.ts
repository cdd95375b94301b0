/** Live X lookups (spec X Lookups rows; Limits 5 and 8; Errors special cases). */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { daysFromToday, manualClock } from "./support/manual_clock.ts";
import { createContextInner } from "../core/context.ts";
import { consumeAllowances } from "../core/limits/allowances.ts";
import { LIVE_LOOKUPS } from "../core/limits/allowance_catalog.ts";

const clock = manualClock(Date.now());
let harness: Harness;
before(async () => {
  harness = await startHarness({ config: { clock } });
});
after(() => harness.close());

/** Units of the owner's live allowance used today (a zero-unit check only reads). */
async function allowanceUsed(ownerId: string): Promise<number> {
  const outcome = await consumeAllowances(createContextInner({ services: harness.services }), ownerId, [{ spec: LIVE_LOOKUPS, units: 0 }]);
  assert.equal(outcome.status, "allowed");
  return outcome.status === "allowed" ? outcome.allowances[0].used : -1;
}

describeMatrix(({ name, transport }) => {
  describe(`lookups over ${name}`, () => {
    const get = (path: string, key = harness.world.keys.write) => transport(harness).request("GET", path, { key });
    const x = () => harness.world.x!;

    test("a profile by handle, @ optional", async () => {
      const answer = await get(`/v1/x/users/@${x().user_handle}`);
      assert.equal(answer.status, 200);
      assert.equal(answer.body.data.username, x().user_handle);
      assert.equal(typeof answer.body.data.followers_count, "number");
      assert.match(answer.headers.get("x-ratelimit-limit") ?? "", /^\d+$/);
    });

    test("a post with its author, and with its quotes when asked", async () => {
      const plain = await get(`/v1/x/posts/${x().post_id}`);
      assert.equal(plain.status, 200);
      assert.equal(plain.body.data.id, x().post_id);
      assert.equal(plain.body.data.author.id, plain.body.data.author_id);
      assert.equal(plain.body.data.quotes, undefined);
      for (const flag of ["is_reply", "is_thread", "is_repost"]) assert.equal(typeof plain.body.data[flag], "boolean");
      const quoted = await get(`/v1/x/posts/${x().post_id}?include_quotes=true`);
      assert.ok(quoted.body.data.quotes.length > 0);
      assert.ok(quoted.body.data.quotes.every((quote: any) => quote.quoted_id === x().post_id));
    });

    test("replies page with a cursor and never repeat", async () => {
      const first = await get(`/v1/x/posts/${x().large_post_id}/replies?limit=50`);
      assert.equal(first.status, 200);
      assert.equal(first.body.data.length, 50);
      assert.equal(first.body.pagination.has_more, true);
      const second = await get(`/v1/x/posts/${x().large_post_id}/replies?limit=50&cursor=${encodeURIComponent(first.body.pagination.next_cursor)}`);
      const ids = new Set([...first.body.data, ...second.body.data].map((reply: any) => reply.id));
      assert.equal(ids.size, 100);
      assert.ok(second.body.data.every((reply: any) => reply.reply_to_id === x().large_post_id));
    });

    test("a handle's posts, replies left out on request", async () => {
      const answer = await get(`/v1/x/users/ada_builds/posts?limit=30&exclude_replies=true`);
      assert.equal(answer.status, 200);
      assert.ok(answer.body.data.length > 0);
      assert.ok(answer.body.data.every((post: any) => post.author_id === harness.world.accounts.main && !post.is_reply));
    });

    test("missing things answer 404 with the lookup's code; malformed ones 400", async () => {
      const user = await get(`/v1/x/users/${x().unknown_handle}`);
      assert.equal(user.status, 404);
      assert.equal(user.body.error.code, "user_not_found");
      const posts = await get(`/v1/x/users/${x().unknown_handle}/posts`);
      assert.equal(posts.body.error.code, "user_not_found");
      const post = await get("/v1/x/posts/1234567890123");
      assert.equal(post.status, 404);
      assert.equal(post.body.error.code, "post_not_found");
      for (const path of ["/v1/x/users/not-a-handle!", "/v1/x/users/abcdefghijklmnop", "/v1/x/posts/12ab", `/v1/x/posts/${"1".repeat(26)}`]) {
        const answer = await get(path);
        assert.equal(answer.status, 400, path);
        assert.equal(answer.body.error.code, "invalid_parameter");
      }
    });
  });
});

describe("what a lookup costs", () => {
  test("a repeat within 15 minutes is served from the cache and spends no daily allowance; after that it does", async () => {
    // Past what the cases above left in the cache (it is shared: cached answers are public data),
    // on a fresh UTC day with hours to spare: the daily allowance must not reset mid-test (the
    // suite's clock starts at the real now, which may be minutes before midnight).
    clock.set(daysFromToday(1, "10:00:00"));
    const [transport] = transports(harness);
    const key = harness.world.keys.other_user;
    const owner = harness.world.accounts.other_user;
    const before = await allowanceUsed(owner);
    await transport.request("GET", `/v1/x/posts/${harness.world.x!.post_id}?include_quotes=true`, { key });
    assert.equal(await allowanceUsed(owner), before + 2, "quotes make it 2 units");
    await transport.request("GET", `/v1/x/posts/${harness.world.x!.post_id}?include_quotes=true`, { key });
    assert.equal(await allowanceUsed(owner), before + 2, "the repeat came from the cache");
    clock.advance(16 * 60_000);
    await transport.request("GET", `/v1/x/posts/${harness.world.x!.post_id}?include_quotes=true`, { key });
    assert.equal(await allowanceUsed(owner), before + 4);
  });

  test("replies cost a flat 3; a handle's posts 2, or 1 once the handle was looked up", async () => {
    clock.set(daysFromToday(1, "12:00:00"));
    const [transport] = transports(harness);
    const key = harness.world.keys.trial;
    const owner = (await harness.services.sql<{ id: string }[]>`select id from accounts where username = 'tia_trial'`)[0].id;
    let used = await allowanceUsed(owner);
    await transport.request("GET", `/v1/x/posts/${harness.world.x!.post_id}/replies?limit=5`, { key });
    assert.equal(await allowanceUsed(owner), (used += 3));
    await transport.request("GET", "/v1/x/users/nina_designs/posts?limit=5", { key });
    assert.equal(await allowanceUsed(owner), (used += 2));
    await transport.request("GET", "/v1/x/users/kai_on_ai", { key });
    assert.equal(await allowanceUsed(owner), (used += 1));
    await transport.request("GET", "/v1/x/users/kai_on_ai/posts?limit=5", { key });
    assert.equal(await allowanceUsed(owner), (used += 1));
  });

  test("past 300 live lookups a day: 429 lookup_quota_exceeded with limit, all or nothing, reset at midnight UTC", async () => {
    clock.set(daysFromToday(2, "22:00:00"));
    const [transport] = transports(harness);
    const key = harness.world.keys.write;
    const owner = harness.world.accounts.main;
    await consumeAllowances(createContextInner({ services: harness.services }), owner, [{ spec: LIVE_LOOKUPS, units: 299 }]);
    const refused = await transport.request("GET", `/v1/x/posts/${harness.world.x!.post_id}?include_quotes=true`, { key });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, "lookup_quota_exceeded");
    assert.equal(refused.body.error.limit, 300);
    assert.equal(refused.body.error.reset_at, Date.parse(daysFromToday(3, "00:00:00")) / 1000);
    assert.equal(await allowanceUsed(owner), 299, "the refused 2-unit lookup took nothing");
    assert.equal((await transport.request("GET", `/v1/x/posts/${harness.world.x!.post_id}`, { key })).status, 200);
    clock.set(daysFromToday(3, "00:00:01"));
    assert.equal((await transport.request("GET", `/v1/x/posts/${harness.world.x!.post_id}?include_quotes=true`, { key })).status, 200);
  });

  test("enrichment units run out per minute: 429 rate_limited naming the enrichment bucket", async () => {
    clock.set(daysFromToday(4, "10:00:00"));
    const [transport] = transports(harness);
    // The basic plan has 5 enrichment units a minute: two 2-unit lookups fit, a third does not.
    const key = harness.world.keys.throttled;
    for (const id of [1, 2])
      assert.equal((await transport.request("GET", `/v1/x/posts/${harness.world.x!.post_id}?include_quotes=true`, { key })).status, 200, `lookup ${id}`);
    const refused = await transport.request("GET", `/v1/x/posts/${harness.world.x!.post_id}?include_quotes=true`, { key });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, "rate_limited");
    assert.equal(refused.body.error.bucket, "enrichment");
    assert.ok(refused.body.error.retry_after > 0);
  });
});

describe("when the network is unreachable", () => {
  let failing: Harness;
  before(async () => {
    failing = await startHarness({ config: { faults: "x" } });
  });
  after(() => failing.close());

  test("lookups answer 503 upstream_unavailable and cost no allowance", async () => {
    const [transport] = transports(failing);
    const owner = failing.world.accounts.main;
    const read = async () => {
      const outcome = await consumeAllowances(createContextInner({ services: failing.services }), owner, [{ spec: LIVE_LOOKUPS, units: 0 }]);
      return outcome.status === "allowed" ? outcome.allowances[0].used : -1;
    };
    const before = await read();
    const answer = await transport.request("GET", "/v1/x/users/kai_on_ai", { key: failing.world.keys.write });
    assert.equal(answer.status, 503);
    assert.equal(answer.body.error.code, "upstream_unavailable");
    assert.equal(await read(), before);
  });
});

describe("when the allowance counters cannot be verified", () => {
  let failing: Harness;
  before(async () => {
    failing = await startHarness({ config: { faults: "counters" } });
  });
  after(() => failing.close());

  test("lookups are refused with lookup_quota_exceeded without limit and a short retry_after", async () => {
    const answer = await transports(failing)[1].request("GET", "/v1/x/users/kai_on_ai", { key: failing.world.keys.write });
    assert.equal(answer.status, 429);
    assert.equal(answer.body.error.code, "lookup_quota_exceeded");
    assert.equal("limit" in answer.body.error, false);
    assert.ok(answer.body.error.retry_after <= 60);
  });
});
