/**
 * Typed tRPC for first-party TypeScript apps (ARCHITECTURE: one set of procedures,
 * three surfaces): a `createTRPCClient<AppRouter>` against a real listening server,
 * the same API codes in `error.data` as REST, the same HTTP statuses and rate-limit
 * headers on the wire, and the server-side caller without HTTP.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { createTRPCClient, httpBatchLink, httpLink, TRPCClientError } from "@trpc/client";
import { TRPCError } from "@trpc/server";
import type { AppRouter } from "../mod.ts";
import { appRouter } from "../routers/index.ts";
import { createCallerFactory } from "../core/trpc.ts";
import { createContextInner } from "../core/context.ts";
import { ApiError } from "../core/errors.ts";
import { startHarness, randomIp, type Harness } from "./support/harness.ts";
import { MAX_BATCH_SIZE } from "../adapters/http/trpc_route.ts";

/** A typed client sending `key`; a fresh client address per request keeps failed-attempt buckets apart. */
function clientFor(harness: Harness, key: string, link: typeof httpBatchLink | typeof httpLink = httpBatchLink) {
  return createTRPCClient<AppRouter>({
    links: [link({ url: `${harness.baseUrl}/trpc`, headers: () => ({ authorization: `Bearer ${key}`, "x-forwarded-for": randomIp() }) })],
  });
}

/** The TRPCClientError `promise` rejects with (fails the test when it resolves or throws something else). */
async function clientError(promise: Promise<unknown>): Promise<TRPCClientError<AppRouter>> {
  try {
    const value = await promise;
    assert.fail(`expected a rejection, got ${JSON.stringify(value)}`);
  } catch (error) {
    if (error instanceof assert.AssertionError) throw error;
    assert.ok(error instanceof TRPCClientError, `expected a TRPCClientError, got ${String(error)}`);
    return error as TRPCClientError<AppRouter>;
  }
}

/**
 * The API code of a client error. Read untyped: core/trpc.ts's errorFormatter builds
 * `data` from a union with `Record<string, unknown>`, so its inferred type has only
 * `httpStatus` and `path`, and `error.data.code` does not type-check (reported).
 */
function apiCode(error: TRPCClientError<AppRouter>): unknown {
  return (error.data as { code?: unknown } | undefined)?.code;
}

describe("typed tRPC client", { timeout: 120_000 }, () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(async () => {
    await harness?.close();
  });

  for (const [linkName, link] of [
    ["httpBatchLink", httpBatchLink],
    ["httpLink", httpLink],
  ] as const) {
    describe(`with ${linkName}`, () => {
      test("tags.list answers the demo tags of the main account", async () => {
        const client = clientFor(harness, harness.world.keys.write, link);
        const listed = await client.tags.list.query({});
        const ids = listed.data.map((tag) => tag.id);
        for (const id of harness.world.tags) assert.ok(ids.includes(id), `tag ${id} missing from ${JSON.stringify(ids)}`);
        assert.ok(listed.data.some((tag) => tag.name === "launch"));
        assert.equal(listed.pagination.page, 1);
      });

      test("tags.create, tags.update and tags.delete round-trip a tag", async () => {
        const client = clientFor(harness, harness.world.keys.write, link);
        const name = `trpc-${linkName}`;
        const created = await client.tags.create.mutate({ name, color: "teal" });
        assert.equal(created.data.name, name);
        assert.equal(created.data.color, "teal");
        assert.equal(typeof created.data.id, "number");

        const updated = await client.tags.update.mutate({ id: created.data.id, name: `${name}-renamed`, color: "slate" });
        assert.deepEqual([updated.data.id, updated.data.name, updated.data.color], [created.data.id, `${name}-renamed`, "slate"]);
        const listed = await client.tags.list.query({ limit: 100 });
        assert.ok(listed.data.some((tag) => tag.id === created.data.id && tag.name === `${name}-renamed`));

        const deleted = await client.tags.delete.mutate({ id: created.data.id });
        assert.deepEqual(deleted.data, { id: created.data.id, deleted: true });
        const after = await client.tags.list.query({ limit: 100 });
        assert.ok(!after.data.some((tag) => tag.id === created.data.id), "the deleted tag is still listed");

        const again = await clientError(client.tags.delete.mutate({ id: created.data.id }));
        assert.equal(apiCode(again), "not_found");
        assert.equal(again.data?.httpStatus, 404);
      });

      test("identity.me describes the key and its owner", async () => {
        const client = clientFor(harness, harness.world.keys.read, link);
        const me = await client.identity.me.query({});
        assert.equal(me.data.owner.main_account_id, harness.world.accounts.main);
        assert.deepEqual(me.data.key.scopes, ["read"]);
      });

      test("an invalid key rejects with invalid_api_key and httpStatus 401", async () => {
        const client = clientFor(harness, "sxk_thisKeyDoesNotExist000000000000", link);
        const error = await clientError(client.tags.list.query({}));
        assert.equal(apiCode(error), "invalid_api_key");
        assert.equal(error.data?.httpStatus, 401);
        assert.equal((error.shape?.data as { code?: unknown } | undefined)?.code, "invalid_api_key");
      });

      test("a read-only key calling tags.create rejects with insufficient_scope (403)", async () => {
        const client = clientFor(harness, harness.world.keys.read, link);
        const error = await clientError(client.tags.create.mutate({ name: "never-created" }));
        assert.equal(apiCode(error), "insufficient_scope");
        assert.equal(error.data?.httpStatus, 403);
        const listed = await clientFor(harness, harness.world.keys.write, link).tags.list.query({ limit: 100 });
        assert.ok(!listed.data.some((tag) => tag.name === "never-created"));
      });

      test("a duplicate tag name (any case) rejects with duplicate_name (409)", async () => {
        const client = clientFor(harness, harness.world.keys.write, link);
        const error = await clientError(client.tags.create.mutate({ name: "LAUNCH" }));
        assert.equal(apiCode(error), "duplicate_name");
        assert.equal(error.data?.httpStatus, 409);
      });

      test("invalid input (limit: 0) rejects with invalid_parameter (400) naming the field", async () => {
        const client = clientFor(harness, harness.world.keys.write, link);
        const error = await clientError(client.tags.list.query({ limit: 0 }));
        assert.equal(apiCode(error), "invalid_parameter");
        assert.equal(error.data?.httpStatus, 400);
        assert.match(error.message, /limit/);
      });

      test("a call the types refuse is refused at run time too", async () => {
        const client = clientFor(harness, harness.world.keys.write, link);
        // @ts-expect-error name must be a string: proves AppRouter's input types reach the client
        const error = await clientError(client.tags.create.mutate({ name: 5 }));
        assert.equal(apiCode(error), "invalid_parameter");
        assert.equal(error.data?.httpStatus, 400);
      });
    });
  }

  describe("on the wire", () => {
    test("a failing call answers its HTTP status: invalid key is 401", async () => {
      const input = encodeURIComponent(JSON.stringify({}));
      const response = await fetch(`${harness.baseUrl}/trpc/tags.list?input=${input}`, {
        headers: { authorization: "Bearer sxk_thisKeyDoesNotExist000000000000", "x-forwarded-for": randomIp() },
      });
      assert.equal(response.status, 401);
      const body = (await response.json()) as any;
      assert.equal(body.error.data.code, "invalid_api_key");
      assert.equal(body.error.data.httpStatus, 401);
    });

    test("a missing Authorization header is 401 unauthorized", async () => {
      const response = await fetch(`${harness.baseUrl}/trpc/identity.me?input=${encodeURIComponent("{}")}`, { headers: { "x-forwarded-for": randomIp() } });
      assert.equal(response.status, 401);
      const body = (await response.json()) as any;
      assert.equal(body.error.data.code, "unauthorized");
    });

    test("an authenticated failure (read-only key, tags.create) is 403 with X-RateLimit headers", async () => {
      const response = await fetch(`${harness.baseUrl}/trpc/tags.create`, {
        method: "POST",
        headers: { authorization: `Bearer ${harness.world.keys.read}`, "content-type": "application/json", "x-forwarded-for": randomIp() },
        body: JSON.stringify({ name: "wire-refused" }),
      });
      assert.equal(response.status, 403);
      assert.match(response.headers.get("x-ratelimit-limit") ?? "", /^\d+$/);
      assert.match(response.headers.get("x-ratelimit-remaining") ?? "", /^\d+$/);
      const reset = Number(response.headers.get("x-ratelimit-reset"));
      const now = Math.floor(Date.now() / 1000);
      assert.ok(reset >= now && reset <= now + 86_400, `X-RateLimit-Reset ${reset} is not epoch seconds in the current window`);
      const body = (await response.json()) as any;
      assert.equal(body.error.data.code, "insufficient_scope");
    });

    test("a successful call carries X-RateLimit headers too", async () => {
      const response = await fetch(`${harness.baseUrl}/trpc/tags.list?input=${encodeURIComponent("{}")}`, {
        headers: { authorization: `Bearer ${harness.world.keys.write}`, "x-forwarded-for": randomIp() },
      });
      assert.equal(response.status, 200);
      assert.match(response.headers.get("x-ratelimit-limit") ?? "", /^\d+$/);
    });
  });

  describe("batches", () => {
    /** Sends one batch of `calls` (procedure path and input) to /trpc: mutations POST, queries GET. */
    async function sendBatch(method: "GET" | "POST", calls: [string, unknown][], headers: Record<string, string> = {}) {
      const paths = calls.map(([path]) => path).join(",");
      const inputs = JSON.stringify(Object.fromEntries(calls.map(([, input], i) => [i, input])));
      const common = { authorization: `Bearer ${harness.world.keys.write}`, "x-forwarded-for": randomIp(), ...headers };
      if (method === "GET") return fetch(`${harness.baseUrl}/trpc/${paths}?batch=1&input=${encodeURIComponent(inputs)}`, { headers: common });
      return fetch(`${harness.baseUrl}/trpc/${paths}?batch=1`, { method, headers: { ...common, "content-type": "application/json" }, body: inputs });
    }
    /** `n` calls of tags.list. */
    const lists = (n: number) => Array.from({ length: n }, (): [string, unknown] => ["tags.list", {}]);

    test("two calls of one batch under one Idempotency-Key each run once, and a retry replays each", async () => {
      const names = [`batch-a-${randomIp()}`, `batch-b-${randomIp()}`];
      const calls: [string, unknown][] = names.map((name) => ["tags.create", { name }]);
      const key = `batch-${crypto.randomUUID()}`;
      const first = await sendBatch("POST", calls, { "idempotency-key": key });
      const firstBody = (await first.json()) as any[];
      // Sharing the reservation, the second call met the first's key with another body (409).
      assert.equal(first.status, 200, JSON.stringify(firstBody));
      assert.deepEqual(
        firstBody.map((entry) => entry.result.data.data.name),
        names,
      );
      const ids = firstBody.map((entry) => entry.result.data.data.id);
      assert.notEqual(ids[0], ids[1]);

      const retry = await sendBatch("POST", calls, { "idempotency-key": key });
      assert.equal(retry.status, 200);
      assert.equal(retry.headers.get("idempotency-replayed"), "true");
      assert.deepEqual(
        ((await retry.json()) as any[]).map((entry) => entry.result.data.data.id),
        ids,
      );
      const listed = await clientFor(harness, harness.world.keys.write).tags.list.query({ limit: 100 });
      assert.equal(listed.data.filter((tag) => names.includes(tag.name)).length, 2, "a retried batch created a tag twice");
    });

    test("each call of a batch spends its own request-bucket unit", async () => {
      const remaining = (response: Response) => [Number(response.headers.get("x-ratelimit-remaining")), response.headers.get("x-ratelimit-reset")] as const;
      // Two reads of the same clock minute: a batch of two spends two units more than a single call.
      for (let attempt = 0; ; attempt++) {
        const [before, beforeReset] = remaining(await sendBatch("GET", lists(1)));
        const [after, afterReset] = remaining(await sendBatch("GET", lists(2)));
        if (beforeReset !== afterReset && attempt < 2) continue;
        assert.equal(before - after, 2);
        break;
      }
    });

    test(`a batch of ${MAX_BATCH_SIZE} calls runs; one more call is refused with 400 invalid_parameter`, async () => {
      const full = await sendBatch("GET", lists(MAX_BATCH_SIZE));
      assert.equal(full.status, 200);
      assert.equal(((await full.json()) as unknown[]).length, MAX_BATCH_SIZE);

      const over = await sendBatch("GET", lists(MAX_BATCH_SIZE + 1));
      assert.equal(over.status, 400);
      const body = (await over.json()) as any;
      assert.equal(body.error.data.code, "invalid_parameter");
      assert.equal(body.error.data.httpStatus, 400);
      assert.match(body.error.message, /batch/i);
    });
  });

  describe("server-side caller", () => {
    const callerWith = (key: string) =>
      createCallerFactory(appRouter)(createContextInner({ services: harness.services, headers: { authorization: `Bearer ${key}` } }));

    test("lists tags without HTTP", async () => {
      const listed = await callerWith(harness.world.keys.read).tags.list({});
      const ids = listed.data.map((tag) => tag.id);
      for (const id of harness.world.tags) assert.ok(ids.includes(id));
    });

    test("refuses an invalid key with the ApiError invalid_api_key", async () => {
      await assert.rejects(callerWith("sxk_thisKeyDoesNotExist000000000000").tags.list({}), (error: unknown) => {
        assert.ok(error instanceof TRPCError);
        assert.ok(error.cause instanceof ApiError, `cause is ${String(error.cause)}`);
        assert.equal(error.cause.code, "invalid_api_key");
        return true;
      });
    });
  });
});

describe("queries whose input is all optional", () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(() => harness.close());

  test("can be called with no input at all", async () => {
    for (const path of ["identity.me", "identity.accounts", "tags.list"]) {
      const response = await fetch(`${harness.baseUrl}/trpc/${path}`, { headers: { Authorization: `Bearer ${harness.world.keys.write}` } });
      assert.equal(response.status, 200, path);
    }
  });
});
