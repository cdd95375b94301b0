/**
 * Turns anything a procedure threw into the answer the API gives: the spec's
 * envelope `{ error: { code, message, ...extra } }` (or a legacy string body), its
 * status and headers. Both surfaces use this, so REST and tRPC agree on every code.
 * 500s never carry internal messages (ARCHITECTURE: Errors).
 */
import { TRPCError } from "@trpc/server";
import { ApiError, LegacyStringError } from "./errors.ts";
import { modelApiError } from "./model/model_api_error.ts";
import { isDatabaseUnreachable } from "./db/pg_errors.ts";

/**
 * Retry-After of a call the database could not take (a restart or failover is usually over
 * within seconds; the driver reconnects on the next call).
 */
const DATABASE_RETRY_SECONDS = 2;

/** The answer for a failed call. */
export interface ApiFailure {
  status: number;
  code: string;
  body: { error: Record<string, unknown> | string };
  headers: Record<string, string>;
  /** The error to log when the failure was not one the API meant to give. */
  unexpected?: unknown;
}

interface Issue {
  message: string;
  path?: readonly (PropertyKey | { key: PropertyKey })[];
  code?: string;
}

/** Maps an error to its API answer. */
export function toApiFailure(error: unknown): ApiFailure {
  const cause = error instanceof TRPCError ? (error.cause ?? error) : error;
  // A model failure an endpoint did not map itself still answers its spec code, not a 500.
  const fromModel = modelApiError(cause);
  if (fromModel) return fromApi(fromModel);
  if (cause instanceof ApiError) return { status: cause.status, code: cause.code, body: cause.toBody(), headers: cause.headers };
  if (cause instanceof LegacyStringError) {
    return { status: cause.status, code: cause.message.split(":")[0], body: cause.toBody(), headers: {} };
  }
  if (error instanceof TRPCError && (error.code === "PARSE_ERROR" || error.code === "BAD_REQUEST")) {
    // Only tRPC's input step answers BAD_REQUEST with zod issues; output validation (a
    // handler breaking its own schema) is INTERNAL_SERVER_ERROR and falls through to a
    // 500 below (docs/operations.md), as does a zod error a handler threw itself.
    const issues = (cause as { issues?: unknown })?.issues;
    if (Array.isArray(issues) && issues.length > 0) return fromApi(new ApiError("invalid_parameter", describeIssues(issues as Issue[])));
    return fromApi(new ApiError("invalid_parameter", error.message));
  }
  if (error instanceof TRPCError && error.code === "NOT_FOUND") return fromApi(new ApiError("not_found", error.message));
  if (isDatabaseUnreachable(cause)) {
    // Spec rule 9 (fail closed) and Errors: `503 upstream_unavailable`, safe to retry (reusing
    // Idempotency-Key on POST). Still logged: an operator wants to see the outage.
    const unavailable = new ApiError(
      "upstream_unavailable",
      "The database is unreachable for a moment; retry shortly (reuse Idempotency-Key on POST)",
      {},
      { "Retry-After": String(DATABASE_RETRY_SECONDS) },
    );
    return { ...fromApi(unavailable), unexpected: error };
  }
  return { ...fromApi(new ApiError("internal_error", "Internal server error")), unexpected: error };
}

function fromApi(error: ApiError): ApiFailure {
  return { status: error.status, code: error.code, body: error.toBody(), headers: error.headers };
}

/** `Invalid "limit": must be an integer from 1 to 100` for the first issue (and a count of the rest). */
export function describeIssues(issues: Issue[]): string {
  const [first] = issues;
  const field = (first.path ?? [])
    .map((part) => (typeof part === "object" ? part.key : part))
    .map((part, i) => (typeof part === "number" ? `[${part}]` : `${i === 0 ? "" : "."}${String(part)}`))
    .join("");
  const message = /received undefined$/.test(first.message) ? "is required" : first.message;
  const head = field ? `Invalid "${field}": ${message}` : `Invalid request: ${message}`;
  return issues.length > 1 ? `${head} (and ${issues.length - 1} more problem${issues.length > 2 ? "s" : ""})` : head;
}
