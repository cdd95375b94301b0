/**
 * The typed tRPC client of the console: the same procedures as `/v1`, typed from the router, so a
 * change of a procedure's input or output breaks the console's build (`npm run typecheck`).
 */
import { createTRPCClient, httpBatchLink, httpLink, TRPCClientError } from "@trpc/client";
import type { AppRouter } from "../../../routers/index.ts";
import { currentKey } from "./session.ts";

/** tRPC's batch bound on the server (adapters/http/trpc_route.ts MAX_BATCH_SIZE). */
const MAX_BATCH_SIZE = 10;

/** A client that sends the key `key()` answers at each call. */
export function clientFor(key: () => string | undefined) {
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: "/trpc",
        maxItems: MAX_BATCH_SIZE,
        headers: () => {
          const value = key();
          return value ? { Authorization: `Bearer ${value}` } : {};
        },
      }),
    ],
  });
}

/** The signed-in console's client. */
export const api = clientFor(currentKey);

/**
 * A client whose calls carry `Idempotency-Key: idempotencyKey` (publishing now needs one): a
 * retry of the same action with the same key runs once. Unbatched, so the key covers one call.
 */
export function idempotentClient(idempotencyKey: string) {
  return createTRPCClient<AppRouter>({
    links: [httpLink({ url: "/trpc", headers: () => ({ Authorization: `Bearer ${currentKey() ?? ""}`, "Idempotency-Key": idempotencyKey }) })],
  });
}

/** The API's error code (`invalid_api_key`, `not_found`, ...) of a failed call, when it has one. */
export function failureCode(error: unknown): string | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  const code = (error.data as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}

/** What to tell the user about a failed call: the API's message and code. */
export function failureMessage(error: unknown): string {
  const code = failureCode(error);
  const message = error instanceof Error ? error.message : String(error);
  return code ? `${message} (${code})` : message;
}

/** Whether a failure means the key no longer works (revoked, expired or wrong). */
export function isSignedOutFailure(error: unknown): boolean {
  const status = error instanceof TRPCClientError ? (error.data as { httpStatus?: unknown } | undefined)?.httpStatus : undefined;
  return status === 401;
}
