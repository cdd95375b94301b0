/** Account selection and permissions (spec: rule 6, rule 9, Authentication 8). */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { TRPCError } from "@trpc/server";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { createCallerFactory, inAccount, keyProcedure, router } from "../core/trpc.ts";
import { createContextInner } from "../core/context.ts";
import { accountSelection } from "../core/schema.ts";
import { ApiError } from "../core/errors.ts";

let harness: Harness;
before(async () => {
  harness = await startHarness();
});
after(() => harness.close());

describeMatrix(({ index, name, transport }) => {
  describe(`accounts over ${name}`, () => {
    const call = (method: string, path: string, options: Parameters<ReturnType<typeof transports>[number]["request"]>[2] = {}) =>
      transport(harness).request(method, path, { key: harness.world.keys.write, ...options });

    test("GET /v1/accounts lists main first, then linked and shared accounts, without total", async () => {
      const answer = await call("GET", "/v1/accounts");
      assert.equal(answer.status, 200);
      const { accounts } = harness.world;
      const byId = new Map(answer.body.data.map((account: any) => [account.id, account]));
      assert.equal(answer.body.data[0].id, accounts.main);
      assert.equal(answer.body.data[0].is_main, true);
      assert.deepEqual((byId.get(accounts.linked) as any)?.relation, "linked");
      assert.deepEqual((byId.get(accounts.shared) as any)?.permission, "viewer");
      assert.deepEqual((byId.get(accounts.editor_shared) as any)?.permission, "editor");
      assert.deepEqual((byId.get(accounts.linked_shared) as any)?.relation, "linked_shared");
      assert.equal(byId.has(accounts.other_user), false);
      assert.equal(byId.has(accounts.throttled), false);
      assert.deepEqual(Object.keys(answer.body.data[0]).sort(), [
        "avatar_url",
        "id",
        "is_main",
        "name",
        "permission",
        "relation",
        "shared",
        "username",
        "x_connection",
      ]);
      assert.equal(answer.body.data[0].x_connection, null, "never connected: null (beyond the spec)");
      assert.deepEqual(answer.body.pagination, { page: 1, limit: 100, has_more: false });
      assert.equal("degraded" in answer.body, false);
    });

    test("GET /v1/accounts honours limit and page", async () => {
      const first = await call("GET", "/v1/accounts?limit=2");
      const second = await call("GET", "/v1/accounts?limit=2&page=2");
      assert.equal(first.body.data.length, 2);
      assert.equal(first.body.pagination.has_more, true);
      assert.notEqual(second.body.data[0].id, first.body.data[0].id);
      assert.equal((await call("GET", "/v1/accounts?limit=101")).body.error.code, "invalid_parameter");
    });

    test("an account_id outside the key's accounts answers 404 account_not_found", async () => {
      for (const [method, path, body] of [
        ["GET", `/v1/tags?account_id=${harness.world.accounts.other_user}`, undefined],
        ["POST", "/v1/tags", { name: "x", account_id: harness.world.accounts.other_user }],
        ["GET", "/v1/tags?account_id=42", undefined],
      ] as const) {
        const answer = await call(method, path, { body });
        assert.equal(answer.status, 404, `${method} ${path}`);
        assert.equal(answer.body.error.code, "account_not_found");
      }
    });

    test("a malformed account_id answers 400 invalid_parameter naming the field", async () => {
      const answer = await call("GET", "/v1/tags?account_id=abc");
      assert.equal(answer.status, 400);
      assert.equal(answer.body.error.code, "invalid_parameter");
      assert.match(answer.body.error.message, /account_id/);
    });

    test("a linked account reads and writes its workspace", async () => {
      const { linked } = harness.world.accounts;
      const list = await call("GET", `/v1/tags?account_id=${linked}`);
      assert.equal(list.status, 200);
      assert.ok(list.body.data.some((tag: any) => tag.id === harness.world.tags[0]));
      const created = await call("POST", "/v1/tags", { body: { name: `linked-${index}`, account_id: linked } });
      assert.equal(created.status, 201);
    });

    test("shared and linked-shared accounts are read-only: writes answer 403 writes_main_account_only", async () => {
      const { shared, editor_shared, linked_shared } = harness.world.accounts;
      for (const accountId of [shared, editor_shared, linked_shared]) {
        assert.equal((await call("GET", `/v1/tags?account_id=${accountId}`)).status, 200, accountId);
        const answer = await call("POST", "/v1/tags", { body: { name: "nope", account_id: accountId } });
        assert.equal(answer.status, 403, accountId);
        assert.equal(answer.body.error.code, "writes_main_account_only");
      }
    });
  });
});

describe("write permissions declared by procedures", () => {
  const probe = router({
    settingsWrite: keyProcedure
      .meta({ sharedWrites: true, editorRestricted: true })
      .input(z.object(accountSelection))
      .use(inAccount)
      .mutation(({ ctx }) => ctx.account.relation),
    queueWrite: keyProcedure
      .meta({ sharedWrites: true })
      .input(z.object(accountSelection))
      .use(inAccount)
      .mutation(({ ctx }) => ctx.account.relation),
  });
  const caller = () =>
    createCallerFactory(probe)(createContextInner({ services: harness.services, headers: { authorization: `Bearer ${harness.world.keys.write}` } }));
  const codeOf = async (promise: Promise<unknown>) => {
    try {
      await promise;
      return "ok";
    } catch (error) {
      const cause = error instanceof TRPCError ? error.cause : error;
      return cause instanceof ApiError ? cause.code : String(error);
    }
  };

  test("context-style writes are exempt from writes_main_account_only but refuse editor shares with 403 editor_restricted", async () => {
    const { shared, editor_shared, linked } = harness.world.accounts;
    assert.equal(await codeOf(caller().settingsWrite({ account_id: shared })), "ok");
    assert.equal(await codeOf(caller().settingsWrite({ account_id: linked })), "ok");
    assert.equal(await codeOf(caller().settingsWrite({ account_id: editor_shared })), "editor_restricted");
  });

  test("queue-style writes are exempt and allowed on editor shares", async () => {
    assert.equal(await codeOf(caller().queueWrite({ account_id: harness.world.accounts.editor_shared })), "ok");
    assert.equal(await codeOf(caller().queueWrite({ account_id: harness.world.accounts.other_user })), "account_not_found");
  });
});

describe("when linked and shared accounts cannot be verified", () => {
  let failing: Harness;
  before(async () => {
    failing = await startHarness({ config: { faults: "accounts" } });
  });
  after(() => failing.close());

  test("GET /v1/accounts degrades to the main account with degraded: true", async () => {
    for (const transport of transports(failing)) {
      const answer = await transport.request("GET", "/v1/accounts", { key: failing.world.keys.write });
      assert.equal(answer.status, 200);
      assert.equal(answer.body.degraded, true);
      assert.deepEqual(
        answer.body.data.map((account: any) => account.id),
        [failing.world.accounts.main],
      );
      assert.equal("total" in answer.body.pagination, false);
    }
  });

  test("a linked or shared account_id answers 503 accounts_unavailable while the main account works", async () => {
    for (const transport of transports(failing)) {
      const { key } = { key: failing.world.keys.write };
      for (const accountId of [failing.world.accounts.linked, failing.world.accounts.shared, failing.world.accounts.other_user]) {
        const answer = await transport.request("GET", `/v1/tags?account_id=${accountId}`, { key });
        assert.equal(answer.status, 503, accountId);
        assert.equal(answer.body.error.code, "accounts_unavailable");
      }
      assert.equal((await transport.request("GET", "/v1/tags", { key })).status, 200);
      assert.equal((await transport.request("GET", `/v1/tags?account_id=${failing.world.accounts.main}`, { key })).status, 200);
      const patch = await transport.request("PATCH", `/v1/tags/${failing.world.tags[0]}`, {
        key,
        body: { color: "lime", account_id: failing.world.accounts.linked },
      });
      assert.equal(patch.status, 503);
      assert.equal(patch.body.error.code, "accounts_unavailable");
    }
  });
});
