/**
 * Engage feeds (docs/areas.md "Engage"; spec: Engage feed, States "Engage feed", POST
 * /v1/engage/feeds, Limits 4; supplement: Engage and section 5): create with each source,
 * the source rules, the cap of 8 with the enrichment unit a refused list feed still spends,
 * `active`, PATCH without `type`, DELETE handing "open" on, and the account rules, through
 * both transports.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness, type Transport } from "./support/harness.ts";
import { expectError } from "./support/expect_error.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { clearFeeds, usedToday } from "./support/engage_helpers.ts";
import type { NetworkDemoFixtures } from "../core/network/network_records.ts";

let harness: Harness;
let x: NetworkDemoFixtures;

before(async () => {
  harness = await startHarness();
  assert.ok(harness.world.x, "the simulated network has its fixtures");
  x = harness.world.x;
});
after(() => harness.close());

describe("engage feeds: the demo world", () => {
  test("A's main account has the demo keywords feed (open) and a list feed on the public demo list", async () => {
    const { engage } = harness.world;
    assert.ok(engage.list_feed, "the simulated network has a public list");
    const listed = await transports(harness)[1].request("GET", "/v1/engage/feeds", { key: harness.world.keys.write });
    const byId = new Map(listed.body.data.map((feed: any) => [feed.id, feed]));
    const keywords: any = byId.get(engage.keywords_feed);
    const list: any = byId.get(engage.list_feed);
    assert.deepEqual([keywords?.type, keywords?.active, keywords?.keywords], ["keywords", true, ["AI agents", "LLM evals"]]);
    assert.deepEqual([list?.type, list?.active, list?.x_list_id], ["x_list", false, harness.world.x?.public_list_id]);
    const posts = await transports(harness)[1].request("GET", `/v1/engage/feeds/${engage.list_feed}/posts?limit=5`, { key: harness.world.keys.write });
    assert.equal(posts.status, 200, JSON.stringify(posts.body));
    assert.equal(posts.body.data.length, 5);
  });
});

describeMatrix(({ index, name }) => {
  const transport = (): Transport => transports(harness)[index];
  // Each transport works on its own account, so the two runs never share a cap.
  const account = () => (index === 0 ? harness.world.accounts.main : harness.world.accounts.linked);
  const send = (method: string, path: string, body?: unknown, key = harness.world.keys.write) => transport().request(method, path, { key, body });
  const create = (body: Record<string, unknown>, key?: string) => send("POST", "/v1/engage/feeds", { account_id: account(), ...body }, key);
  const keywordsFeed = async (feedName: string, keywords: string[] = ["postgres"]) => {
    const answer = await create({ name: feedName, type: "keywords", keywords });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return answer.body.data;
  };
  const feeds = async () => (await send("GET", `/v1/engage/feeds?account_id=${account()}`)).body.data;
  const fresh = () => clearFeeds(transport(), harness.world.keys.write, account());

  describe(`engage feeds (${name})`, () => {
    test("a keywords feed trims and de-duplicates case-insensitively, is active when it is the first, and costs no enrichment", async () => {
      await fresh();
      const enrichment = await usedToday(harness, "enrichment");
      const answer = await create({ name: "  Postgres  ", type: "keywords", keywords: [" postgres ", "pgvector", "Postgres", "PGVECTOR "] });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      const feed = answer.body.data;
      assert.equal(typeof feed.id, "string");
      assert.equal(feed.name, "Postgres");
      assert.equal(feed.type, "keywords");
      assert.deepEqual(feed.keywords, ["postgres", "pgvector"]);
      assert.equal(feed.active, true, "the account had no active feed");
      assert.equal(feed.fetch_units, 1);
      assert.equal(await usedToday(harness, "enrichment"), enrichment, "keyword feeds cost no enrichment (Limits 4)");
      const second = await keywordsFeed("Second");
      assert.equal(second.active, false, "creating never changes the open feed");
      const listed = await feeds();
      assert.deepEqual(
        listed.map((row: any) => [row.id, row.active]),
        [
          [feed.id, true],
          [second.id, false],
        ],
      );
    });

    test("bad bodies are 400 invalid_parameter: type disagreeing, no source, two sources, name and keyword bounds, list links", async () => {
      await fresh();
      const bad = [
        { name: "A", type: "x_list", keywords: ["a"] },
        { name: "A", type: "keywords" },
        { name: "A", type: "keywords", keywords: ["a"], x_list_id: x.public_list_id },
        { name: "", type: "keywords", keywords: ["a"] },
        { name: "x".repeat(41), type: "keywords", keywords: ["a"] },
        { name: "A", type: "keywords", keywords: [] },
        { name: "A", type: "keywords", keywords: ["a", "b", "c", "d", "e", "f"] },
        { name: "A", type: "keywords", keywords: ["k".repeat(101)] },
        { name: "A", type: "keywords", keywords: ["   "] },
        { name: "A", type: "x_list", x_list_id: "12ab" },
        { name: "A", type: "x_list", x_list_url: `http://x.com/i/lists/${x.public_list_id}` },
        { name: "A", type: "x_list", x_list_url: `https://x.com/lists/${x.public_list_id}` },
        { name: "A", type: "list", list_id: "abc" },
        { name: "A", type: "feeds", keywords: ["a"] },
      ];
      for (const body of bad) expectError(await create(body), 400, "invalid_parameter");
      assert.deepEqual(await feeds(), [], "nothing was created");
      const ok = await create({ name: "x".repeat(40), type: "keywords", keywords: ["k".repeat(100)] });
      assert.equal(ok.status, 201, "40 characters and a 100-character keyword are allowed");
    });

    test("a public X list by id or by link is resolved live for one enrichment unit each; private or missing is 404 x_list_not_found", async () => {
      await fresh();
      let enrichment = await usedToday(harness, "enrichment");
      const byId = await create({ name: "Voices", type: "x_list", x_list_id: x.public_list_id });
      assert.equal(byId.status, 201, JSON.stringify(byId.body));
      assert.equal(byId.body.data.type, "x_list");
      assert.equal(byId.body.data.x_list_id, x.public_list_id);
      assert.ok(byId.body.data.x_list_name, "the list's name was read");
      assert.equal(byId.body.data.keywords, null);
      assert.equal(await usedToday(harness, "enrichment"), ++enrichment);
      const byUrl = await create({ name: "Voices 2", type: "x_list", x_list_url: `https://x.com/i/lists/${x.public_list_id}?s=20` });
      assert.equal(byUrl.status, 201, JSON.stringify(byUrl.body));
      assert.equal(byUrl.body.data.x_list_id, x.public_list_id);
      assert.equal(await usedToday(harness, "enrichment"), ++enrichment);
      const numeric = await create({ name: "Voices 3", type: "x_list", x_list_id: Number(x.public_list_id.slice(0, 15)) });
      expectError(numeric, 404, "x_list_not_found");
      assert.equal(await usedToday(harness, "enrichment"), ++enrichment, "a lookup that ran is spent even when nothing was found");
      expectError(await create({ name: "Hidden", type: "x_list", x_list_id: x.private_list_id }), 404, "x_list_not_found");
      assert.equal(await usedToday(harness, "enrichment"), ++enrichment);
      assert.equal((await feeds()).length, 2);
    });

    test("the ninth feed is 409 feed_limit_reached, and a list feed refused so still spends its enrichment unit", async () => {
      await fresh();
      for (let i = 1; i <= 8; i++) await keywordsFeed(`Feed ${i}`, [`topic${i}`]);
      expectError(await create({ name: "Ninth", type: "keywords", keywords: ["nine"] }), 409, "feed_limit_reached");
      const enrichment = await usedToday(harness, "enrichment");
      expectError(await create({ name: "Ninth list", type: "x_list", x_list_id: x.public_list_id }), 409, "feed_limit_reached");
      assert.equal(await usedToday(harness, "enrichment"), enrichment + 1, "Limits 4: spent even if rejected with feed_limit_reached");
      assert.equal((await feeds()).length, 8);
    });

    test("a contact-list feed takes a list the user made on the account; a system list or another's list is refused", async () => {
      await fresh();
      const lists = (await send("GET", `/v1/contact-lists?limit=100&account_id=${harness.world.accounts.main}`)).body.data;
      if (index === 0) {
        const answer = await create({ name: "Guests", type: "list", list_id: String(harness.world.contact_lists.user) });
        assert.equal(answer.status, 201, JSON.stringify(answer.body));
        assert.equal(answer.body.data.type, "list");
        assert.equal(answer.body.data.list_id, harness.world.contact_lists.user);
        expectError(await create({ name: "Followers", type: "list", list_id: harness.world.contact_lists.system }), 400, "system_list_not_supported");
      } else {
        // The main account's list is not a list of the linked account.
        expectError(await create({ name: "Guests", type: "list", list_id: harness.world.contact_lists.user }), 404, "list_not_found");
      }
      assert.ok(lists.length > 0);
      expectError(await create({ name: "Nobody's", type: "list", list_id: 987_654_321 }), 404, "list_not_found");
    });

    test("PATCH renames and swaps the source without type: the feed keeps its id, its type follows, a list costs one unit", async () => {
      await fresh();
      const feed = await keywordsFeed("Before", ["alpha"]);
      const renamed = await send("PATCH", `/v1/engage/feeds/${feed.id}`, { name: " After " });
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
      assert.deepEqual([renamed.body.data.id, renamed.body.data.name, renamed.body.data.keywords], [feed.id, "After", ["alpha"]]);
      const enrichment = await usedToday(harness, "enrichment");
      const swapped = await send("PATCH", `/v1/engage/feeds/${feed.id}`, { x_list_url: `https://twitter.com/i/lists/${x.public_list_id}` });
      assert.equal(swapped.status, 200, JSON.stringify(swapped.body));
      assert.deepEqual([swapped.body.data.id, swapped.body.data.type, swapped.body.data.keywords], [feed.id, "x_list", null]);
      assert.equal(await usedToday(harness, "enrichment"), enrichment + 1, "Limits 4: updating with a list costs one unit");
      const back = await send("PATCH", `/v1/engage/feeds/${Number(feed.id)}`, { name: "Back", keywords: ["beta", "Beta"] });
      assert.deepEqual([back.body.data.type, back.body.data.name, back.body.data.keywords, back.body.data.x_list_id], ["keywords", "Back", ["beta"], null]);
      expectError(await send("PATCH", `/v1/engage/feeds/${feed.id}`, {}), 400, "invalid_parameter");
      expectError(await send("PATCH", `/v1/engage/feeds/${feed.id}`, { keywords: ["a"], x_list_id: x.public_list_id }), 400, "invalid_parameter");
      expectError(await send("PATCH", `/v1/engage/feeds/${feed.id}`, { name: "y".repeat(41) }), 400, "invalid_parameter");
      expectError(await send("PATCH", `/v1/engage/feeds/${feed.id}`, { x_list_id: x.private_list_id }), 404, "x_list_not_found");
      expectError(await send("PATCH", "/v1/engage/feeds/987654321", { name: "Nope" }), 404, "feed_not_found");
      expectError(await send("PATCH", "/v1/engage/feeds/abc", { name: "Nope" }), 400, "invalid_parameter");
      expectError(await send("PATCH", `/v1/engage/feeds/${feed.id}`, { name: "Theirs" }, harness.world.keys.other_user), 404, "feed_not_found");
    });

    test("DELETE hands the open feed to the first remaining one; deleting another leaves it; a second delete is 404", async () => {
      await fresh();
      const first = await keywordsFeed("First");
      const second = await keywordsFeed("Second");
      const third = await keywordsFeed("Third");
      const other = await send("DELETE", `/v1/engage/feeds/${third.id}`);
      assert.equal(other.status, 200, JSON.stringify(other.body));
      assert.deepEqual(other.body.data, { id: third.id, deleted: true, active_feed_id: first.id });
      const open = await send("DELETE", `/v1/engage/feeds/${first.id}`);
      assert.deepEqual(open.body.data, { id: first.id, deleted: true, active_feed_id: second.id });
      assert.deepEqual(
        (await feeds()).map((row: any) => [row.id, row.active]),
        [[second.id, true]],
      );
      expectError(await send("DELETE", `/v1/engage/feeds/${first.id}`), 404, "feed_not_found");
      expectError(await send("DELETE", `/v1/engage/feeds/${second.id}`, undefined, harness.world.keys.other_user), 404, "feed_not_found");
      const last = await send("DELETE", `/v1/engage/feeds/${second.id}`);
      assert.deepEqual(last.body.data, { id: second.id, deleted: true, active_feed_id: null });
      const again = await keywordsFeed("Again");
      assert.equal(again.active, true, "with no feed left, the next one is open");
    });
  });
});

describe("engage feeds: account rules", () => {
  const transport = () => transports(harness)[0];
  const send = (method: string, path: string, body?: unknown, key = harness.world.keys.write) => transport().request(method, path, { key, body });

  test("shared accounts are read-only: create is 403 writes_main_account_only, listing works; a read key is 403 insufficient_scope", async () => {
    const body = { name: "Shared", type: "keywords", keywords: ["a"], account_id: harness.world.accounts.shared };
    expectError(await send("POST", "/v1/engage/feeds", body), 403, "writes_main_account_only");
    const listed = await send("GET", `/v1/engage/feeds?account_id=${harness.world.accounts.shared}`);
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.deepEqual(listed.body.data, []);
    expectError(await send("GET", `/v1/engage/feeds?account_id=${harness.world.accounts.other_user}`), 404, "account_not_found");
    expectError(await send("POST", "/v1/engage/feeds", { name: "R", type: "keywords", keywords: ["a"] }, harness.world.keys.read), 403, "insufficient_scope");
  });

  test("a feed of another user's account cannot be reached by id, and account_id narrows the search", async () => {
    const theirs = await send("POST", "/v1/engage/feeds", { name: "Cy's", type: "keywords", keywords: ["cy"] }, harness.world.keys.other_user);
    assert.equal(theirs.status, 201, JSON.stringify(theirs.body));
    expectError(await send("GET", `/v1/engage/feeds/${theirs.body.data.id}/posts`), 404, "feed_not_found");
    expectError(await send("DELETE", `/v1/engage/feeds/${theirs.body.data.id}`), 404, "feed_not_found");
    const mine = await send("POST", "/v1/engage/feeds", { name: "Mine", type: "keywords", keywords: ["mine"] });
    assert.equal(mine.status, 201, JSON.stringify(mine.body));
    expectError(await send("PATCH", `/v1/engage/feeds/${mine.body.data.id}`, { name: "N", account_id: harness.world.accounts.linked }), 404, "feed_not_found");
    const ok = await send("PATCH", `/v1/engage/feeds/${mine.body.data.id}`, { name: "N", account_id: harness.world.accounts.main });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    await send("DELETE", `/v1/engage/feeds/${mine.body.data.id}`);
  });
});
