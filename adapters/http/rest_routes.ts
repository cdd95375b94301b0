/**
 * The `/v1` REST surface: one h3 route per procedure with OpenAPI meta, calling the
 * procedure through its middleware chain (core/trpc_internals.ts `procedureCaller`) with the
 * same context the tRPC surface builds. Paths come from the procedure meta only (ARCHITECTURE: one source of
 * truth for paths). The input is built when the procedure's input parser asks for it,
 * after the key middleware, so the body is read only after authentication, and within
 * its bound (bounded_body.ts).
 */
import type { AnyRouter } from "@trpc/server";
import { procedureCaller } from "../../core/trpc_internals.ts";
import { type H3, type H3Event, getRequestIP, getRouterParams } from "h3";
import { createContextInner, type Services } from "../../core/context.ts";
import { ApiError } from "../../core/errors.ts";
import { toApiFailure } from "../../core/api_failure.ts";
import { restOperations, type RestOperation } from "../../core/docs/openapi.ts";
import { readJsonObject } from "./bounded_body.ts";
import { coercionPlan, coerceStrings, type CoercionPlan } from "./input_coercion.ts";
import { jsonResponse, failureResponse } from "./responses.ts";
import { csvResponse } from "./csv_download.ts";
import type { FileDownload } from "../../core/file_download.ts";
import type { StreamTiming } from "../../core/message_stream.ts";
import { eventStreamResponse } from "./event_stream_response.ts";
import { keyNoLongerWorks } from "../../core/auth/key_standing.ts";
import { answerHeaders } from "./observed_fetch.ts";

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** How streamed answers (`EndpointMeta.stream`) run: when the server stops, and their timing. */
export interface StreamOptions {
  /** Aborts when the server stops: open streams end cleanly. */
  stopping?: AbortSignal;
  timing?: StreamTiming;
}

/** Registers every REST operation of `router` on `app`, plus the `/v1` fallbacks. */
export function mountRestRoutes(app: H3, router: AnyRouter, services: Services, options: { trustProxy: boolean; streams?: StreamOptions }): void {
  const operations = restOperations(router);
  for (const operation of operations) {
    const plan = coercionPlan(operation.inputs);
    const route = operation.path.replace(/\{([^}]+)\}/g, ":$1");
    const call = procedureCaller(router, operation.procedurePath, operation.type);
    const binding = { operation, call, plan, services, trustProxy: options.trustProxy, streams: options.streams ?? {} };
    app.on(operation.method, route, (event) => callOperation(event, binding));
  }
  app.all("/v1/**", (event) => unknownRoute(event, operations));
}

interface RouteBinding {
  operation: RestOperation;
  call: ReturnType<typeof procedureCaller>;
  plan: CoercionPlan;
  services: Services;
  trustProxy: boolean;
  streams: StreamOptions;
}

async function callOperation(event: H3Event, binding: RouteBinding): Promise<Response> {
  const { operation, call, plan, services } = binding;
  const ip = getRequestIP(event, { xForwardedFor: binding.trustProxy }) ?? "unknown";
  // A stream operation streams when the client asks for its type (`Accept: text/event-stream`).
  const acceptsStream = operation.meta.stream !== undefined && (event.req.headers.get("accept") ?? "").includes(operation.meta.stream);
  const ctx = createContextInner({ services, headers: event.req.headers, ip, acceptsStream, oneCall: true, responseHeaders: answerHeaders(event) });
  // For the request log (observed_fetch.ts): the principal, once authenticated.
  event.context.apiContext = ctx;
  // Read once, when first asked (the idempotency step and the input parser both ask).
  let input: Promise<Record<string, unknown>> | undefined;
  try {
    const output = await call({
      ctx,
      getRawInput: () => (input ??= readInput(event, operation, plan)),
      // No signal: reading event.req.signal builds an AbortController per request, and
      // no handler cancels work yet.
      signal: undefined,
      batchIndex: 0,
    });
    const status = ctx.reply.status ?? operation.meta.successStatus ?? 200;
    // A download operation answers its file, streamed (EndpointMeta.download).
    if (operation.meta.download === "text/csv") return csvResponse(status, output as FileDownload, ctx.responseHeaders);
    if (ctx.reply.stream) {
      // The stream outlives the request's one key check: it asks again while it runs.
      const key = ctx.report.principal?.key;
      const guard = key ? () => keyNoLongerWorks(services.sql, key.id) : undefined;
      return eventStreamResponse(ctx.reply.stream, ctx.responseHeaders, { ...binding.streams, guard });
    }
    return jsonResponse(status, status === 204 ? undefined : output, ctx.responseHeaders);
  } catch (error) {
    return failureResponse(toApiFailure(error), ctx.responseHeaders);
  }
}

/** Query, then JSON body (bounded), then path parameters (path wins: the URL names the object). */
async function readInput(event: H3Event, operation: RestOperation, plan: CoercionPlan): Promise<Record<string, unknown>> {
  const query: Record<string, string> = {};
  for (const [key, value] of event.url.searchParams) query[key] = value;
  const body = BODY_METHODS.has(operation.method) ? await readJsonObject(event.req) : {};
  const params = getRouterParams(event, { decode: true }) as Record<string, string>;
  return { ...coerceStrings(query, plan), ...body, ...coerceStrings(params, plan) };
}

function unknownRoute(event: H3Event, operations: RestOperation[]): Response {
  const path = event.url.pathname;
  const allowed = operations
    .filter((operation) => new RegExp(`^${operation.path.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(path))
    .map((operation) => operation.method);
  if (allowed.length > 0) {
    const failure = toApiFailure(new ApiError("method_not_allowed", `${event.req.method} is not allowed on ${path}; use ${allowed.join(", ")}`));
    return failureResponse(failure, new Headers({ Allow: allowed.join(", ") }));
  }
  return failureResponse(toApiFailure(new ApiError("not_found", `No route ${event.req.method} "${path}"`)), new Headers());
}
