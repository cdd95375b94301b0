/**
 * One JSON POST to the model server, bounded and retried with care:
 *
 * - `timeoutMs` bounds the whole call, retries and waits included (AbortSignal.timeout),
 *   so a caller's bound holds whatever the provider does; past it, `ModelTimeoutError`.
 * - Only 429 and 5xx are retried, and only before any output (a 2xx body is never
 *   re-requested), up to `retries` times; the wait is the provider's Retry-After when it
 *   gave one, else exponential backoff with jitter. A wait longer than `maxRetryDelayMs`
 *   or than the time left is not taken: the error is answered at once, carrying the
 *   provider's Retry-After for the client.
 * - Statuses map to the model errors: 401/403/404 -> unavailable (configuration), 429 ->
 *   unavailable (rate limited), 5xx and other 4xx -> failed; no connection ->
 *   unavailable; a 2xx body that is not JSON -> failed.
 */
import { setTimeout as delay } from "node:timers/promises";
import { ModelFailedError, ModelTimeoutError, ModelUnavailableError } from "../../../core/model/model_errors.ts";
import { retryAfterMs } from "./retry_after.ts";

/** How to send one request. */
export interface PostJsonOptions {
  url: string;
  apiKey?: string;
  body: unknown;
  timeoutMs: number;
  /** The caller's signal (client gone): ends the call with `ModelFailedError`. */
  signal?: AbortSignal;
  retries: number;
  baseDelayMs: number;
  maxRetryDelayMs: number;
  fetch: typeof fetch;
}

/** POSTs `body` as JSON and answers the parsed JSON of a 2xx response. */
export async function postJson(options: PostJsonOptions): Promise<unknown> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  const startedAt = Date.now();
  const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json" };
  if (options.apiKey) headers.Authorization = `Bearer ${options.apiKey}`;
  const abortError = (error: unknown) => transportError(error, options, deadline);

  for (let attempt = 0; ; attempt += 1) {
    let response: Response;
    let text: string;
    try {
      response = await options.fetch(options.url, { method: "POST", headers, body: JSON.stringify(options.body), signal });
      text = await response.text();
    } catch (error) {
      throw abortError(error);
    }
    if (response.ok) {
      try {
        return JSON.parse(text);
      } catch (cause) {
        throw new ModelFailedError(`The model server answered malformed JSON (HTTP ${response.status})`, {
          status: response.status,
          cause,
          detail: text.slice(0, 500),
        });
      }
    }
    const askedWait = retryAfterMs(response.headers);
    if ((response.status === 429 || response.status >= 500) && attempt < options.retries) {
      const wait = askedWait ?? backoff(attempt, options);
      const left = options.timeoutMs - (Date.now() - startedAt);
      if (wait <= options.maxRetryDelayMs && wait < left) {
        try {
          await delay(wait, undefined, { signal });
        } catch (error) {
          throw abortError(error);
        }
        continue;
      }
    }
    throw statusError(response.status, askedWait, text);
  }
}

/** Exponential backoff with equal jitter: half fixed, half random, so retries spread. */
function backoff(attempt: number, options: PostJsonOptions): number {
  const ceiling = Math.min(options.maxRetryDelayMs, options.baseDelayMs * 2 ** attempt);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

function statusError(status: number, waitMs: number | undefined, body: string): Error {
  const detail = body.slice(0, 500);
  if (status === 401 || status === 403) {
    return new ModelUnavailableError(`The model server refused the credentials (HTTP ${status}); check "AI_API_KEY"`, { reason: "config", detail });
  }
  if (status === 404) {
    return new ModelUnavailableError(`The model server has no such model or endpoint (HTTP 404); check "AI_BASE_URL" and "AI_MODEL"`, {
      reason: "config",
      detail,
    });
  }
  if (status === 429) {
    const retryAfterSeconds = waitMs === undefined ? undefined : Math.max(1, Math.ceil(waitMs / 1000));
    return new ModelUnavailableError("The model server is rate limiting requests (HTTP 429)", { reason: "rate_limited", retryAfterSeconds, detail });
  }
  if (status >= 500) return new ModelFailedError(`The model server failed (HTTP ${status})`, { status, detail });
  return new ModelFailedError(`The model server rejected the request (HTTP ${status})`, { status, detail });
}

function transportError(error: unknown, options: PostJsonOptions, deadline: AbortSignal): Error {
  if (deadline.aborted) return new ModelTimeoutError(`The model did not answer within ${options.timeoutMs} ms`, { timeoutMs: options.timeoutMs, cause: error });
  if (options.signal?.aborted) return new ModelFailedError("The model call was cancelled", { cause: error });
  return new ModelUnavailableError(`Cannot reach the model server at "${new URL(options.url).origin}"`, { reason: "unreachable", cause: error });
}
