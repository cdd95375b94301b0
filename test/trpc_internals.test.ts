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
import { listProcedures, middlewareResultMarker, procedureCaller } from "../core/trpc_internals.ts";
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

  test("procedureCaller runs a chain as callTRPCProcedure does: context, input, outcomes seen by outer levels, output", async () => {
    const seen: string[] = [];
    const outer = t.middleware(async ({ ctx, next, meta, path, type }) => {
      seen.push(`outer ${path} ${type} ${meta?.label}`);
      const result = await next({ ctx: { ...ctx, user: "ada" } });
      seen.push(`outer saw ok=${result.ok}${result.ok ? "" : ` ${result.error.message}`}`);
      return result;
    });
    const inner = t.middleware(async ({ ctx, input, next }) => {
      const { user } = ctx as { user?: string };
      seen.push(`inner user=${user} input=${JSON.stringify(input)}`);
      return next({ ctx: { stage: "inner" } });
    });
    const echo = t.procedure
      .meta({ label: "echo" })
      .use(outer)
      .input(z.object({ n: z.coerce.number(), fail: z.boolean().optional() }))
      .use(inner)
      .output(z.object({ doubled: z.number(), user: z.string(), stage: z.string() }))
      .mutation(({ ctx, input }) => {
        if (input.fail) throw new Error("handler refused");
        const { user, stage } = ctx as unknown as { user: string; stage: string };
        return { doubled: input.n * 2, user, stage, dropped: true } as { doubled: number; user: string; stage: string };
      });
    const router = t.router({ echo });
    const ours = procedureCaller(router, "echo", "mutation");
    const run = async (via: "tRPC" | "ours", rawInput: unknown) => {
      seen.length = 0;
      const call = { ctx: { log: [] }, getRawInput: async () => rawInput, signal: undefined, batchIndex: 0 };
      const outcome = await (via === "tRPC" ? callTRPCProcedure({ ...call, router, path: "echo", type: "mutation" }) : ours(call)).then(
        (data) => ({ data }),
        (error: Error) => ({ error: `${error.constructor.name}: ${error.message}`, cause: String((error.cause as Error | undefined)?.message) }),
      );
      return { outcome, seen: [...seen] };
    };
    for (const rawInput of [{ n: "21" }, { n: 2, fail: true }, { n: "not a number" }]) {
      const expected = await run("tRPC", rawInput);
      assert.deepEqual(await run("ours", rawInput), expected, JSON.stringify(rawInput));
    }
    const success = await run("ours", { n: "21" });
    assert.deepEqual(success.outcome, { data: { doubled: 42, user: "ada", stage: "inner" } });
    assert.deepEqual(success.seen, ["outer echo mutation echo", 'inner user=ada input={"n":21}', "outer saw ok=true"]);
    assert.match((await run("ours", { n: 2, fail: true })).seen.at(-1) ?? "", /outer saw ok=false handler refused/);
  });

  test("procedureCaller answers a middleware's own result (a replay) and refuses an unknown path or the wrong type", async () => {
    const log: string[] = [];
    const replay = t.procedure
      .use(async () => ({ ok: true as const, data: "stored answer", marker: middlewareResultMarker }))
      .mutation(({ ctx }) => {
        ctx.log.push("handler ran");
        return "fresh answer";
      });
    const router = t.router({ replay });
    const data = await procedureCaller(router, "replay", "mutation")({ ctx: { log }, getRawInput: async () => ({}), signal: undefined, batchIndex: 0 });
    assert.equal(data, "stored answer");
    assert.deepEqual(log, []);
    assert.throws(() => procedureCaller(router, "replay", "query"), /No "query"-procedure on path "replay"/);
    assert.throws(() => procedureCaller(router, "missing", "mutation"), /No "mutation"-procedure on path "missing"/);
  });
});
