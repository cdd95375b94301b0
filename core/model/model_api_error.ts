/**
 * The one mapping from the model's failures to API answers (spec: Errors, "Codes with
 * status"). Every model failure happens before output, so the credit step refunds the
 * call in full whatever the code (spec AI credits: "refund in full when the model fails
 * before output").
 *
 * - `ModelUnavailableError` -> `503 upstream_unavailable`, with `Retry-After` when the
 *   provider gave one: the dependency is unreachable and a retry is safe.
 * - `ModelFailedError` -> `502 upstream_error` ("dependent service returned something
 *   unexpected"), or `502 generation_failed` where the endpoint's failure is "every draft
 *   failed; nothing charged" (drafts).
 * - `ModelTimeoutError` -> `504 upstream_timeout`, the code the spec gives covers that
 *   time out (AI credits: "kept even when it times out with 504").
 * - `ModelCapabilityError` -> `503 upstream_unavailable` without `Retry-After`. The request
 *   is valid by the spec (`translate` is one of the 13 types), so a 4xx would blame the
 *   client; what is missing is a server-side dependency, which the spec answers with 503
 *   (its own precedent: `503 media_not_configured` for storage that is not configured).
 *   The message names the model to configure, no `Retry-After` is sent because waiting
 *   does not help, and the envelope says so for programs: `retryable: false`, with the
 *   missing `capability` and the configuration it `requires`. The code stays the one the
 *   operating contract fixes for the local engine's refusals (docs/architecture.md).
 *   A 503 upstream_unavailable without `retryable: false` is a real outage, safe to retry.
 */
import { ApiError, retryableError } from "../errors.ts";
import { ModelCapabilityError, ModelError, ModelFailedError, ModelTimeoutError, ModelUnavailableError } from "./model_errors.ts";

/** The code an endpoint answers when the model produced nothing. */
export type ModelFailedCode = "upstream_error" | "generation_failed";

/**
 * The ApiError for a model failure, or `undefined` when `error` is not one.
 *
 * @example
 * const result = await ctx.services.model.generate(request).catch((error) => {
 *   throw modelApiError(error) ?? error;
 * });
 */
export function modelApiError(error: unknown, options: { failedCode?: ModelFailedCode } = {}): ApiError | undefined {
  if (!(error instanceof ModelError)) return undefined;
  if (error instanceof ModelUnavailableError) {
    if (error.retryAfterSeconds !== undefined) return retryableError("upstream_unavailable", error.message, error.retryAfterSeconds);
    return new ApiError("upstream_unavailable", error.message);
  }
  if (error instanceof ModelTimeoutError) return new ApiError("upstream_timeout", error.message);
  if (error instanceof ModelCapabilityError) {
    return new ApiError("upstream_unavailable", error.message, { retryable: false, capability: error.capability, requires: error.requires });
  }
  if (error instanceof ModelFailedError) return new ApiError(options.failedCode ?? "upstream_error", error.message);
  return new ApiError(options.failedCode ?? "upstream_error", error.message);
}
