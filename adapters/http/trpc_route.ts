/** The typed tRPC surface at `/trpc`, for first-party TypeScript apps. */
import type { AnyRouter } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { getRequestIP, type H3Event } from "h3";
import { createContextInner, type Context, type Services } from "../../core/context.ts";
import { toApiFailure } from "../../core/api_failure.ts";
import { boundedTrpcRequest } from "./bounded_body.ts";

/**
 * The most calls one batched request may hold (tRPC's `maxBatchSize`; larger batches are
 * refused with `400 invalid_parameter` before any call runs). A batch runs its calls at once
 * on one request, each spending its own request-bucket units; ten covers the queries a page
 * of a first-party app loads together, and a client sets `httpBatchLink({ maxItems: 10 })`.
 */
export const MAX_BATCH_SIZE = 10;

/** Handles one tRPC HTTP request (single or batched). */
export function trpcResponse(event: H3Event, router: AnyRouter, services: Services, trustProxy: boolean): Promise<Response> {
  const ip = getRequestIP(event, { xForwardedFor: trustProxy }) ?? "unknown";
  const ctx: Context = createContextInner({ services, headers: event.req.headers, ip });
  // For the request log (observed_fetch.ts): the principal, once authenticated.
  event.context.apiContext = ctx;
  return fetchRequestHandler({
    endpoint: "/trpc",
    // tRPC reads the body from the input parser, after the key middleware; bounded here.
    req: boundedTrpcRequest(event.req),
    router,
    maxBatchSize: MAX_BATCH_SIZE,
    createContext: () => ctx,
    responseMeta({ errors }) {
      // The same statuses and headers as REST: rate limits always, Retry-After on errors.
      const headers = new Headers(ctx.responseHeaders);
      const failures = errors.map((error) => toApiFailure(error));
      for (const failure of failures) for (const [name, value] of Object.entries(failure.headers)) headers.set(name, value);
      const statuses = new Set(failures.map((failure) => failure.status));
      return statuses.size === 1 ? { headers, status: [...statuses][0] } : { headers };
    },
    onError({ error }) {
      const failure = toApiFailure(error);
      // Logged with the request id by observed_fetch.ts.
      if (failure.unexpected) event.context.unexpected = failure.unexpected;
    },
  });
}
