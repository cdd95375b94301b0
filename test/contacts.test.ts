/**
 * Contacts and notes (docs/areas.md "Audience"; supplement: Audience, section 5; Limits 3): the ranking by
 * engagement over the rolling 90 days, the detail read with lists and the live refresh
 * with its exact units, a person's replies, and notes, through both transports.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness, type Transport } from "./support/harness.ts";
import { expectError } from "./support/expect_error.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import type { BucketName } from "../core/plans/plans.ts";
import { recountEngagement } from "../core/audience/contacts_queries.ts";

let harness: Harness;
/** Three people in the demo list, by engagement: `hot` replied 3 times and reposted twice, `warm` reposted once, `cold` never. */
let people: { hot: any; warm: any; cold: any };
const DAY = 86_400_000;

before(async () => {
  harness = await startHarness();
  const { sql, clock } = harness.services;
  const main = harness.world.accounts.main;
  const [writeTransport] = transports(harness);
  const members = (
    await writeTransport.request("GET", `/v1/contact-lists/${harness.world.contact_lists.user}/members?limit=100`, { key: harness.world.keys.write })
  ).body.data;
  assert.ok(members.length >= 3, "the demo list has at least three people");
  const [hot, warm, cold] = members;
  people = { hot, warm, cold };
  const now = clock.now();
  const reply = (id: string, who: any, daysAgo: number, likes: number) => ({
    account_id: main,
    x_post_id: id,
    text: `Reply ${id} from ${who.username}`,
    posted_at: new Date(now - daysAgo * DAY),
    likes,
    replies: 0,
    replier_x_user_id: who.x_user_id,
    replier_username: who.username,
    replier_name: who.name,
    replier_avatar_url: who.avatar_url,
    replier_followers_count: who.followers_count,
    replier_verified: false,
    in_reply_to_x_post_id: "1700000000000000001",
    synced_at: new Date(now),
  });
  await sql`insert into received_replies ${sql([reply("1800000000000000001", hot, 1, 5), reply("1800000000000000002", hot, 10, 50), reply("1800000000000000003", hot, 89, 1), reply("1800000000000000004", hot, 91, 99)] as never)}`;
  const repost = (post: string, who: any, daysAgo: number) => ({
    account_id: main,
    x_post_id: post,
    x_user_id: who.x_user_id,
    engaged_at: new Date(now - daysAgo * DAY),
  });
  await sql`insert into audience_reposts ${sql([repost("1700000000000000001", hot, 2), repost("1700000000000000002", hot, 3), repost("1700000000000000001", warm, 4), repost("1700000000000000003", warm, 120)] as never)}`;
  await sql`insert into audience_members (account_id, kind, x_user_id, walk_started_at, walk_index, generation)
            values (${main}, 'followers', ${hot.x_user_id}, ${new Date(now)}, 0, 1)`;
  await recountEngagement(sql, main, new Date(now - 90 * DAY));
});
after(() => harness.close());

async function usedToday(mainAccountId: string, bucket: BucketName): Promise<number> {
  const { requestCounters, clock } = harness.services;
  const check = { key: `rl:${mainAccountId}:${bucket}:day`, limit: 1_000_000_000, windowSeconds: 86_400, cost: 0 };
  return (await requestCounters.consume([check], clock.now())).windows[0].used;
}

describeMatrix(({ index, name }) => {
  const transport = (): Transport => transports(harness)[index];
  const send = (method: string, path: string, body?: unknown, key = harness.world.keys.write) => transport().request(method, path, { key, body });

  describe(`contacts (${name})`, () => {
    test("GET /v1/contacts ranks by replies plus reposts of the rolling 90 days; sort=replies and sort=reposts list only such people", async () => {
      const answer = await send("GET", "/v1/contacts?limit=100");
      assert.equal(answer.status, 200);
      const rows = answer.body.data;
      assert.deepEqual(
        rows.slice(0, 2).map((row: any) => row.id),
        [people.hot.x_user_id, people.warm.x_user_id],
      );
      assert.deepEqual([rows[0].replies_count, rows[0].reposts_count, rows[0].engaged_count], [3, 2, 5], "the 91-day-old reply is outside the window");
      assert.deepEqual([rows[1].replies_count, rows[1].reposts_count, rows[1].engaged_count], [0, 1, 1]);
      assert.equal(rows[0].x_user_id, rows[0].id);
      assert.ok(
        rows.some((row: any) => row.id === people.cold.x_user_id && row.engaged_count === 0),
        "people without engagement are contacts too",
      );
      const replies = await send("GET", "/v1/contacts?sort=replies");
      assert.deepEqual(
        replies.body.data.map((row: any) => row.id),
        [people.hot.x_user_id],
      );
      const reposts = await send("GET", "/v1/contacts?sort=reposts");
      assert.deepEqual(
        reposts.body.data.map((row: any) => row.id),
        [people.hot.x_user_id, people.warm.x_user_id],
      );
      const paged = await send("GET", "/v1/contacts?limit=1&page=2");
      assert.equal(paged.body.data[0].id, people.warm.x_user_id);
      assert.equal(paged.body.pagination.has_more, true);
      expectError(await send("GET", "/v1/contacts?sort=followers"), 400, "invalid_parameter");
      expectError(await send("GET", "/v1/contacts?limit=0"), 400, "invalid_parameter");
    });

    test("GET /v1/contacts?q= finds people by a substring of handle or name, in any case, its wildcards taken literally", async () => {
      const handle = people.hot.username as string;
      const found = await send("GET", `/v1/contacts?limit=100&q=${encodeURIComponent(handle.slice(1, -1).toUpperCase())}`);
      assert.equal(found.status, 200);
      assert.ok(found.body.data.some((row: any) => row.id === people.hot.x_user_id));
      assert.ok(found.body.data.every((row: any) => `${row.username}\n${row.name}`.toLowerCase().includes(handle.slice(1, -1).toLowerCase())));
      const sorted = await send("GET", `/v1/contacts?sort=replies&q=${encodeURIComponent(handle)}`);
      assert.deepEqual(
        sorted.body.data.map((row: any) => row.id),
        [people.hot.x_user_id],
      );
      assert.deepEqual((await send("GET", "/v1/contacts?q=%25")).body.data, []);
      expectError(await send("GET", `/v1/contacts?q=${"x".repeat(101)}`), 400, "invalid_parameter");
    });

    test("GET /v1/contacts/{id} answers the stored profile, verified state, bio, notes count and every list with its member_id", async () => {
      const answer = await send("GET", `/v1/contacts/${people.hot.x_user_id}`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const detail = answer.body.data;
      assert.equal(detail.username, people.hot.username);
      assert.equal(typeof detail.verified, "boolean");
      assert.equal(typeof detail.bio, "string");
      assert.equal(detail.engaged_count, 5);
      const demoList = detail.lists.find((entry: any) => entry.list_id === harness.world.contact_lists.user);
      assert.equal(demoList.member_id, people.hot.id);
      assert.equal(demoList.is_system, false);
      assert.deepEqual(
        detail.lists.filter((entry: any) => entry.is_system).map((entry: any) => [entry.kind, entry.member_id]),
        [
          ["followers", null],
          ["repliers", null],
          ["reposters", null],
        ],
      );
      const warm = (await send("GET", `/v1/contacts/${people.warm.x_user_id}`)).body.data;
      assert.deepEqual(
        warm.lists.filter((entry: any) => entry.is_system).map((entry: any) => entry.kind),
        ["reposters"],
      );
    });

    test("unknown people are 404 contact_not_found; a malformed id 400; refresh takes only true or false", async () => {
      expectError(await send("GET", "/v1/contacts/1999999999999999990"), 404, "contact_not_found");
      expectError(await send("GET", "/v1/contacts/abc"), 400, "invalid_parameter");
      expectError(await send("GET", `/v1/contacts/${people.hot.x_user_id}?refresh=yes`), 400, "invalid_parameter");
      expectError(await send("GET", `/v1/contacts/${people.hot.x_user_id}`, undefined, harness.world.keys.other_user), 404, "contact_not_found");
      expectError(await send("GET", `/v1/contacts/${people.hot.x_user_id}?account_id=${harness.world.accounts.other_user}`), 404, "account_not_found");
    });

    test("the stored read is free of enrichment; refresh=true re-reads live for one write and one enrichment unit", async () => {
      const { sql } = harness.services;
      const main = harness.world.accounts.main;
      await sql`update contacts set username = 'stale_name', followers_count = 0 where account_id = ${main} and x_user_id = ${people.cold.x_user_id}`;
      const before = { writes: await usedToday(main, "writes"), enrichment: await usedToday(main, "enrichment") };
      const stored = await send("GET", `/v1/contacts/${people.cold.x_user_id}`);
      assert.equal(stored.body.data.username, "stale_name");
      assert.equal(await usedToday(main, "enrichment"), before.enrichment, "a stored read costs no enrichment");
      const fresh = await send("GET", `/v1/contacts/${people.cold.x_user_id}?refresh=true`);
      assert.equal(fresh.status, 200);
      assert.equal(fresh.body.data.username, people.cold.username);
      assert.ok(fresh.body.data.followers_count > 0);
      assert.equal(await usedToday(main, "writes"), before.writes + 1);
      assert.equal(await usedToday(main, "enrichment"), before.enrichment + 1);
      const stays = await send("GET", `/v1/contacts/${people.cold.x_user_id}`);
      assert.equal(stays.body.data.username, people.cold.username, "the refreshed profile is stored");
    });

    test("refreshing someone the network no longer has is 404 user_not_found and gives the units back", async () => {
      const { sql, clock } = harness.services;
      const main = harness.world.accounts.main;
      const gone = "1999999999999999991";
      await sql`insert into contacts (account_id, x_user_id, username, name, profile_read_at, created_at)
                values (${main}, ${gone}, 'gone_person', 'Gone', ${new Date(clock.now())}, ${new Date(clock.now())})
                on conflict do nothing`;
      const before = { writes: await usedToday(main, "writes"), enrichment: await usedToday(main, "enrichment") };
      expectError(await send("GET", `/v1/contacts/${gone}?refresh=true`), 404, "user_not_found");
      assert.equal(await usedToday(main, "writes"), before.writes);
      assert.equal(await usedToday(main, "enrichment"), before.enrichment);
    });

    test("GET /v1/contacts/{id}/replies lists that person's replies to the account, recent or most liked first", async () => {
      const recent = await send("GET", `/v1/contacts/${people.hot.x_user_id}/replies`);
      assert.equal(recent.status, 200, JSON.stringify(recent.body));
      assert.deepEqual(
        recent.body.data.map((reply: any) => reply.id),
        ["1800000000000000001", "1800000000000000002", "1800000000000000003", "1800000000000000004"],
      );
      assert.ok(recent.body.data.every((reply: any) => reply.author.x_user_id === people.hot.x_user_id));
      const liked = await send("GET", `/v1/contacts/${people.hot.x_user_id}/replies?sort=most_liked&limit=2`);
      assert.deepEqual(
        liked.body.data.map((reply: any) => reply.likes),
        [99, 50],
      );
      assert.equal(liked.body.pagination.has_more, true);
      const none = await send("GET", `/v1/contacts/${people.warm.x_user_id}/replies`);
      assert.deepEqual(none.body.data, []);
      expectError(await send("GET", "/v1/contacts/1999999999999999990/replies"), 404, "contact_not_found");
      expectError(await send("GET", `/v1/contacts/${people.hot.x_user_id}/replies?sort=oldest`), 400, "invalid_parameter");
    });
  });

  describe(`notes (${name})`, () => {
    test("add (201), list newest first, replace on PATCH, delete (204); created_by is the acting account", async () => {
      const person = people.warm.x_user_id;
      const first = await send("POST", `/v1/contacts/${person}/notes`, { body: "  Asked about pricing  " });
      assert.equal(first.status, 201, JSON.stringify(first.body));
      assert.equal(first.body.data.body, "Asked about pricing");
      assert.equal(first.body.data.created_by, harness.world.accounts.main);
      assert.equal(first.body.data.x_user_id, person);
      const second = await send("POST", `/v1/contacts/${person}/notes`, { body: "Follow up in January" });
      const listed = await send("GET", `/v1/contacts/${person}/notes`);
      assert.deepEqual(
        listed.body.data.slice(0, 2).map((note: any) => note.id),
        [second.body.data.id, first.body.data.id],
      );
      const replaced = await send("PATCH", `/v1/contacts/${person}/notes/${first.body.data.id}`, { body: "Pricing: wants annual" });
      assert.equal(replaced.status, 200);
      assert.equal(replaced.body.data.body, "Pricing: wants annual");
      assert.equal(replaced.body.data.created_at, first.body.data.created_at);
      const detail = await send("GET", `/v1/contacts/${person}`);
      assert.equal(detail.body.data.notes_count, listed.body.data.length);
      const removed = await send("DELETE", `/v1/contacts/${person}/notes/${first.body.data.id}`);
      assert.equal(removed.status, 204);
      assert.equal(removed.body, null);
      expectError(await send("DELETE", `/v1/contacts/${person}/notes/${first.body.data.id}`), 404, "note_not_found");
      expectError(await send("PATCH", `/v1/contacts/${person}/notes/${first.body.data.id}`, { body: "x" }), 404, "note_not_found");
    });

    test("another contact's or another account's note is 404 note_not_found; adding needs a known contact; body 1 to 5000", async () => {
      const note = await send("POST", `/v1/contacts/${people.hot.x_user_id}/notes`, { body: "Great replies" });
      expectError(await send("PATCH", `/v1/contacts/${people.warm.x_user_id}/notes/${note.body.data.id}`, { body: "moved" }), 404, "note_not_found");
      expectError(await send("DELETE", `/v1/contacts/${people.warm.x_user_id}/notes/${note.body.data.id}`), 404, "note_not_found");
      expectError(
        await send("PATCH", `/v1/contacts/${people.hot.x_user_id}/notes/${note.body.data.id}`, { body: "theirs" }, harness.world.keys.other_user),
        404,
        "note_not_found",
      );
      expectError(await send("POST", "/v1/contacts/1999999999999999990/notes", { body: "Who?" }), 404, "contact_not_found");
      const unknownList = await send("GET", "/v1/contacts/1999999999999999990/notes");
      assert.equal(unknownList.status, 200, "reading notes is not limited to known contacts");
      assert.deepEqual(unknownList.body.data, []);
      for (const body of ["", "   ", "x".repeat(5001)])
        expectError(await send("POST", `/v1/contacts/${people.hot.x_user_id}/notes`, { body }), 400, "invalid_parameter");
      assert.equal((await send("POST", `/v1/contacts/${people.hot.x_user_id}/notes`, { body: "x".repeat(5000) })).status, 201);
      expectError(await send("PATCH", `/v1/contacts/${people.hot.x_user_id}/notes/abc`, { body: "x" }), 400, "invalid_parameter");
    });
  });
});

describe("the account rules on contacts and notes", () => {
  const send = (method: string, path: string, body: unknown, key: string) => transports(harness)[0].request(method, path, { key, body });

  test("a shared account's contacts and notes read; note writes are 403 writes_main_account_only; a read key cannot write", async () => {
    const shared = harness.world.accounts.shared;
    assert.equal((await send("GET", `/v1/contacts?account_id=${shared}`, undefined, harness.world.keys.write)).status, 200);
    assert.equal((await send("GET", `/v1/contacts/${people.hot.x_user_id}/notes?account_id=${shared}`, undefined, harness.world.keys.write)).status, 200);
    expectError(
      await send("POST", `/v1/contacts/${people.hot.x_user_id}/notes`, { body: "x", account_id: shared }, harness.world.keys.write),
      403,
      "writes_main_account_only",
    );
    expectError(await send("POST", `/v1/contacts/${people.hot.x_user_id}/notes`, { body: "x" }, harness.world.keys.read), 403, "insufficient_scope");
    // Contacts are per account: the linked account does not know the main account's engagers.
    expectError(
      await send("GET", `/v1/contacts/${people.hot.x_user_id}?account_id=${harness.world.accounts.linked}`, undefined, harness.world.keys.write),
      404,
      "contact_not_found",
    );
  });
});

describe("when the network is unreachable", () => {
  let failing: Harness;
  before(async () => {
    failing = await startHarness({ config: { faults: "x" } });
  });
  after(() => failing.close());

  test("a member add and a contact refresh answer 503 upstream_unavailable; stored reads still answer", async () => {
    const { sql, clock } = failing.services;
    const main = failing.world.accounts.main;
    const [transport] = transports(failing);
    const send = (method: string, path: string, body?: unknown) => transport.request(method, path, { key: failing.world.keys.write, body });
    const person = "1999999999999999992";
    await sql`insert into contacts (account_id, x_user_id, username, name, profile_read_at, created_at)
              values (${main}, ${person}, 'stored_person', 'Stored', ${new Date(clock.now())}, ${new Date(clock.now())})`;
    expectError(await send("POST", `/v1/contact-lists/${failing.world.contact_lists.user}/members`, { handle: "kai_on_ai" }), 503, "upstream_unavailable");
    expectError(await send("GET", `/v1/contacts/${person}?refresh=true`), 503, "upstream_unavailable");
    const stored = await send("GET", `/v1/contacts/${person}`);
    assert.equal(stored.status, 200);
    assert.equal(stored.body.data.username, "stored_person");
    const members = await send("GET", `/v1/contact-lists/${failing.world.contact_lists.user}/members`);
    assert.deepEqual(members.body.data, [], "the demo list starts empty while the network is down");
  });
});
