/** The h3 app: `/v1` REST, `GET /v1/docs`, MCP tools at `/v1/mcp`, tRPC at `/trpc`, the web console at `/console`, and the operations routes. */
import { mountXConnectRoute } from "./x_connect_route.ts";
import { mountConsoleRoute } from "../console/console_route.ts";
import type { AnyRouter } from "@trpc/server";
import { H3, type HTTPError } from "h3";
import type { Services } from "../../core/context.ts";
import { docsResponse } from "./docs_route.ts";
import { mountRestRoutes, type StreamOptions } from "./rest_routes.ts";
import { trpcResponse } from "./trpc_route.ts";
import { mountMediaRoutes } from "./media_upload_route.ts";
import { mountOpsRoutes, type MetricsAccess } from "./ops_routes.ts";
import { mountMcpRoute } from "../mcp/mcp_http_route.ts";
import { ApiError } from "../../core/errors.ts";
import { toApiFailure } from "../../core/api_failure.ts";
import { failureResponse } from "./responses.ts";

/** The API error for a refusal by h3 rather than by a route of ours. */
function layerError(error: HTTPError, method: string, path: string): ApiError {
  const { status } = error;
  if (status >= 500) return new ApiError("internal_error", "Internal server error");
  if (status === 404) return new ApiError("not_found", `No route ${method} "${path}"`);
  if (status === 405) return new ApiError("method_not_allowed", `${method} is not allowed on "${path}"`);
  if (status === 413) return new ApiError("payload_too_large", "The request body is too large");
  if (error.cause instanceof URIError || error.message === "Bad Request") {
    return new ApiError("invalid_parameter", `The request's path or query is not valid (percent-encoding per RFC 3986): "${path}"`);
  }
  return new ApiError("invalid_request", `The request was refused: "${error.message}"`);
}

/** Builds the app for `router` over `services`. */
export function createHttpApp(
  router: AnyRouter,
  services: Services,
  options: { trustProxy?: boolean; metrics?: MetricsAccess; streams?: StreamOptions } = {},
): H3 {
  const trustProxy = options.trustProxy ?? false;
  const app = new H3({
    // A handler's throw h3 answers as a 500 is logged with the request id by
    // observed_fetch.ts, not printed by h3.
    silent: true,
    // What h3 itself refuses (a path that is not valid percent-encoding, one that resolves out of
    // every route) answers the API's envelope like everything else (spec: Errors).
    onError(error, event) {
      if (error.status >= 500) event.context.unexpected = error.cause ?? error;
      return failureResponse(toApiFailure(layerError(error, event.req.method, event.url.pathname)), new Headers());
    },
  });
  mountOpsRoutes(app, services, options.metrics ?? {});
  app.get("/v1/docs", (event) => docsResponse(event, services.docs()));
  mountXConnectRoute(app, services);
  app.all("/trpc/**", (event) => trpcResponse(event, router, services, trustProxy));
  mountConsoleRoute(app);
  // The local media store's signed PUT and its object URLs (before the /v1 fallbacks).
  mountMediaRoutes(app, services);
  mountMcpRoute(app, router, services, { trustProxy });
  mountRestRoutes(app, router, services, { trustProxy, streams: options.streams });
  return app;
}
