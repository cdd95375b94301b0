/**
 * The one mapping from network failures to API errors, used by every endpoint that
 * reads or writes X (spec: Errors; supplement: X Lookups, "Error codes and statuses the
 * reference adds"). Missing and private things answer alike (a protected author's post
 * is `404 post_not_found`); an unreachable network is `503 upstream_unavailable`; an
 * unexpected answer `502 upstream_error`.
 */
import { ApiError, retryableError, type ErrorCode } from "../errors.ts";
import {
  NetworkBadRequestError,
  NetworkError,
  NetworkNotFoundError,
  NetworkPrivateError,
  NetworkRateLimitedError,
  NetworkRejectedError,
  NetworkTimeoutError,
  NetworkUnavailableError,
  type NetworkResource,
} from "./network_errors.ts";

/** Per-call choices where the spec names a different code. */
export interface NetworkErrorCodes {
  /** Code for a missing or private thing (default by resource: `user_not_found`, `post_not_found`, `x_list_not_found`, `not_found`). */
  notFound?: ErrorCode;
  /** Code for a refused write other than `premium_required` (default `upstream_error`; article publish: `x_publish_failed`). */
  rejected?: ErrorCode;
  /** Code for an unreachable or failing network (default `upstream_unavailable` / `upstream_error`; article publish: `x_publish_failed`). */
  failed?: ErrorCode;
}

const NOT_FOUND_CODE: Record<NetworkResource, ErrorCode> = {
  user: "user_not_found",
  dm: "user_not_found",
  post: "post_not_found",
  list: "x_list_not_found",
  article: "not_found",
};

/**
 * Returns the ApiError for a network failure, or `error` unchanged when it is not one,
 * so callers write `catch (error) { throw networkApiError(error) }`.
 */
export function networkApiError(error: unknown, codes: NetworkErrorCodes = {}): unknown {
  if (!(error instanceof NetworkError)) return error;
  if (error instanceof NetworkNotFoundError || error instanceof NetworkPrivateError) {
    return new ApiError(codes.notFound ?? NOT_FOUND_CODE[error.resource], error.message);
  }
  if (error instanceof NetworkRejectedError) {
    if (error.reason === "premium_required") return new ApiError("x_premium_required", error.message);
    return new ApiError(codes.rejected ?? "upstream_error", error.message, { reason: error.reason });
  }
  if (error instanceof NetworkBadRequestError) return new ApiError("invalid_parameter", `Invalid "${error.field}": ${error.message}`);
  if (error instanceof NetworkTimeoutError) return new ApiError("upstream_timeout", error.message);
  if (error instanceof NetworkRateLimitedError) {
    // X's own limit, not the caller's bucket: the dependency is unavailable for a while.
    return codes.failed ? new ApiError(codes.failed, error.message) : retryableError("upstream_unavailable", error.message, error.retryAfter);
  }
  if (error instanceof NetworkUnavailableError) return new ApiError(codes.failed ?? "upstream_unavailable", error.message);
  return new ApiError(codes.failed ?? "upstream_error", error.message);
}
