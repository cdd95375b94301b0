/**
 * Mentions (docs/areas.md "Engage"; supplement: GET /v1/engage/mentions; spec Limits 6): read
 * live, `mention_type` reply or mention, `parent_post` with one more level of ancestry,
 * `include_replied`, `sort`, cursor paging, and a flat 3 feed fetches per call.
 */
import { after, before, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness, type Transport } from "./support/harness.ts";
import { expectError } from "./support/expect_error.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { usedToday } from "./support/engage_helpers.ts";
import { manualClock } from "./support/manual_clock.ts";
import type { NetworkPost } from "../core/network/network_records.ts";

let harness: Harness;
const clock = manualClock(Date.now());
let worldPost: NetworkPost;
let ownReply: NetworkPost;
let answerToOwn: NetworkPost;
let plainMention: NetworkPost;

before(async () => {
  harness = await startHarness({ config: { clock } });
  const { network } = harness.services;
  const main = harness.world.accounts.main;
  const linked = harness.world.accounts.linked;
  const handle = harness.world.handles.main;
  assert.ok(harness.world.x);
  // A world post; the main account answers it; the linked account answers that answer
  // (a direct reply to the account's own post, with two levels of ancestry) and names the
  // account in a post of its own (a mention).
  worldPost = await network.postById(harness.world.x.post_id);
  ownReply = await network.publishPost({ authorId: main, text: "Agreed, evals first", replyToId: worldPost.id });
  clock.advance(1_000);
  answerToOwn = await network.publishPost({ authorId: linked, text: `@${handle} which evals do you run?`, replyToId: ownReply.id });
  clock.advance(1_000);
  plainMention = await network.publishPost({ authorId: linked, text: `Reading @${handle} on evals today` });
  clock.advance(1_000);
});
after(() => harness.close());
beforeEach(() => clock.advance(60_000));

describeMatrix(({ index, name }) => {
  const transport = (): Transport => transports(harness)[index];
  const send = (path: string, key = harness.world.keys.write) => transport().request("GET", path, { key });

  describe(`engage mentions (${name})`, () => {
    test("a reply to the account's post is `reply` with its parent and grandparent; a post naming the account is `mention`; 3 fetches", async () => {
      const fetches = await usedToday(harness, "feed");
      const answer = await send("/v1/engage/mentions");
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(await usedToday(harness, "feed"), fetches + 3, "Limits 6: a flat 3");
      assert.equal(answer.body.meta.fetch_units, 3);
      const reply = answer.body.data.find((item: any) => item.id === answerToOwn.id);
      assert.ok(reply, JSON.stringify(answer.body.data.map((item: any) => item.id)));
      assert.equal(reply.mention_type, "reply");
      assert.equal(reply.parent_post.id, ownReply.id);
      assert.equal(reply.parent_post.parent_post.id, worldPost.id, "one more level of ancestry");
      assert.ok(reply.parent_post.parent_post.author.username);
      assert.equal(reply.replied, false);
      const mention = answer.body.data.find((item: any) => item.id === plainMention.id);
      assert.ok(mention);
      assert.equal(mention.mention_type, "mention");
      assert.equal(mention.parent_post, null);
      const times = answer.body.data.map((item: any) => Date.parse(item.created_at));
      assert.deepEqual(
        times,
        [...times].sort((a, b) => b - a),
        "latest: newest first",
      );
      assert.equal(typeof answer.body.pagination.has_more, "boolean");
      assert.ok(!answer.body.data.some((item: any) => item.author_id === harness.world.accounts.main), "the account's own posts are not mentions");
    });

    test("sort=top orders by engagement; bad sort is 400; another user's account is 404 account_not_found", async () => {
      const top = await send("/v1/engage/mentions?sort=top");
      assert.equal(top.status, 200, JSON.stringify(top.body));
      const score = (item: any) => item.metrics.likes + 2 * item.metrics.reposts + item.metrics.replies + item.metrics.quotes;
      for (let i = 1; i < top.body.data.length; i++) assert.ok(score(top.body.data[i - 1]) >= score(top.body.data[i]));
      expectError(await send("/v1/engage/mentions?sort=oldest"), 400, "invalid_parameter");
      expectError(await send("/v1/engage/mentions?include_replied=maybe"), 400, "invalid_parameter");
      expectError(await send(`/v1/engage/mentions?account_id=${harness.world.accounts.other_user}`), 404, "account_not_found");
      const shared = await send(`/v1/engage/mentions?account_id=${harness.world.accounts.shared}`);
      assert.equal(shared.status, 200, "reading a shared account's mentions is allowed");
    });
  });
});

describe("engage mentions: replied and paging", () => {
  const send = (path: string) => transports(harness)[0].request("GET", path, { key: harness.world.keys.write });

  test("a mention the account answered is left out unless include_replied=true, then flagged replied", async () => {
    await harness.services.network.publishPost({ authorId: harness.world.accounts.main, text: "Thanks!", replyToId: plainMention.id });
    const without = (await send("/v1/engage/mentions")).body.data;
    assert.ok(!without.some((item: any) => item.id === plainMention.id));
    const withReplied = (await send("/v1/engage/mentions?include_replied=true")).body.data;
    const item = withReplied.find((entry: any) => entry.id === plainMention.id);
    assert.ok(item);
    assert.equal(item.replied, true);
  });

  test("cursor paging follows pagination.next_cursor without repeating an item", async () => {
    const { network } = harness.services;
    for (let i = 0; i < 22; i++) {
      await network.publishPost({ authorId: harness.world.accounts.linked, text: `Ping ${i} @${harness.world.handles.main}` });
      clock.advance(1_000);
    }
    const first = await send("/v1/engage/mentions?include_replied=true");
    assert.equal(first.body.pagination.has_more, true);
    assert.ok(first.body.pagination.next_cursor);
    const second = await send(`/v1/engage/mentions?include_replied=true&cursor=${encodeURIComponent(first.body.pagination.next_cursor)}`);
    assert.equal(second.status, 200, JSON.stringify(second.body));
    const firstIds = new Set(first.body.data.map((item: any) => item.id));
    assert.ok(second.body.data.length > 0);
    for (const item of second.body.data) assert.ok(!firstIds.has(item.id));
  });
});
