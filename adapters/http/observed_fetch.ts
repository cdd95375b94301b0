/**
 * The fetch handler of an instance with its operations around it (docs/operations.md): every answer,
 * routed or not, error or not, carries `X-Request-Id`; each request gives one JSON log line
 * (request id, method, route template, status, duration, and when authenticated the account
 * and the key's display prefix; never a header value or a body) and its metrics; a failure
 * the error funnel marks `unexpected` gives an error line with the request id and the stack.
 *
 * Wrapped around the h3 app rather than inside the REST or tRPC call logic: the handlers
 * leave what they learn in the event context (`apiContext`, `unexpected`) and this reads it
 * after the answer, so the surfaces stay free to change how they call procedures.
 */
import type { H3, H3Event, H3EventContext } from "h3";
import type { Context } from "../../core/context.ts";
import type { Logger } from "../observability/open_logger.ts";
import type { ThreadlineMetrics } from "../observability/threadline_metrics.ts";
import { requestIdFor } from "../observability/request_id.ts";
import { carriesRequestId, unexpectedErrorOf } from "./responses.ts";

/** What handlers leave in the event context for this wrapper. */
export interface ObservedContext extends H3EventContext {
  requestId?: string;
  /** The procedure context (REST and tRPC), whose principal names the account and key. */
  apiContext?: Context;
  /** An error the API answered as a 500 (tRPC's onError, h3's onError). */
  unexpected?: unknown;
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
/** Probes poll these every few seconds: logged at debug so they do not drown the requests. */
const QUIET_ROUTES = new Set(["/healthz", "/readyz", "/metrics"]);

/** Wraps `app` into the instance's fetch handler. */
export function observedFetch(app: H3, options: { logger: Logger; metrics?: ThreadlineMetrics }): (request: Request) => Promise<Response> {
  const { logger, metrics } = options;
  return async (request) => {
    const started = performance.now();
    const requestId = requestIdFor(request.headers.get("x-request-id"));
    const context: ObservedContext = { requestId };
    let response: Response;
    try {
      response = await app.request(request, undefined, context);
    } catch (error) {
      // h3 answers its own errors; this is a last fence so no request goes unanswered.
      context.unexpected = error;
      response = Response.json({ error: { code: "internal_error", message: "Internal server error" } }, { status: 500 });
    }
    if (!carriesRequestId(response)) response = withHeader(response, "X-Request-Id", requestId);
    const seconds = (performance.now() - started) / 1000;
    const method = METHODS.has(request.method) ? request.method : "OTHER";
    const route = routeTemplate(context);
    metrics?.request(route, method, response.status, seconds);
    const unexpected = unexpectedErrorOf(response) ?? context.unexpected;
    if (unexpected !== undefined) logger.error({ req_id: requestId, method, route, status: response.status, err: unexpected }, "unexpected error");
    const level = QUIET_ROUTES.has(route) ? "debug" : "info";
    if (logger.isLevelEnabled(level)) {
      const principal = context.apiContext?.report.principal;
      logger[level](
        {
          req_id: requestId,
          method,
          route,
          status: response.status,
          duration_ms: Math.round(seconds * 10_000) / 10,
          ...(principal ? { account_id: principal.mainAccountId, user_id: principal.userId, key_prefix: keyPrefixOf(principal.key.display) } : {}),
        },
        "request",
      );
    }
    return response;
  };
}

/**
 * Headers for a handler's answer, starting with the request id this wrapper gave the request.
 * An answer built on them by responses.ts (REST, the MCP route) is sent as it is; any other
 * answer gets the id added here.
 */
export function answerHeaders(event: H3Event): Headers {
  const { requestId } = event.context as ObservedContext;
  return requestId === undefined ? new Headers() : new Headers([["X-Request-Id", requestId]]);
}

/**
 * The route as declared (`/v1/scheduled-posts/{id}`), never the raw path: ids in a label
 * would make a metric per object, and a raw path may carry what a client mistyped.
 */
function routeTemplate(context: ObservedContext): string {
  const route = context.matchedRoute?.route;
  if (!route) return "unmatched";
  let template = templates.get(route);
  if (template === undefined) templates.set(route, (template = route.replace(/:([A-Za-z0-9_]+)/g, "{$1}")));
  return template;
}

/** Templates by h3 route: the routes are the app's own, a bounded set. */
const templates = new Map<string, string>();

/** `sxk_7Gq2…x9Ab` -> `sxk_7Gq2`: the display form's head, which names the key without its tail. */
function keyPrefixOf(display: string): string {
  return display.split("…")[0];
}

/** Sets a header, copying the response when its headers are immutable (a proxied `fetch` answer). */
function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set(name, value);
    return copy;
  }
}
