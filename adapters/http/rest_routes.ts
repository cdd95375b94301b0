/**
 * The `/v1` REST surface: one h3 route per procedure with OpenAPI meta, calling the
 * procedure directly with the same context the tRPC surface builds. Paths come from
 * the procedure meta only (ARCHITECTURE: one source of truth for paths).
 */
import type { AnyRouter } from "@trpc/server";
import { type H3, type H3Event, getRequestIP, getRouterParams } from "h3";
import { createContextInner, type Services } from "../../core/context.ts";
import { ApiError } from "../../core/errors.ts";
import { toApiFailure } from "../../core/api_failure.ts";
import { restOperations, type RestOperation } from "../../core/docs/openapi.ts";
import { coercionPlan, coerceStrings, type CoercionPlan } from "./input_coercion.ts";
import { jsonResponse, failureResponse } from "./responses.ts";

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Registers every REST operation of `router` on `app`, plus the `/v1` fallbacks. */
export function mountRestRoutes(app: H3, router: AnyRouter, services: Services, options: { trustProxy: boolean }): void {
  const operations = restOperations(router);
  for (const operation of operations) {
    const procedure = (router._def.procedures as Record<string, any>)[operation.procedurePath];
    const plan = coercionPlan(procedure._def.inputs);
    const route = operation.path.replace(/\{([^}]+)\}/g, ":$1");
    app.on(operation.method, route, (event) => callOperation(event, { operation, procedure, plan, services, trustProxy: options.trustProxy }));
  }
  app.all("/v1/**", (event) => unknownRoute(event, operations));
}

interface RouteBinding {
  operation: RestOperation;
  procedure: any;
  plan: CoercionPlan;
  services: Services;
  trustProxy: boolean;
}

async function callOperation(event: H3Event, binding: RouteBinding): Promise<Response> {
  const { operation, procedure, plan, services } = binding;
  const ip = getRequestIP(event, { xForwardedFor: binding.trustProxy }) ?? "unknown";
  const ctx = createContextInner({ services, headers: event.req.headers, ip });
  // For the request log (observed_fetch.ts): the principal, once authenticated.
  event.context.apiContext = ctx;
  try {
    const input = await readInput(event, operation, plan);
    const output = await procedure({
      ctx,
      getRawInput: async () => input,
      path: operation.procedurePath,
      type: operation.type,
      // No signal: reading event.req.signal builds an AbortController per request, and
      // no handler cancels work yet.
      signal: undefined,
      batchIndex: 0,
    });
    const status = operation.meta.successStatus ?? 200;
    return jsonResponse(status, status === 204 ? undefined : output, ctx.responseHeaders);
  } catch (error) {
    return failureResponse(toApiFailure(error), ctx.responseHeaders);
  }
}

/** Query, then JSON body, then path parameters (path wins: the URL names the object). */
async function readInput(event: H3Event, operation: RestOperation, plan: CoercionPlan): Promise<Record<string, unknown>> {
  const query: Record<string, string> = {};
  for (const [key, value] of event.url.searchParams) query[key] = value;
  const body = BODY_METHODS.has(operation.method) ? await readJsonObject(event.req) : {};
  const params = getRouterParams(event, { decode: true }) as Record<string, string>;
  return { ...coerceStrings(query, plan), ...body, ...coerceStrings(params, plan) };
}

async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError("invalid_parameter", "The request body is not valid JSON");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ApiError("invalid_parameter", "The request body must be a JSON object");
  }
  return value as Record<string, unknown>;
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
  return failureResponse(toApiFailure(new ApiError("not_found", `No route ${event.req.method} ${path}`)), new Headers());
}
