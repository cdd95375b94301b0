/**
 * tRPC is initialised once, here. Routers build every endpoint from these procedures;
 * each step of the request path (ARCHITECTURE: "The request path") is a named
 * middleware or a meta flag, so a router reads as a table of endpoints.
 */
import { initTRPC } from "@trpc/server";
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { Context, SuccessStatus } from "./context.ts";
import type { ErrorCode } from "./errors.ts";
import { toApiFailure } from "./api_failure.ts";
import { authenticate } from "./auth/authenticate.ts";
import { scopeGate, subscriptionGate } from "./auth/gates.ts";
import { chargeRequestBuckets, type RequestUnits } from "./limits/request_buckets.ts";
import { mergeCallHeaders } from "./limits/rate_limit_headers.ts";
import { resolveAccount } from "./accounts/resolve_account.ts";
import type { Principal } from "./request_state/principal.ts";
import { beginIdempotent, finishIdempotent } from "./idempotency/idempotency.ts";
import { type Pricing, withCredits } from "./credits/credit_call.ts";
// The marker a middleware result carries; a replay answers without running the handler.
import { middlewareResultMarker } from "./trpc_internals.ts";
import { assertStorableText } from "./storable_text.ts";
import { assertExactlyOneOf } from "./exactly_one_of.ts";

/** What a procedure declares about itself beyond input and output. */
export type EndpointMeta = OpenApiMeta<{
  /** REST success status when not 200 (201 created, 202 accepted, 204 no body). */
  successStatus?: 200 | 201 | 202 | 204;
  /**
   * Other success statuses the handler may answer with the same body, by setting
   * `ctx.reply.status` (a collection answers `201` ready or `202` collecting; nothing
   * collected answers `200`). Documented beside `successStatus`.
   */
  alsoAnswers?: SuccessStatus[];
  /**
   * The handler honours `Prefer: respond-async` (RFC 7240) by answering `202` at once instead
   * of waiting for its background work; documented as a header parameter and, on the `202`,
   * `Preference-Applied`.
   */
  respondAsync?: boolean;
  /** Error codes this endpoint answers beyond the ones every key endpoint shares. */
  errors?: ErrorCode[];
  /** Enrichment or feed-fetch units spent on top of the read or write (Limits 3-6). */
  units?: RequestUnits;
  /** Writes allowed on shared accounts (`/v1/context`, `/v1/queue-settings`: rule 6). */
  sharedWrites?: boolean;
  /** Refuses accounts shared with editor permission (Authentication 8). */
  editorRestricted?: boolean;
  /** Accepts `Idempotency-Key` (spec: Idempotency): replays the first answer of a retry. */
  idempotent?: boolean;
  /** AI credit pricing, applied by `chargesCredits` (spec: AI credits). */
  credits?: Pricing;
  /** Body fields of which exactly one must be sent (`400 invalid_parameter` otherwise; documented as `oneOf`). */
  exactlyOneOf?: string[];
  /**
   * The operation answers a file of this type rather than JSON (`GET /v1/datasets/{id}/export`:
   * CSV). The handler answers a `FileDownload` (core/file_download.ts); the REST adapter streams
   * it, the document declares the type, MCP answers bounded text.
   */
  download?: "text/csv";
  /**
   * The operation also answers this streamed type when the request's `Accept` asks for it
   * (`GET /v1/events`: Server-Sent Events). The handler, seeing `ctx.transport.acceptsStream`,
   * leaves a `MessageStream` (core/message_stream.ts) in `ctx.reply.stream`; the REST adapter
   * writes it, the document declares the type beside JSON; tRPC and MCP answer the JSON form.
   */
  stream?: "text/event-stream";
  /** The MCP tool's name when the one derived from the procedure path would not read well (adapters/mcp). */
  toolName?: string;
  /**
   * Why Threadline serves this operation although the spec's endpoint inventory does not
   * list it; shown as `x-beyond-spec` in the OpenAPI document (docs.test.ts holds every
   * path beyond the inventory to carrying it).
   */
  beyondSpec?: string;
}>;

const t = initTRPC
  .context<Context>()
  .meta<EndpointMeta>()
  .create({
    errorFormatter({ shape, error }) {
      const failure = toApiFailure(error);
      const body = failure.body.error;
      const detail: { code: string; message: string } & Record<string, unknown> =
        typeof body === "string" ? { code: failure.code, message: body } : { ...body, code: failure.code, message: String(body.message) };
      return {
        ...shape,
        code: TRPC_ERROR_CODES_BY_KEY[trpcKeyForStatus(failure.status)],
        message: detail.message,
        data: { ...detail, httpStatus: failure.status, path: shape.data.path },
      };
    },
  });

/** The tRPC error key whose HTTP status is `status`, so the tRPC surface answers REST's statuses. */
function trpcKeyForStatus(status: number): keyof typeof TRPC_ERROR_CODES_BY_KEY {
  const keys: Record<number, keyof typeof TRPC_ERROR_CODES_BY_KEY> = {
    400: "BAD_REQUEST",
    401: "UNAUTHORIZED",
    403: "FORBIDDEN",
    404: "NOT_FOUND",
    405: "METHOD_NOT_SUPPORTED",
    409: "CONFLICT",
    413: "PAYLOAD_TOO_LARGE",
    422: "UNPROCESSABLE_CONTENT",
    429: "TOO_MANY_REQUESTS",
    502: "BAD_GATEWAY",
    503: "SERVICE_UNAVAILABLE",
    504: "GATEWAY_TIMEOUT",
  };
  return keys[status] ?? "INTERNAL_SERVER_ERROR";
}

/** Builds routers. */
export const router = t.router;

/** Builds a server-side caller for a router (tests, CLI). */
export const createCallerFactory = t.createCallerFactory;

/** A procedure anyone may call (`GET /v1/docs` only: spec rule 1). */
export const publicProcedure = t.procedure;

/**
 * The path of every key request (steps 2-4 and 7): authenticate the key; check the
 * subscription and scope gates; charge the request buckets (a request refused by a
 * gate still carries `X-RateLimit-*`, rule 3, but spends nothing); refuse text that
 * PostgreSQL cannot store, for every field at once (core/storable_text.ts); then, for
 * procedures flagged `idempotent`, the `Idempotency-Key`. The reservation is taken
 * before input validation but released when the request fails, so a request that
 * failed validation stores nothing. One middleware rather than three: every tRPC
 * middleware level copies the call's options, which the benchmark measured.
 *
 * Each call runs with its own answer headers and reply (docs/architecture.md "Batches"):
 * tRPC's fetch adapter builds one context per HTTP request, which every call of a batch
 * starts from, so a call's credit headers, replay mark and chosen status would otherwise
 * reach its neighbours (and be stored with their idempotent answers). What a call set is
 * added to the request's context when it ends: the single-call surfaces (REST, MCP) read
 * it there, and a batch answers the headers of all its calls. A context that carries one
 * call only (`transport.oneCall`: REST, MCP) is the call's own already and is not copied.
 */
const keyRequest = t.middleware(async function keyRequest(opts) {
  // A context of one call (REST, MCP) needs no copy: nothing else answers from it.
  if (opts.ctx.transport.oneCall) return keyCall(opts, undefined);
  const own: Pick<Context, "responseHeaders" | "reply"> = { responseHeaders: new Headers(), reply: {} };
  try {
    return await keyCall({ ...opts, ctx: { ...opts.ctx, ...own } }, own);
  } finally {
    mergeCallHeaders(opts.ctx.responseHeaders, own.responseHeaders);
    Object.assign(opts.ctx.reply, own.reply);
  }
});

/** What a middleware of this tRPC instance receives. */
type MiddlewareOptions = Parameters<Parameters<typeof t.middleware>[0]>[0];

/** One call's key path (keyRequest), on the call's own context (`own`: its answer headers and reply, when copied). */
async function keyCall(
  { ctx, type, meta, path, getRawInput, batchIndex, next }: MiddlewareOptions,
  own: Pick<Context, "responseHeaders" | "reply"> | undefined,
) {
  const principal = await authenticate(ctx);
  ctx.report.principal = principal;
  // What the rest of the chain adds to the context: the call's own headers and reply when copied.
  const narrowed = <T extends object>(added: T) => (own ? { ...own, ...added } : added);
  const write = type === "mutation";
  const gate = subscriptionGate(ctx, principal) ?? scopeGate(principal, write);
  await chargeRequestBuckets(ctx, principal, { write, units: meta?.units, charge: gate === undefined });
  if (gate) throw gate;
  const rawInput = await getRawInput();
  assertStorableText(rawInput);
  if (meta?.exactlyOneOf) assertExactlyOneOf(rawInput, meta.exactlyOneOf);
  if (!meta?.idempotent) return next({ ctx: narrowed({ principal }) });

  const decision = await beginIdempotent(ctx, principal, path, rawInput, batchIndex);
  if (decision.kind === "none") return next({ ctx: narrowed({ principal }) });
  if (decision.kind === "replay") {
    for (const [name, value] of Object.entries(decision.headers)) ctx.responseHeaders.set(name, value);
    ctx.responseHeaders.set("Idempotency-Replayed", "true");
    // The first answer's status too, where the handler chose it (a 202 replays as a 202).
    if (decision.status === 200 || decision.status === 201 || decision.status === 202) ctx.reply.status = decision.status;
    return { ok: true as const, data: decision.body, marker: middlewareResultMarker };
  }
  const result = await next({ ctx: narrowed({ principal, idempotency: decision.run }) });
  await finishIdempotent(ctx, decision.run, result.ok ? { status: ctx.reply.status ?? meta.successStatus ?? 200, body: result.data } : undefined);
  return result;
}

/**
 * A procedure for API keys. The scope rule follows the procedure type: a mutation
 * (every non-GET REST call) needs the `write` scope, a query needs `read`.
 */
export const keyProcedure = t.procedure.use(keyRequest);

/**
 * Resolves `account_id` from the validated input into `ctx.account` (step 6): `404
 * account_not_found`, `403 writes_main_account_only` / `editor_restricted` on writes,
 * `503 accounts_unavailable`. Use after `.input(...)`.
 */
export const inAccount = t.middleware(async function inAccount({ ctx, input, type, meta, next }) {
  const accountId = (input as { account_id?: string } | undefined)?.account_id;
  const account = await resolveAccount(ctx, requirePrincipal(ctx), accountId, {
    write: type === "mutation",
    sharedWrites: meta?.sharedWrites,
    editorRestricted: meta?.editorRestricted,
  });
  return next({ ctx: { account } });
});

/**
 * Charges AI credits around the handler by the procedure's `credits` meta (step 8).
 * Use after `.input(...)` (and `inAccount`) so a request that fails validation is
 * never charged.
 */
export const chargesCredits = t.middleware(async function chargesCredits({ ctx, meta, path, next }) {
  if (!meta?.credits) return next();
  const options = { pricing: meta.credits, procedure: path, background: meta.successStatus === 202 };
  return withCredits(ctx, requirePrincipal(ctx), options, (credits) => next({ ctx: { credits } }));
});

/** The principal of an authenticated context (a programming error when missing). */
export function requirePrincipal(ctx: Context): Principal {
  if (!ctx.principal) throw new Error("No principal: the procedure must be built on keyProcedure");
  return ctx.principal;
}
