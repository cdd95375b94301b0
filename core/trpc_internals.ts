/**
 * Every use of tRPC's private API, in one file (STYLE.md: "A framework's private API
 * (anything under unstable-*, _def) appears in at most one adapter file, with a test that
 * fails loudly when an upgrade changes it": test/trpc_internals.test.ts).
 *
 * Why it lives in core and not under adapters/: both needs are core's. `core/trpc.ts`
 * answers an idempotent replay from a middleware without running the handler, and tRPC
 * 11 has no public way for a middleware to answer without `next()` (its result must carry
 * `middlewareMarker`, exported only from `unstable-core-do-not-import`). The REST surface
 * and the OpenAPI document (core/docs/openapi.ts) list the procedures with their meta,
 * type and input parsers, which tRPC keeps only under `router._def` and `procedure._def`
 * (trpc-to-openapi reads them there too). REST and MCP call a procedure through
 * `procedureCaller`, which runs the chain under `_def.middlewares` the way tRPC's
 * `callTRPCProcedure` does, at a fraction of its cost.
 */
import { type AnyRouter, getTRPCErrorFromUnknown } from "@trpc/server";
import { middlewareMarker } from "@trpc/server/unstable-core-do-not-import";

/**
 * The marker of a middleware result. A middleware that answers by itself (an idempotent
 * replay) returns `{ ok: true, data, marker: middlewareResultMarker }`.
 */
export const middlewareResultMarker = middlewareMarker;

/** One procedure of a router, as the REST adapter and the docs need it. */
export interface ProcedureEntry {
  /** The dotted path (`scheduledPosts.bulk.retime`). */
  path: string;
  type: "query" | "mutation" | "subscription";
  /** What `.meta()` set, if anything. */
  meta: unknown;
  /** The parsers `.input()` added, in order (zod object schemas here). */
  inputs: readonly unknown[];
}

/** Every procedure of `router` (eager routers only: Threadline builds no lazy ones). */
export function listProcedures(router: AnyRouter): ProcedureEntry[] {
  const procedures = router._def.procedures as Record<string, { _def: { type: ProcedureEntry["type"]; meta?: unknown; inputs: unknown[] } }>;
  return Object.entries(procedures).map(([path, procedure]) => ({
    path,
    type: procedure._def.type,
    meta: procedure._def.meta,
    inputs: procedure._def.inputs,
  }));
}

/** What one call of a procedure needs: tRPC's call options without the router and path. */
export interface ProcedureCallOptions {
  ctx: unknown;
  type: "query" | "mutation" | "subscription";
  path: string;
  getRawInput: () => Promise<unknown>;
  signal: AbortSignal | undefined;
  batchIndex: number;
}

/** A middleware's failure as the level above it sees it (tRPC's `callRecursive` does the same). */
function failed(cause: unknown): MiddlewareResult {
  return { ok: false, error: getTRPCErrorFromUnknown(cause), marker: middlewareMarker };
}

/** A middleware of a built procedure, as tRPC stores it under `_def.middlewares`. */
type StoredMiddleware = (options: Record<string, unknown>) => Promise<MiddlewareResult>;
type MiddlewareResult = { ok: true; data: unknown; marker: unknown } | { ok: false; error: unknown; marker: unknown };

/**
 * A caller of the procedure at `path`, looked up once (REST and MCP bind one per operation).
 * It runs the procedure's middleware chain exactly as tRPC's own caller does (each level's
 * `next()` result, a thrown error becoming `{ ok: false }` at its level), with native object
 * spreads: tRPC's bundled spread helper defines every option property one at a time, twice
 * per middleware level, which the request-path profile measured at a tenth of a two-row
 * read's CPU (bench/profile.ts). test/trpc_internals.test.ts holds it to tRPC's behaviour.
 */
export function procedureCaller(
  router: AnyRouter,
  path: string,
  type: ProcedureCallOptions["type"],
): (call: Omit<ProcedureCallOptions, "path" | "type">) => Promise<unknown> {
  const procedure = (router._def.procedures as Record<string, { _def: { type: string; meta?: unknown; middlewares: StoredMiddleware[] } } | undefined>)[path];
  if (!procedure || procedure._def.type !== type) throw new Error(`No "${type}"-procedure on path "${path}"`);
  const { middlewares, meta } = procedure._def;
  if (!Array.isArray(middlewares) || middlewares.some((middleware) => typeof middleware !== "function")) {
    throw new Error("tRPC changed how a procedure stores its middlewares: update core/trpc_internals.ts");
  }
  return async ({ ctx, getRawInput, signal, batchIndex }) => {
    // One object shape for every level's options (what tRPC passes a middleware), built
    // as a literal: V8 creates it in one step.
    // Not an async function: a level adds one promise (the failure handler), not three.
    const callFrom = (index: number, ctx: unknown, input: unknown, getRawInput: () => Promise<unknown>): Promise<MiddlewareResult> => {
      try {
        return Promise.resolve(
          middlewares[index]({
            ctx,
            type,
            path,
            input,
            getRawInput,
            meta,
            signal,
            batchIndex,
            next(nextOptions?: { ctx?: Record<string, unknown>; input?: unknown; getRawInput?: () => Promise<unknown> }) {
              if (nextOptions === undefined) return callFrom(index + 1, ctx, input, getRawInput);
              return callFrom(
                index + 1,
                nextOptions.ctx ? { ...(ctx as Record<string, unknown>), ...nextOptions.ctx } : ctx,
                "input" in nextOptions ? nextOptions.input : input,
                nextOptions.getRawInput ?? getRawInput,
              );
            },
          }),
        ).catch(failed);
      } catch (cause) {
        return Promise.resolve(failed(cause));
      }
    };
    const result = await callFrom(0, ctx, undefined, getRawInput);
    if (!result) throw new Error("No result from middlewares - did you forget to `return next()`?");
    if (!result.ok) throw result.error;
    return result.data;
  };
}
