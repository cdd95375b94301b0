/** Tags (spec: GET/POST /v1/tags, PATCH/DELETE /v1/tags/{id}; rule 4, 5; supplement: Tags). */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, type Harness } from "./support/harness.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { timestamp } from "../core/schema.ts";

let harness: Harness;
before(async () => {
  harness = await startHarness();
});
after(() => harness.close());

test("timestamp inputs need an explicit Z or numeric offset (rule 2)", () => {
  assert.equal(timestamp.safeParse("2026-11-21T09:00:00Z").success, true);
  assert.equal(timestamp.safeParse("2026-11-21T09:00:00+02:00").success, true);
  assert.equal(timestamp.safeParse("2026-11-21T09:00:00").success, false);
  assert.equal(timestamp.safeParse("2026-11-21").success, false);
});

describeMatrix(({ index, name, transport }) => {
  describe(`tags over ${name}`, () => {
    const call = (method: string, path: string, body?: unknown, key = harness.world.keys.write) => transport(harness).request(method, path, { key, body });
    const suffix = index === 0 ? "a" : "b";

    test("a created tag answers 201 with id, name and color, defaults to blue, and lists by name", async () => {
      const created = await call("POST", "/v1/tags", { name: `  Zeta ${suffix} ` });
      assert.equal(created.status, 201);
      assert.equal(created.body.data.name, `Zeta ${suffix}`);
      assert.equal(created.body.data.color, "blue");
      assert.equal(typeof created.body.data.id, "number");
      const colored = await call("POST", "/v1/tags", { name: `Alpha ${suffix}`, color: "violet" });
      assert.equal(colored.body.data.color, "violet");
      const list = await call("GET", "/v1/tags");
      assert.equal(list.status, 200);
      const names = list.body.data.map((tag: any) => tag.name);
      assert.deepEqual(
        names,
        [...names].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())),
      );
      assert.ok(names.includes(`Zeta ${suffix}`));
      assert.equal(list.body.pagination.total, list.body.data.length);
    });

    test("a duplicate name in any case answers 409 duplicate_name", async () => {
      await call("POST", "/v1/tags", { name: `Dup ${suffix}` });
      const again = await call("POST", "/v1/tags", { name: `DUP ${suffix}` });
      assert.equal(again.status, 409);
      assert.equal(again.body.error.code, "duplicate_name");
      const other = await call("POST", "/v1/tags", { name: `Other ${suffix}` });
      const renamed = await call("PATCH", `/v1/tags/${other.body.data.id}`, { name: `dup ${suffix}` });
      assert.equal(renamed.status, 409);
      assert.equal(renamed.body.error.code, "duplicate_name");
    });

    test("invalid names, colors and bodies answer 400 invalid_parameter naming the field", async () => {
      for (const [body, field] of [
        [{}, "name"],
        [{ name: "" }, "name"],
        [{ name: "   " }, "name"],
        [{ name: "x".repeat(41) }, "name"],
        [{ name: 7 }, "name"],
        [{ name: "ok", color: "purple" }, "color"],
      ] as const) {
        const answer = await call("POST", "/v1/tags", body);
        assert.equal(answer.status, 400, JSON.stringify(body));
        assert.equal(answer.body.error.code, "invalid_parameter");
        assert.match(answer.body.error.message, new RegExp(`"${field}"`));
      }
      for (const raw of ["{not json", "[1,2]", "null"]) {
        const answer = await transport(harness).request("POST", "/v1/tags", { key: harness.world.keys.write, body: raw });
        assert.equal(answer.status, 400, raw);
        assert.equal(answer.body.error.code, "invalid_parameter");
      }
      const forty = await call("POST", "/v1/tags", { name: `${suffix}${"y".repeat(39)}` });
      assert.equal(forty.status, 201);
    });

    test("PATCH changes only the fields sent and needs at least one", async () => {
      const created = await call("POST", "/v1/tags", { name: `Patch ${suffix}`, color: "lime" });
      const id = created.body.data.id;
      const recolored = await call("PATCH", `/v1/tags/${id}`, { color: "amber" });
      assert.equal(recolored.status, 200);
      assert.deepEqual([recolored.body.data.name, recolored.body.data.color], [`Patch ${suffix}`, "amber"]);
      const renamed = await call("PATCH", `/v1/tags/${id}`, { name: `Patched ${suffix}` });
      assert.deepEqual([renamed.body.data.name, renamed.body.data.color], [`Patched ${suffix}`, "amber"]);
      const empty = await call("PATCH", `/v1/tags/${id}`, {});
      assert.equal(empty.status, 400);
      assert.equal(empty.body.error.code, "invalid_parameter");
    });

    test("DELETE answers the id, and a second delete answers 404 not_found", async () => {
      const created = await call("POST", "/v1/tags", { name: `Gone ${suffix}` });
      const id = created.body.data.id;
      const deleted = await call("DELETE", `/v1/tags/${id}`);
      assert.equal(deleted.status, 200);
      assert.deepEqual(deleted.body, { data: { id, deleted: true } });
      const again = await call("DELETE", `/v1/tags/${id}`);
      assert.equal(again.status, 404);
      assert.equal(again.body.error.code, "not_found");
      const list = await call("GET", "/v1/tags");
      assert.equal(
        list.body.data.some((tag: any) => tag.id === id),
        false,
      );
    });

    test("a malformed id answers 400 and an unknown or foreign id answers 404 not_found", async () => {
      for (const id of ["abc", "0", "-1", "1.5"]) {
        const answer = await call("PATCH", `/v1/tags/${id}`, { name: "x" });
        assert.equal(answer.status, 400, id);
        assert.equal(answer.body.error.code, "invalid_parameter");
      }
      const foreign = await call("POST", "/v1/tags", { name: `Cy's ${suffix}` }, harness.world.keys.other_user);
      for (const id of [999999, foreign.body.data.id]) {
        for (const [method, body] of [
          ["PATCH", { name: "mine now" }],
          ["DELETE", undefined],
        ] as const) {
          const answer = await call(method, `/v1/tags/${id}`, body);
          assert.equal(answer.status, 404, `${method} ${id}`);
          assert.equal(answer.body.error.code, "not_found");
        }
      }
    });

    test("a tag of a shared workspace can be read but not changed (403 writes_main_account_only)", async () => {
      // A tag in Dana's workspace, which Dana shares with Ada as viewer.
      const dana = harness.world.accounts.shared;
      const [row] = await harness.services.sql<{ id: number }[]>`
        insert into tags (workspace_id, name, color) values (${dana}, ${`Dana own ${suffix}`}, 'cyan') returning id`;
      const list = await call("GET", `/v1/tags?account_id=${dana}`);
      assert.ok(list.body.data.some((tag: any) => tag.id === row.id));
      const answer = await call("PATCH", `/v1/tags/${row.id}`, { color: "rose" });
      assert.equal(answer.status, 403);
      assert.equal(answer.body.error.code, "writes_main_account_only");
      const narrowed = await call("PATCH", `/v1/tags/${row.id}`, { color: "rose", account_id: harness.world.accounts.main });
      assert.equal(narrowed.status, 404);
      assert.equal(narrowed.body.error.code, "not_found");
    });

    test("pagination: limit 1-100, page 1-10000, has_more and total", async () => {
      for (const query of ["limit=0", "limit=101", "page=0", "limit=abc", "page=1.5", "page=10001", "page=1000000"]) {
        const answer = await call("GET", `/v1/tags?${query}`);
        assert.equal(answer.status, 400, query);
        assert.equal(answer.body.error.code, "invalid_parameter");
      }
      const deepest = await call("GET", "/v1/tags?page=10000");
      assert.equal(deepest.status, 200, "the deepest page is served (empty)");
      assert.deepEqual(deepest.body.data, []);
      const all = await call("GET", "/v1/tags?limit=100");
      const total = all.body.pagination.total;
      assert.ok(total >= 3);
      const first = await call("GET", "/v1/tags?limit=2&page=1");
      assert.deepEqual(first.body.pagination, { page: 1, limit: 2, has_more: true, total });
      const last = await call("GET", `/v1/tags?limit=2&page=${Math.ceil(total / 2)}`);
      assert.equal(last.body.pagination.has_more, false);
      const beyond = await call("GET", `/v1/tags?limit=2&page=${total + 5}`);
      assert.deepEqual(beyond.body.data, []);
      assert.equal(beyond.body.pagination.total, total);
      assert.deepEqual(
        all.body.data.slice(0, 2).map((tag: any) => tag.id),
        first.body.data.map((tag: any) => tag.id),
      );
    });
  });
});
