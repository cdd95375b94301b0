/**
 * `GET /v1/audience/{kind}` (docs/areas.md "Audience"; supplement section 5) on the demo world,
 * whose main account's audience the first start syncs: the four lists, their order and
 * meta, cursor paging without duplicates or gaps, bad input, and the account rules.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { describeMatrix } from "./support/describe_matrix.ts";

let harness: Harness;
before(async () => {
  harness = await startHarness({ demoContent: true });
});
after(() => harness.close());

interface Row {
  id: string;
  x_user_id: string;
  username: string;
  followers_count: number;
  engaged_count: number;
  replies_count: number;
  reposts_count: number;
  icp_score: null;
  icp_rationale: null;
}

describeMatrix(({ index, name, transport }) => {
  const get = (path: string, key = harness.world.keys.write) => transport(harness).request("GET", path, { key });

  /** Every row of a list, page by page. */
  async function everyRow(kind: string, limit: number): Promise<{ rows: Row[]; pages: number }> {
    const rows: Row[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const answer = await get(`/v1/audience/${kind}?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.ok(answer.body.data.length <= limit);
      rows.push(...answer.body.data);
      cursor = answer.body.pagination.next_cursor;
      assert.equal(answer.body.pagination.has_more, cursor !== null);
      pages += 1;
    } while (cursor);
    return { rows, pages };
  }

  describe(`GET /v1/audience/{kind} on the demo world (${name})`, () => {
    test("followers: a complete synced list in the index order, with its cap and the member fields", async () => {
      const answer = await get("/v1/audience/followers");
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const { data, pagination, meta } = answer.body;
      assert.equal(data.length, 50, "default limit 50");
      assert.deepEqual(Object.keys(pagination).sort(), ["has_more", "limit", "next_cursor"], "cursor paging, no total");
      assert.equal(pagination.limit, 50);
      assert.equal(pagination.has_more, true);
      assert.equal(meta.kind, "followers");
      assert.equal(meta.status, "complete");
      assert.ok(meta.synced_count > 1_000, `${meta.synced_count} followers`);
      assert.equal(meta.backfill_cap, 100_000, "the demo user is on ultra");
      assert.equal(meta.is_capped, false);
      assert.equal(meta.window_days, null);
      assert.equal(meta.account_id, harness.world.accounts.main);
      assert.equal(meta.x_account_id, harness.world.accounts.main);
      assert.ok(Date.parse(meta.last_synced_at) > 0);
      const expected = await harness.services.sql<{ x_user_id: string }[]>`
        select x_user_id from audience_members where account_id = ${harness.world.accounts.main} and kind = 'followers'
         order by walk_started_at desc, walk_index, x_user_id limit 50`;
      assert.deepEqual(
        data.map((row: Row) => row.x_user_id),
        expected.map((row) => row.x_user_id),
      );
      for (const row of data as Row[]) {
        assert.equal(row.id, row.x_user_id);
        assert.ok(row.username && typeof row.followers_count === "number");
        assert.equal(row.engaged_count, row.replies_count + row.reposts_count);
        assert.deepEqual([row.icp_score, row.icp_rationale], [null, null]);
      }
    });

    test("following: the same shape, its own count", async () => {
      const answer = await get("/v1/audience/following?limit=100");
      assert.equal(answer.status, 200);
      assert.equal(answer.body.meta.kind, "following");
      assert.equal(answer.body.meta.status, "complete");
      const [{ count }] = await harness.services.sql<{ count: number }[]>`
        select count(*)::int as count from audience_members where account_id = ${harness.world.accounts.main} and kind = 'following'`;
      assert.equal(answer.body.meta.synced_count, count);
      assert.ok(count > 0);
    });

    for (const [kind, field] of [
      ["repliers", "replies_count"],
      ["reposters", "reposts_count"],
    ] as const) {
      test(`${kind}: people who engaged in the last 90 days, most first, with the window in meta`, async () => {
        const { rows, pages } = await everyRow(kind, 7);
        assert.ok(rows.length > 7 && pages > 1, `${rows.length} ${kind}`);
        assert.equal(new Set(rows.map((row) => row.x_user_id)).size, rows.length, "no person twice across pages");
        for (const row of rows) {
          assert.ok(row[field] > 0);
          assert.equal(row.engaged_count, row.replies_count + row.reposts_count);
        }
        const order = rows.map((row) => [row[field], row.x_user_id] as const);
        const sorted = [...order].sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
        assert.deepEqual(order, sorted, `${field} desc, then x_user_id`);
        const first = await get(`/v1/audience/${kind}?limit=100`);
        const meta = first.body.meta;
        assert.deepEqual([meta.kind, meta.status, meta.window_days, meta.backfill_cap, meta.is_capped], [kind, "complete", 90, null, null]);
        assert.equal(meta.synced_count, rows.length, "synced_count is the list's size");
        const all = rows.length > 100 ? rows.slice(0, 100) : rows;
        assert.deepEqual(
          first.body.data.map((row: Row) => row.x_user_id),
          all.map((row) => row.x_user_id),
          "small pages add up to one large page: no gap",
        );
      });
    }

    if (index === 0) {
      test("cursor paging walks every follower exactly once, in order", async () => {
        const { rows } = await everyRow("followers", 100);
        const expected = await harness.services.sql<{ x_user_id: string }[]>`
          select x_user_id from audience_members where account_id = ${harness.world.accounts.main} and kind = 'followers'
           order by walk_started_at desc, walk_index, x_user_id`;
        assert.deepEqual(
          rows.map((row) => row.x_user_id),
          expected.map((row) => row.x_user_id),
        );
      });
    }

    test("limit outside 1 to 100, a bad kind and a malformed or foreign cursor answer 400 invalid_parameter", async () => {
      const followerCursor = (await get("/v1/audience/followers?limit=1")).body.pagination.next_cursor;
      assert.equal(typeof followerCursor, "string");
      const shapeless = Buffer.from(JSON.stringify({ x: 1 })).toString("base64url");
      for (const path of [
        "/v1/audience/followers?limit=0",
        "/v1/audience/followers?limit=101",
        "/v1/audience/followers?limit=ten",
        "/v1/audience/likers",
        "/v1/audience/Followers",
        "/v1/audience/followers?cursor=not*a*cursor",
        "/v1/audience/followers?cursor=abc",
        `/v1/audience/followers?cursor=${shapeless}`,
        `/v1/audience/repliers?cursor=${followerCursor}`,
      ]) {
        const answer = await get(path);
        assert.equal(answer.status, 400, path);
        assert.equal(answer.body.error.code, "invalid_parameter", path);
      }
      for (const limit of [1, 100]) assert.equal((await get(`/v1/audience/following?limit=${limit}`)).status, 200);
    });

    test("an account never synced answers status missing and no rows; a shared account is readable", async () => {
      for (const accountId of [harness.world.accounts.linked, harness.world.accounts.shared]) {
        for (const kind of ["followers", "reposters"]) {
          const answer = await get(`/v1/audience/${kind}?account_id=${accountId}`);
          assert.equal(answer.status, 200, JSON.stringify(answer.body));
          assert.deepEqual(answer.body.data, []);
          assert.deepEqual(answer.body.pagination, { limit: 50, has_more: false, next_cursor: null });
          assert.deepEqual([answer.body.meta.status, answer.body.meta.synced_count, answer.body.meta.account_id], ["missing", 0, accountId]);
          assert.equal(answer.body.meta.last_synced_at, null);
        }
      }
    });

    test("another user's account answers 404 account_not_found; that user reads their own", async () => {
      const answer = await get(`/v1/audience/followers?account_id=${harness.world.accounts.other_user}`);
      assert.equal(answer.status, 404);
      assert.equal(answer.body.error.code, "account_not_found");
      const own = await get("/v1/audience/followers", harness.world.keys.other_user);
      assert.equal(own.status, 200);
      assert.equal(own.body.meta.account_id, harness.world.accounts.other_user);
      const main = await get(`/v1/audience/followers?account_id=${harness.world.accounts.main}`, harness.world.keys.other_user);
      assert.equal(main.status, 404);
      assert.equal(main.body.error.code, "account_not_found");
    });
  });
});

describe("the synced audience in the CRM (demo world)", () => {
  const get = (path: string) => transports(harness)[0].request("GET", path, { key: harness.world.keys.write });

  test("contacts rank the demo account's engagers first; system lists count the index; a follower's detail names its system lists", async () => {
    const contacts = await get("/v1/contacts?limit=20");
    assert.equal(contacts.status, 200);
    const top = contacts.body.data[0];
    assert.ok(top.engaged_count > 0, "the synced engagers lead the ranking");
    for (let i = 1; i < contacts.body.data.length; i++) assert.ok(contacts.body.data[i - 1].engaged_count >= contacts.body.data[i].engaged_count);
    assert.equal(top.engaged_count, top.replies_count + top.reposts_count);

    const lists = (await get("/v1/contact-lists")).body.data;
    for (const kind of ["followers", "following", "repliers", "reposters"]) {
      const meta = (await get(`/v1/audience/${kind}?limit=1`)).body.meta;
      const list = lists.find((entry: { kind: string }) => entry.kind === kind);
      assert.equal(list.member_count, meta.synced_count, `${kind}: the system list counts its index`);
    }
    assert.ok(lists.find((entry: { kind: string }) => entry.kind === "followers").member_count > 0);

    const follower = (await get("/v1/audience/followers?limit=1")).body.data[0];
    const detail = await get(`/v1/contacts/${follower.x_user_id}`);
    assert.equal(detail.status, 200, "a follower is a known contact");
    const systemKinds = detail.body.data.lists.filter((entry: { is_system: boolean }) => entry.is_system).map((entry: { kind: string }) => entry.kind);
    assert.ok(systemKinds.includes("followers"), `followers among ${systemKinds}`);

    const engager = await get(`/v1/contacts/${top.id}`);
    const engagerKinds = engager.body.data.lists.map((entry: { kind: string }) => entry.kind);
    assert.ok(engagerKinds.includes(top.replies_count > 0 ? "repliers" : "reposters"));
  });
});
