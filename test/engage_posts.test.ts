/**
 * Reading a feed's posts (docs/areas.md "Engage"; supplement: GET /v1/engage/feeds/{id}/posts;
 * spec Limits 1 and 6): the candidate shape, `mode`, `limit`, the cache and `fresh`, seen
 * posts sinking, `exclude_post_ids`, `include_replied`, list feeds, the feed bucket counted
 * exactly (1, or 3 for a rotating contact-list feed) and its `429 rate_limited` with
 * `remaining_day` on the basic plan (2 feed fetches a minute, 20 a day).
 */
import { after, before, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness, type Transport } from "./support/harness.ts";
import { expectError } from "./support/expect_error.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { clearFeeds, usedToday } from "./support/engage_helpers.ts";
import type { NetworkDemoFixtures } from "../core/network/network_records.ts";
import { manualClock } from "./support/manual_clock.ts";

let harness: Harness;
let x: NetworkDemoFixtures;
// Each case starts in a fresh clock minute, so the feed bucket's minute window (15 on the
// main account's plan, 2 on the basic plan) is the case's own.
const clock = manualClock(Date.now());

before(async () => {
  harness = await startHarness({ config: { clock } });
  assert.ok(harness.world.x, "the simulated network has its fixtures");
  x = harness.world.x;
});
after(() => harness.close());
beforeEach(() => clock.advance(60_000));

const KEYWORDS = ["AI agents", "LLM evals"];
const engagement = (post: any) => post.metrics.likes + 2 * post.metrics.reposts + post.metrics.replies + post.metrics.quotes;

describeMatrix(({ index, name }) => {
  const transport = (): Transport => transports(harness)[index];
  const account = () => (index === 0 ? harness.world.accounts.main : harness.world.accounts.linked);
  const send = (method: string, path: string, body?: unknown, key = harness.world.keys.write) => transport().request(method, path, { key, body });
  const createFeed = async (body: Record<string, unknown>, key = harness.world.keys.write) => {
    const answer = await send("POST", "/v1/engage/feeds", { account_id: key === harness.world.keys.write ? account() : undefined, ...body }, key);
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return answer.body.data;
  };
  const posts = (id: string, query = "", key?: string) => send("GET", `/v1/engage/feeds/${id}/posts${query ? `?${query}` : ""}`, undefined, key);

  describe(`engage feed posts (${name})`, () => {
    before(() => clearFeeds(transport(), harness.world.keys.write, account()));

    test("a keyword feed answers candidates with text, author handle, bio, follower counts, metrics and time, and counts one feed fetch", async () => {
      const feed = await createFeed({ name: "AI", type: "keywords", keywords: KEYWORDS });
      const fetches = await usedToday(harness, "feed");
      const answer = await posts(feed.id, "limit=5&fresh=true");
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(await usedToday(harness, "feed"), fetches + 1, "one fetch of a keyword feed counts 1");
      const { data, has_more, feed: shown, meta } = answer.body;
      assert.equal(data.length, 5);
      assert.equal(has_more, true);
      assert.equal(shown.id, feed.id);
      assert.equal(meta.fetch_units, 1);
      assert.equal(meta.cached, false);
      for (const post of data) {
        assert.ok(post.text.length > 0);
        assert.ok(post.author.username, "author handle");
        assert.equal(typeof post.author.description, "string", "bio");
        assert.equal(typeof post.author.followers_count, "number");
        assert.equal(typeof post.metrics.likes, "number");
        assert.ok(!Number.isNaN(Date.parse(post.created_at)));
        assert.equal(post.replied, false);
        assert.equal(post.is_repost, false);
        assert.notEqual(post.author_id, account(), "the account's own posts never appear");
        const text = post.text.toLowerCase();
        assert.ok(
          KEYWORDS.some((word) => text.includes(word.toLowerCase())),
          `"${post.text}" matches a keyword`,
        );
      }
      for (let i = 1; i < data.length; i++) assert.ok(engagement(data[i - 1]) >= engagement(data[i]), "mode top ranks by engagement");
    });

    test("mode latest orders by post time; the second read is served from the cache, fresh=true reads again; both count", async () => {
      const feed = await createFeed({ name: "AI latest", type: "keywords", keywords: KEYWORDS });
      const fetches = await usedToday(harness, "feed");
      const first = await posts(feed.id, "mode=latest&limit=10");
      assert.equal(first.status, 200, JSON.stringify(first.body));
      const times = first.body.data.map((post: any) => Date.parse(post.created_at));
      assert.deepEqual(
        times,
        [...times].sort((a, b) => b - a),
      );
      assert.equal(first.body.meta.cached, false);
      const second = await posts(feed.id, "mode=latest&limit=10");
      assert.equal(second.body.meta.cached, true);
      const third = await posts(feed.id, "mode=latest&limit=10&fresh=true");
      assert.equal(third.body.meta.cached, false);
      assert.equal(await usedToday(harness, "feed"), fetches + 3, "every read counts a fetch, cached or not");
    });

    test("returned posts count as seen and sink below unseen ones; exclude_post_ids drops the ones the client holds", async () => {
      const feed = await createFeed({ name: "AI seen", type: "keywords", keywords: KEYWORDS });
      const first = (await posts(feed.id, "limit=5")).body.data;
      const firstIds = first.map((post: any) => post.id);
      const second = (await posts(feed.id, "limit=5")).body.data;
      for (const post of second) assert.ok(!firstIds.includes(post.id), "unseen posts come first");
      assert.ok(second.every((post: any) => post.seen === false));
      const excluded = [...firstIds, ...second.map((post: any) => post.id)];
      const third = await posts(feed.id, `limit=50&exclude_post_ids=${excluded.join(",")}`);
      assert.equal(third.status, 200, JSON.stringify(third.body));
      for (const post of third.body.data) assert.ok(!excluded.includes(post.id));
      const all = (await posts(feed.id, "limit=50")).body.data;
      const seenFlags = all.map((post: any) => post.seen);
      const firstSeen = seenFlags.indexOf(true);
      assert.ok(firstSeen >= 0, "seen posts are still returned");
      assert.ok(seenFlags.slice(firstSeen).every(Boolean), "and they come last");
      for (const id of firstIds) assert.ok(all.some((post: any) => post.id === id && post.seen));
    });

    test("bad queries are 400 invalid_parameter; an unknown feed is 404 feed_not_found and spends no fetch", async () => {
      const feed = await createFeed({ name: "AI bad", type: "keywords", keywords: KEYWORDS });
      const ids = Array.from({ length: 101 }, (_, i) => String(1_000 + i)).join(",");
      for (const query of ["limit=0", "limit=51", "mode=best", `exclude_post_ids=${ids}`, "exclude_post_ids=12,abc", "fresh=maybe"]) {
        expectError(await posts(feed.id, query), 400, "invalid_parameter");
      }
      const fetches = await usedToday(harness, "feed");
      expectError(await posts("987654321"), 404, "feed_not_found");
      expectError(await posts(feed.id, "", harness.world.keys.other_user), 404, "feed_not_found");
      assert.equal(await usedToday(harness, "feed"), fetches);
      const hundred = Array.from({ length: 100 }, (_, i) => String(1_000 + i)).join(",");
      assert.equal((await posts(feed.id, `limit=50&exclude_post_ids=${hundred}`)).status, 200, "100 ids are allowed");
    });

    test("posts the account replied to are left out unless include_replied=true, then flagged replied", async () => {
      const feed = await createFeed({ name: "AI replied", type: "keywords", keywords: KEYWORDS });
      const [target] = (await posts(feed.id, "limit=1&fresh=true")).body.data;
      await harness.services.network.publishPost({ authorId: account(), text: `Good point ${name}`, replyToId: target.id });
      const without = (await posts(feed.id, "limit=50&fresh=true")).body.data;
      assert.ok(!without.some((post: any) => post.id === target.id), "a replied post is left out");
      const withReplied = (await posts(feed.id, "limit=50&include_replied=true")).body.data;
      const flagged = withReplied.find((post: any) => post.id === target.id);
      assert.ok(flagged, "include_replied keeps it");
      assert.equal(flagged.replied, true);
    });

    test("an X list feed reads one page that limit trims, for one fetch", async () => {
      const feed = await createFeed({ name: "List", type: "x_list", x_list_id: x.public_list_id });
      const fetches = await usedToday(harness, "feed");
      const full = await posts(feed.id, "limit=50&fresh=true");
      assert.equal(full.status, 200, JSON.stringify(full.body));
      assert.ok(full.body.data.length > 0 && full.body.data.length <= 25, `one page, got ${full.body.data.length}`);
      const trimmed = await posts(feed.id, "limit=3");
      assert.equal(trimmed.body.data.length, 3);
      assert.equal(await usedToday(harness, "feed"), fetches + 2);
      assert.equal(full.body.meta.fetch_units, 1);
    });
  });
});

describe("engage feed posts: contact-list feeds and the feed bucket", () => {
  const transport = () => transports(harness)[0];
  const send = (method: string, path: string, body?: unknown, key = harness.world.keys.write) => transport().request(method, path, { key, body });

  test("a contact-list feed of more than 10 members rotates them and counts 3 fetches; a small one counts 1", async () => {
    const list = await send("POST", "/v1/contact-lists", { name: "Engage rotation" });
    assert.equal(list.status, 201, JSON.stringify(list.body));
    const members = (await harness.services.network.listMembers(x.public_list_id, { limit: 11 })).items;
    assert.equal(members.length, 11, "the public list has enough members");
    const small = await send("POST", "/v1/engage/feeds", { name: "Small", type: "list", list_id: list.body.data.id });
    assert.equal(small.body.data.fetch_units, 1);
    for (const member of members) {
      const added = await send("POST", `/v1/contact-lists/${list.body.data.id}/members`, { handle: member.username });
      assert.equal(added.status, 201, JSON.stringify(added.body));
    }
    const feeds = (await send("GET", "/v1/engage/feeds")).body.data;
    const rotating = feeds.find((feed: any) => feed.id === small.body.data.id);
    assert.equal(rotating.fetch_units, 3, "11 members rotate");
    const fetches = await usedToday(harness, "feed");
    const first = await send("GET", `/v1/engage/feeds/${rotating.id}/posts?limit=50`);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.meta.fetch_units, 3);
    assert.equal(await usedToday(harness, "feed"), fetches + 3, "Limits 6: a rotating list feed counts 3");
    const memberIds = new Set(members.map((member) => member.id));
    for (const post of first.body.data) assert.ok(memberIds.has(post.author_id), "posts come from the list's members");
    const second = await send("GET", `/v1/engage/feeds/${rotating.id}/posts?limit=50&fresh=true`);
    const authorsOf = (answer: any) => new Set(answer.body.data.map((post: any) => post.author_id));
    assert.notDeepEqual(authorsOf(first), authorsOf(second), "the next fetch reads the next slice of members");
    await send("DELETE", `/v1/engage/feeds/${rotating.id}`);
  });

  test("over the feed cap the basic plan answers 429 rate_limited with remaining_day and Retry-After", async () => {
    const key = harness.world.keys.throttled;
    const owner = harness.world.accounts.throttled;
    const feed = await send("POST", "/v1/engage/feeds", { name: "Throttled", type: "keywords", keywords: KEYWORDS }, key);
    assert.equal(feed.status, 201, JSON.stringify(feed.body));
    let refused: any;
    // 2 a minute: the third call within the minute is refused.
    for (let i = 0; i < 3; i++) {
      const answer = await send("GET", `/v1/engage/feeds/${feed.body.data.id}/posts?limit=5`, undefined, key);
      if (answer.status === 429) refused = answer;
      else assert.equal(answer.status, 200, JSON.stringify(answer.body));
    }
    assert.ok(refused, "the third call was refused");
    expectError(refused, 429, "rate_limited");
    assert.equal(refused.body.error.bucket, "feed");
    const used = await usedToday(harness, "feed", owner);
    assert.equal(refused.body.error.remaining_day, 20 - used, "remaining_day counts what is left of the 20 a day");
    assert.ok(Number(refused.headers.get("retry-after")) >= 1);
    expectError(await send("GET", "/v1/engage/mentions", undefined, key), 429, "rate_limited");
  });
});
