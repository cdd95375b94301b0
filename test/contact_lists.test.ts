/**
 * Contact lists and their members (docs/areas.md "Audience"; spec: Contact lists, Limits 3, Constants;
 * supplement: Contact Lists): user and system lists, search, single and bulk adds with
 * their exact units, bulk and single removal, the account rules, on the demo world
 * through both transports.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness, type Transport } from "./support/harness.ts";
import { expectError } from "./support/expect_error.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import type { BucketName } from "../core/plans/plans.ts";

let harness: Harness;
before(async () => {
  harness = await startHarness();
});
after(() => harness.close());

/** Units the owner of `mainAccountId` spent today in `bucket` (a consume of cost 0 only reads). */
async function usedToday(mainAccountId: string, bucket: BucketName): Promise<number> {
  const { requestCounters, clock } = harness.services;
  const check = { key: `rl:${mainAccountId}:${bucket}:day`, limit: 1_000_000_000, windowSeconds: 86_400, cost: 0 };
  const result = await requestCounters.consume([check], clock.now());
  return result.windows[0].used;
}

describeMatrix(({ index, name }) => {
  const transport = (): Transport => transports(harness)[index];
  const key = () => harness.world.keys.write;
  const send = (method: string, path: string, body?: unknown, withKey = key()) => transport().request(method, path, { key: withKey, body });
  const newList = async (listName = `List ${name} ${Math.random()}`) => {
    const created = await send("POST", "/v1/contact-lists", { name: listName });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return created.body.data;
  };

  describe(`contact lists (${name})`, () => {
    test("GET /v1/contact-lists lists the user's lists first, then the four system lists with is_system, kind and member_count", async () => {
      const answer = await send("GET", "/v1/contact-lists");
      assert.equal(answer.status, 200);
      const lists = answer.body.data;
      const system = lists.filter((list: any) => list.is_system);
      assert.deepEqual(
        system.map((list: any) => [list.kind, list.name]),
        [
          ["followers", "Followers"],
          ["following", "Following"],
          ["repliers", "Repliers"],
          ["reposters", "Reposters"],
        ],
      );
      const firstSystem = lists.findIndex((list: any) => list.is_system);
      assert.ok(
        lists.slice(firstSystem).every((list: any) => list.is_system),
        "system lists come last",
      );
      const demo = lists.find((list: any) => list.id === harness.world.contact_lists.user);
      assert.equal(demo.kind, "custom");
      assert.equal(demo.is_system, false);
      assert.ok(demo.member_count >= 2, `the demo list has members (${demo.member_count})`);
      assert.equal(system[0].id, harness.world.contact_lists.system);
      assert.equal(answer.body.pagination.total, lists.length);
    });

    test("POST creates a list (201); names are trimmed, 1 to 120 characters, not unique", async () => {
      const first = await newList("  Warm leads ");
      assert.equal(first.name, "Warm leads");
      assert.equal(first.member_count, 0);
      assert.equal(first.kind, "custom");
      assert.equal(first.account_id, harness.world.accounts.main);
      const second = await newList("Warm leads");
      assert.notEqual(second.id, first.id);
      for (const bad of ["", "   ", "x".repeat(121), 7]) expectError(await send("POST", "/v1/contact-lists", { name: bad }), 400, "invalid_parameter");
      assert.equal((await send("POST", "/v1/contact-lists", { name: "x".repeat(120) })).status, 201);
    });

    test("PATCH renames; a system list is 400 system_list_read_only; unknown or another user's list 404 list_not_found", async () => {
      const list = await newList();
      const renamed = await send("PATCH", `/v1/contact-lists/${list.id}`, { name: "Podcast guests 2027" });
      assert.equal(renamed.status, 200);
      assert.equal(renamed.body.data.name, "Podcast guests 2027");
      expectError(await send("PATCH", `/v1/contact-lists/${harness.world.contact_lists.system}`, { name: "Mine" }), 400, "system_list_read_only");
      expectError(await send("PATCH", "/v1/contact-lists/999999999", { name: "Nope" }), 404, "list_not_found");
      expectError(await send("PATCH", `/v1/contact-lists/${list.id}`, { name: "Theirs" }, harness.world.keys.other_user), 404, "list_not_found");
      expectError(await send("PATCH", `/v1/contact-lists/${list.id}`, { name: "" }), 400, "invalid_parameter");
      // `account_id` narrows the search: the list is not the linked account's.
      expectError(await send("PATCH", `/v1/contact-lists/${list.id}`, { name: "Linked", account_id: harness.world.accounts.linked }), 404, "list_not_found");
    });

    test("DELETE answers 204 with no body, keeps the people as contacts; a second delete is 404 list_not_found", async () => {
      const list = await newList();
      const added = await send("POST", `/v1/contact-lists/${list.id}/members`, { handle: harness.world.x!.user_handle });
      assert.equal(added.status, 201);
      const deleted = await send("DELETE", `/v1/contact-lists/${list.id}`);
      assert.equal(deleted.status, 204);
      assert.equal(deleted.body, null);
      expectError(await send("DELETE", `/v1/contact-lists/${list.id}`), 404, "list_not_found");
      expectError(await send("GET", `/v1/contact-lists/${list.id}/members`), 404, "list_not_found");
      const person = await send("GET", `/v1/contacts/${added.body.data.x_user_id}`);
      assert.equal(person.status, 200, "the person is still a contact");
      assert.ok(!person.body.data.lists.some((entry: any) => entry.list_id === list.id));
      expectError(await send("DELETE", `/v1/contact-lists/${harness.world.contact_lists.system}`), 400, "system_list_read_only");
    });

    test("members: newest first with the member fields; q finds a substring of handle or name, any case, @ ignored", async () => {
      const answer = await send("GET", `/v1/contact-lists/${harness.world.contact_lists.user}/members?limit=100`);
      assert.equal(answer.status, 200);
      const members = answer.body.data;
      assert.ok(members.length >= 2);
      assert.equal(answer.body.pagination.total, members.length);
      for (const member of members) {
        assert.match(member.id, /^[0-9]+$/);
        assert.match(member.x_user_id, /^[0-9]+$/);
        assert.equal(typeof member.engaged_count, "number");
        assert.equal(member.source, "manual");
      }
      const target = members[members.length - 1];
      const fragment = target.username.slice(1, 5).toUpperCase();
      const found = await send("GET", `/v1/contact-lists/${harness.world.contact_lists.user}/members?q=${encodeURIComponent(fragment)}`);
      assert.ok(
        found.body.data.some((member: any) => member.id === target.id),
        `q=${fragment} finds ${target.username}`,
      );
      for (const member of found.body.data) assert.ok(`${member.username}\n${member.name}`.toLowerCase().includes(fragment.toLowerCase()));
      assert.equal(found.body.pagination.total, found.body.data.length);
      const byAt = await send("GET", `/v1/contact-lists/${harness.world.contact_lists.user}/members?q=${encodeURIComponent(`@${target.username}`)}`);
      assert.deepEqual(
        byAt.body.data.map((member: any) => member.id),
        [target.id],
      );
      const byName = await send(
        "GET",
        `/v1/contact-lists/${harness.world.contact_lists.user}/members?q=${encodeURIComponent(target.name.slice(0, 4).toLowerCase())}`,
      );
      assert.ok(byName.body.data.some((member: any) => member.id === target.id));
      const none = await send("GET", `/v1/contact-lists/${harness.world.contact_lists.user}/members?q=${encodeURIComponent("%_zz")}`);
      assert.deepEqual(none.body.data, [], "wildcards are taken literally");
      const paged = await send("GET", `/v1/contact-lists/${harness.world.contact_lists.user}/members?limit=1&page=2`);
      assert.equal(paged.body.data[0].id, members[1].id);
      assert.equal(paged.body.pagination.has_more, members.length > 2);
    });

    test("members of a system list are 400 system_list_not_supported; an unknown list 404 list_not_found; bad paging 400", async () => {
      expectError(await send("GET", `/v1/contact-lists/${harness.world.contact_lists.system}/members`), 400, "system_list_not_supported");
      expectError(await send("GET", "/v1/contact-lists/999999999/members"), 404, "list_not_found");
      expectError(
        await send("GET", `/v1/contact-lists/${harness.world.contact_lists.user}/members`, undefined, harness.world.keys.other_user),
        404,
        "list_not_found",
      );
      expectError(await send("GET", `/v1/contact-lists/${harness.world.contact_lists.user}/members?limit=101`), 400, "invalid_parameter");
      expectError(await send("GET", "/v1/contact-lists/abc/members"), 400, "invalid_parameter");
    });
  });

  describe(`adding and removing members (${name})`, () => {
    test("add by handle, with or without @, costs one write and one enrichment unit; re-adding answers duplicate: true and writes nothing", async () => {
      const list = await newList();
      const main = harness.world.accounts.main;
      const before = { writes: await usedToday(main, "writes"), enrichment: await usedToday(main, "enrichment") };
      const added = await send("POST", `/v1/contact-lists/${list.id}/members`, { handle: `@${harness.world.x!.user_handle}` });
      assert.equal(added.status, 201, JSON.stringify(added.body));
      assert.equal(added.body.data.duplicate, false);
      assert.equal(added.body.data.username.toLowerCase(), harness.world.x!.user_handle.toLowerCase());
      assert.equal(added.body.data.source, "manual");
      assert.equal(await usedToday(main, "writes"), before.writes + 1);
      assert.equal(await usedToday(main, "enrichment"), before.enrichment + 1);
      const again = await send("POST", `/v1/contact-lists/${list.id}/members`, { handle: harness.world.x!.user_handle });
      assert.equal(again.status, 201);
      assert.equal(again.body.data.duplicate, true);
      assert.equal(again.body.data.id, added.body.data.id);
      assert.equal(again.body.data.added_at, added.body.data.added_at);
      const byId = await send("POST", `/v1/contact-lists/${list.id}/members`, { x_user_id: added.body.data.x_user_id });
      assert.equal(byId.body.data.duplicate, true);
      const lists = await send("GET", "/v1/contact-lists");
      assert.equal(lists.body.data.find((entry: any) => entry.id === list.id).member_count, 1);
    });

    test("add by x_user_id (text or a safe JSON number); unknown people 404 user_not_found; exactly one of handle or x_user_id", async () => {
      const list = await newList();
      const person = (await send("GET", `/v1/x/users/${harness.world.x!.user_handle}`)).body.data;
      const added = await send("POST", `/v1/contact-lists/${list.id}/members`, { x_user_id: person.id });
      assert.equal(added.status, 201, JSON.stringify(added.body));
      assert.equal(added.body.data.x_user_id, person.id);
      expectError(await send("POST", `/v1/contact-lists/${list.id}/members`, { handle: harness.world.x!.unknown_handle }), 404, "user_not_found");
      expectError(await send("POST", `/v1/contact-lists/${list.id}/members`, { x_user_id: "1999999999999999999" }), 404, "user_not_found");
      expectError(await send("POST", `/v1/contact-lists/${list.id}/members`, {}), 400, "invalid_parameter");
      expectError(await send("POST", `/v1/contact-lists/${list.id}/members`, { handle: "a", x_user_id: "1" }), 400, "invalid_parameter");
      expectError(await send("POST", `/v1/contact-lists/${list.id}/members`, { handle: "bad handle!" }), 400, "invalid_parameter");
      expectError(await send("POST", `/v1/contact-lists/${list.id}/members`, { x_user_id: 1e300 }), 400, "invalid_parameter");
      expectError(await send("POST", `/v1/contact-lists/${harness.world.contact_lists.system}/members`, { handle: "kai_on_ai" }), 400, "system_list_read_only");
      expectError(await send("POST", "/v1/contact-lists/999999999/members", { handle: "kai_on_ai" }), 404, "list_not_found");
    });

    test("bulk add: known people only (not_found), duplicates counted, one write and no enrichment", async () => {
      const list = await newList();
      const demoMembers = (await send("GET", `/v1/contact-lists/${harness.world.contact_lists.user}/members?limit=100`)).body.data;
      const ids = demoMembers.map((member: any) => member.x_user_id);
      const main = harness.world.accounts.main;
      const before = { writes: await usedToday(main, "writes"), enrichment: await usedToday(main, "enrichment") };
      const first = await send("POST", `/v1/contact-lists/${list.id}/members/bulk`, { x_user_ids: [ids[0], "1999999999999999998"] });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.deepEqual(first.body.data, { added: 1, duplicates: 0, not_found: ["1999999999999999998"], total_in_list_after: 1 });
      assert.equal(await usedToday(main, "writes"), before.writes + 1);
      assert.equal(await usedToday(main, "enrichment"), before.enrichment);
      const second = await send("POST", `/v1/contact-lists/${list.id}/members/bulk`, { x_user_ids: ids });
      assert.deepEqual(second.body.data, { added: ids.length - 1, duplicates: 1, not_found: [], total_in_list_after: ids.length });
      const members = await send("GET", `/v1/contact-lists/${list.id}/members?limit=100`);
      assert.equal(members.body.data.length, ids.length);
      assert.ok(members.body.data.some((member: any) => member.source === "bulk"));
      expectError(await send("POST", `/v1/contact-lists/${list.id}/members/bulk`, { x_user_ids: [] }), 400, "invalid_parameter");
      expectError(
        await send("POST", `/v1/contact-lists/${list.id}/members/bulk`, { x_user_ids: Array.from({ length: 501 }, (_, i) => String(i + 1)) }),
        400,
        "invalid_parameter",
      );
      expectError(await send("POST", `/v1/contact-lists/${list.id}/members/bulk`, { x_user_ids: ["12a"] }), 400, "invalid_parameter");
      expectError(
        await send("POST", `/v1/contact-lists/${harness.world.contact_lists.system}/members/bulk`, { x_user_ids: ids }),
        400,
        "system_list_read_only",
      );
      expectError(await send("POST", "/v1/contact-lists/999999999/members/bulk", { x_user_ids: ids }), 404, "list_not_found");
    });

    test("bulk delete skips ids not in the list and answers deleted and total_in_list_after; at most 500 ids", async () => {
      const list = await newList();
      const ids = (await send("GET", `/v1/contact-lists/${harness.world.contact_lists.user}/members?limit=100`)).body.data.map(
        (member: any) => member.x_user_id,
      );
      await send("POST", `/v1/contact-lists/${list.id}/members/bulk`, { x_user_ids: ids });
      const members = (await send("GET", `/v1/contact-lists/${list.id}/members?limit=100`)).body.data;
      const outsider = (await send("GET", `/v1/contact-lists/${harness.world.contact_lists.user}/members?limit=1`)).body.data[0].id;
      const answer = await send("POST", `/v1/contact-lists/${list.id}/members/bulk-delete`, {
        member_ids: [members[0].id, Number(members[1].id), outsider, "99999999"],
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(answer.body.data, { deleted: 2, total_in_list_after: members.length - 2 });
      const demo = (await send("GET", "/v1/contact-lists")).body.data.find((entry: any) => entry.id === harness.world.contact_lists.user);
      assert.ok(demo.member_count >= 2, "another list's member id was skipped");
      expectError(await send("POST", `/v1/contact-lists/${list.id}/members/bulk-delete`, { member_ids: [] }), 400, "invalid_parameter");
      expectError(
        await send("POST", `/v1/contact-lists/${list.id}/members/bulk-delete`, { member_ids: Array.from({ length: 501 }, (_, i) => String(i + 1)) }),
        400,
        "invalid_parameter",
      );
      expectError(await send("POST", `/v1/contact-lists/${list.id}/members/bulk-delete`, { member_ids: ["x"] }), 400, "invalid_parameter");
      expectError(
        await send("POST", `/v1/contact-lists/${harness.world.contact_lists.system}/members/bulk-delete`, { member_ids: ["1"] }),
        400,
        "system_list_read_only",
      );
      expectError(await send("POST", "/v1/contact-lists/999999999/members/bulk-delete", { member_ids: ["1"] }), 404, "list_not_found");
    });

    test("DELETE one member answers 204; unknown member 404 member_not_found; system list 400 system_list_read_only", async () => {
      const list = await newList();
      const added = await send("POST", `/v1/contact-lists/${list.id}/members`, { handle: harness.world.x!.user_handle });
      const removed = await send("DELETE", `/v1/contact-lists/${list.id}/members/${added.body.data.id}`);
      assert.equal(removed.status, 204);
      assert.equal(removed.body, null);
      expectError(await send("DELETE", `/v1/contact-lists/${list.id}/members/${added.body.data.id}`), 404, "member_not_found");
      expectError(await send("DELETE", `/v1/contact-lists/${list.id}/members/abc`), 400, "invalid_parameter");
      expectError(await send("DELETE", `/v1/contact-lists/${harness.world.contact_lists.system}/members/1`), 400, "system_list_read_only");
      const lists = await send("GET", "/v1/contact-lists");
      assert.equal(lists.body.data.find((entry: any) => entry.id === list.id).member_count, 0);
    });
  });
});

describe("the account rules on contact lists", () => {
  const send = (method: string, path: string, body: unknown, key: string) => transports(harness)[0].request(method, path, { key, body });

  test("a shared account's lists read but refuse writes with 403 writes_main_account_only; a read key cannot write", async () => {
    const shared = harness.world.accounts.shared;
    const lists = await send("GET", `/v1/contact-lists?account_id=${shared}`, undefined, harness.world.keys.write);
    assert.equal(lists.status, 200);
    assert.ok(lists.body.data.every((list: any) => list.account_id === shared));
    const created = await send("POST", "/v1/contact-lists", { name: "Nope", account_id: shared }, harness.world.keys.write);
    expectError(created, 403, "writes_main_account_only");
    const systemOfShared = lists.body.data.find((list: any) => list.kind === "followers").id;
    expectError(await send("PATCH", `/v1/contact-lists/${systemOfShared}`, { name: "x" }, harness.world.keys.write), 403, "writes_main_account_only");
    expectError(await send("POST", "/v1/contact-lists", { name: "Read key" }, harness.world.keys.read), 403, "insufficient_scope");
    expectError(
      await send("GET", `/v1/contact-lists?account_id=${harness.world.accounts.other_user}`, undefined, harness.world.keys.write),
      404,
      "account_not_found",
    );
  });

  test("a linked account has its own lists; the real client adds members without account_id and the list's account is used", async () => {
    const linked = harness.world.accounts.linked;
    const created = await send("POST", "/v1/contact-lists", { name: "Linked list", account_id: linked }, harness.world.keys.write);
    assert.equal(created.status, 201);
    assert.equal(created.body.data.account_id, linked);
    const added = await send("POST", `/v1/contact-lists/${created.body.data.id}/members`, { handle: harness.world.x!.user_handle }, harness.world.keys.write);
    assert.equal(added.status, 201);
    const contact = await send("GET", `/v1/contacts/${added.body.data.x_user_id}?account_id=${linked}`, undefined, harness.world.keys.write);
    assert.equal(contact.status, 200, "the person became a contact of the linked account");
    const mainLists = await send("GET", "/v1/contact-lists", undefined, harness.world.keys.write);
    assert.ok(!mainLists.body.data.some((list: any) => list.id === created.body.data.id));
  });
});
