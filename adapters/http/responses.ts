/**
 * JSON responses with the headers a procedure collected. srvx's FastResponse is a
 * standard Response to every caller, and lets the Node listener write the string body
 * with a Content-Length in one go instead of streaming it (measured by the benchmark).
 */
import { FastResponse } from "srvx";
import type { ApiFailure } from "../../core/api_failure.ts";

/** A JSON answer (no body when `body` is undefined, as for 204). */
export function jsonResponse(status: number, body: unknown, headers: Headers): Response {
  if (body === undefined) return noted(new FastResponse(null, { status, headers }) as Response, headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  return noted(new FastResponse(JSON.stringify(body), { status, headers }) as Response, headers);
}

/** An answer whose JSON is already text, with `headers` as they are (Content-Type included). */
export function jsonTextResponse(status: number, text: string, headers: Headers): Response {
  return noted(new FastResponse(text, { status, headers }) as Response, headers);
}

/**
 * Marks an answer built here with `X-Request-Id` among its headers (observed_fetch.ts then adds
 * nothing). A property of the answer rather than a WeakSet entry: every answer would otherwise
 * leave an entry for the garbage collector to clear.
 */
const CARRIES_REQUEST_ID = Symbol("carries X-Request-Id");

function noted(response: Response, headers: Headers): Response {
  if (headers.has("x-request-id")) (response as Response & { [CARRIES_REQUEST_ID]?: true })[CARRIES_REQUEST_ID] = true;
  return response;
}

/**
 * Whether `response` was built here with `X-Request-Id` already set: a handler that starts its
 * headers from observed_fetch.ts `answerHeaders` spares the copy of the answer's headers that
 * adding the id afterwards costs (measured per request by the bench).
 */
export function carriesRequestId(response: Response): boolean {
  return (response as Response & { [CARRIES_REQUEST_ID]?: true })[CARRIES_REQUEST_ID] === true;
}

/**
 * The error answer: envelope, status, and the failure's own headers (e.g. `Retry-After`).
 * An `unexpected` failure's error rides with the response (`unexpectedErrorOf`), so the
 * request log (observed_fetch.ts) writes it with the request id whoever built the answer.
 */
export function failureResponse(failure: ApiFailure, headers: Headers): Response {
  for (const [name, value] of Object.entries(failure.headers)) headers.set(name, value);
  const response = jsonResponse(failure.status, failure.body, headers);
  if (failure.unexpected !== undefined) unexpectedErrors.set(response, failure.unexpected);
  return response;
}

/** Errors of `unexpected` failures by the response that answered them (weak: gone with the response). */
const unexpectedErrors = new WeakMap<Response, unknown>();

/** The error behind a 500 built by `failureResponse`, if any. */
export function unexpectedErrorOf(response: Response): unknown {
  return unexpectedErrors.get(response);
}
