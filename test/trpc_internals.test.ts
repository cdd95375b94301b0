/**
 * The guard of core/trpc_internals.ts, the one file that uses tRPC's private API
 * (STYLE.md). Each case fails loudly when a tRPC upgrade changes what it relies on: the
 * middleware result marker, a middleware answering without `next()`, and the procedure
 * table under `_def` (paths, types, meta, input parsers). test/code_rules.test.ts checks
 * that no other file reaches the private API.
 */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { initTRPC, callTRPCProcedure } from "@trpc/server";
import { z } from "zod";
import { listProcedures, middlewareResultMarker } from "../core/trpc_internals.ts";
import { appRouter } from "../routers/index.ts";
import { restOperations } from "../core/docs/openapi.ts";

const t = initTRPC.context<{ log: string[] }>().meta<{ label?: string }>().create();

describe("tRPC private API used by core/trpc_internals.ts", () => {
  test("middlewareResultMarker is the marker a real next() result carries", async () => {
    let seen: unknown;
    const probe = t.procedure
      .use(async ({ next }) => {
        const result = await next();
        seen = result.marker;
        return result;
      })
      .query(() => "ran");
    const caller = t.createCallerFactory(t.router({ probe }))({ log: [] });
    assert.equal(await caller.probe(), "ran");
    assert.equal(seen, middlewareResultMarker, "tRPC changed its middleware marker: update core/trpc_internals.ts");
  });

  test("a middleware returning { ok, data, marker } answers without running the handler (idempotent replays)", async () => {
    const log: string[] = [];
    const replay = t.procedure
      .use(async () => ({ ok: true as const, data: "stored answer", marker: middlewareResultMarker }))
      .input(z.object({ n: z.number() }))
      .mutation(({ ctx }) => {
        ctx.log.push("handler ran");
        return "fresh answer";
      });
    const router = t.router({ replay });
    const data = await callTRPCProcedure({
      router,
      path: "replay",
      type: "mutation",
      ctx: { log },
      getRawInput: async () => ({ n: 1 }),
      signal: undefined,
      batchIndex: 0,
    });
    assert.equal(data, "stored answer");
    assert.deepEqual(log, []);
  });

  test("listProcedures answers every procedure with its dotted path, type, meta and input parsers", () => {
    const input = z.object({ id: z.string() });
    const extra = z.object({ account_id: z.string().optional() });
    const router = t.router({
      top: t.procedure.meta({ label: "top" }).query(() => 1),
      nested: t.router({
        inner: t.router({
          write: t.procedure
            .input(input)
            .input(extra)
            .mutation(() => 2),
        }),
      }),
    });
    const byPath = new Map(listProcedures(router).map((entry) => [entry.path, entry]));
    assert.deepEqual([...byPath.keys()].sort(), ["nested.inner.write", "top"]);
    assert.equal(byPath.get("top")?.type, "query");
    assert.deepEqual(byPath.get("top")?.meta, { label: "top" });
    assert.deepEqual(byPath.get("top")?.inputs, []);
    const write = byPath.get("nested.inner.write");
    assert.equal(write?.type, "mutation");
    assert.equal(write?.inputs.length, 2);
    assert.equal(write?.inputs[0], input);
    assert.equal(write?.inputs[1], extra);
  });

  test("the app router's REST operations are all found and callable by path", () => {
    const operations = restOperations(appRouter);
    assert.ok(operations.length > 40, `only ${operations.length} REST operations found`);
    const paths = new Set(listProcedures(appRouter).map((entry) => entry.path));
    for (const operation of operations) assert.ok(paths.has(operation.procedurePath), operation.procedurePath);
    // Every procedure with a REST route declares its type as tRPC will check it on call.
    for (const operation of operations) assert.ok(operation.type === (operation.method === "GET" ? "query" : "mutation"), operation.procedurePath);
  });
});
