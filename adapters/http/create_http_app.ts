/** The h3 app: `/v1` REST, `GET /v1/docs`, and tRPC at `/trpc`. */
import type { AnyRouter } from "@trpc/server";
import { H3 } from "h3";
import type { Services } from "../../core/context.ts";
import { docsResponse } from "./docs_route.ts";
import { mountRestRoutes } from "./rest_routes.ts";
import { trpcResponse } from "./trpc_route.ts";
import { mountMediaRoutes } from "./media_upload_route.ts";

/** Builds the app for `router` over `services`. */
export function createHttpApp(router: AnyRouter, services: Services, options: { trustProxy?: boolean } = {}): H3 {
  const trustProxy = options.trustProxy ?? false;
  const app = new H3();
  app.get("/v1/docs", (event) => docsResponse(event, services.docs()));
  app.all("/trpc/**", (event) => trpcResponse(event, router, services, trustProxy));
  // The local media store's signed PUT and its object URLs (before the /v1 fallbacks).
  mountMediaRoutes(app, services);
  mountRestRoutes(app, router, services, { trustProxy });
  return app;
}
