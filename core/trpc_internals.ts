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
 * (trpc-to-openapi reads them there too). Calling a procedure needs neither: adapters
 * use the public `callTRPCProcedure`.
 */
import type { AnyRouter } from "@trpc/server";
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
