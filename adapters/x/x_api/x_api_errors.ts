/**
 * X API v2 answers as the port's typed errors (core/network/network_errors.ts), so
 * `networkApiError` maps them to API codes in one place:
 *
 * - A problem of type `resource-not-found` (X answers a missing user or post with 200
 *   and `errors[]`, or 404) -> NetworkNotFoundError; `not-authorized-for-resource` /
 *   "Authorization Error" (protected authors, private lists) -> NetworkPrivateError.
 * - 429 -> NetworkRateLimitedError, waiting `Retry-After` when given, else until
 *   `x-user-limit-24hour-reset` when the per-user daily post cap is what ran out, else
 *   until `x-rate-limit-reset` (epoch seconds; X's 15-minute windows).
 * - 400 naming `pagination_token` / `next_token` -> NetworkBadRequestError("cursor"),
 *   naming `query` -> NetworkBadRequestError("query"); a refused write (400/403) ->
 *   NetworkRejectedError with the reason read from X's message; anything else,
 *   401 and 5xx included -> NetworkUpstreamError (`502 upstream_error`).
 */
import {
  NetworkBadRequestError,
  NetworkNotFoundError,
  NetworkPrivateError,
  NetworkRateLimitedError,
  NetworkRejectedError,
  NetworkUpstreamError,
  type NetworkError,
  type NetworkRejection,
  type NetworkResource,
} from "../../../core/network/network_errors.ts";
import type { XBody, XProblem } from "./x_api_types.ts";

/** What a request was about: the resource and ref its not-found or private answer names. */
export interface XSubject {
  resource: NetworkResource;
  ref: string;
}

const NOT_FOUND = /resource-not-found|Not Found Error/i;
const NOT_AUTHORIZED = /not-authorized-for-resource|Authorization Error/i;
const CURSOR_PARAMS = ["pagination_token", "next_token"];

/** The error an X problem stands for (a partial error of a 200, or a top-level one). */
export function errorOfProblem(problem: XProblem, subject: XSubject): NetworkError {
  const kind = `${problem.type ?? ""} ${problem.title ?? ""}`;
  const resource = resourceOf(problem.resource_type, subject);
  const ref = problem.resource_id ?? (typeof problem.value === "string" ? problem.value : subject.ref);
  if (NOT_FOUND.test(kind)) return new NetworkNotFoundError(resource, ref);
  if (NOT_AUTHORIZED.test(kind)) return new NetworkPrivateError(resource, ref);
  return new NetworkUpstreamError(`X answered an error: ${describe(problem)}`);
}

/** What one non-2xx answer means. */
export interface StatusAnswer {
  status: number;
  headers: Headers;
  body: XBody<unknown> | undefined;
  method: string;
  subject: XSubject;
  /** The clock's now, for `x-rate-limit-reset`. */
  nowMs: number;
}

/** The error a non-2xx answer stands for. */
export function errorOfStatus(answer: StatusAnswer): NetworkError {
  const { status, body, subject } = answer;
  const problems: XProblem[] = [...(body?.errors ?? []), ...(body ? [body as XProblem] : [])];
  const text = problems.map(describe).filter(Boolean).join("; ") || `HTTP ${status}`;
  if (status === 429) return new NetworkRateLimitedError(retryAfterSeconds(answer.headers, answer.nowMs), `X rate limit reached (${text})`);
  if (status === 400 && problems.some((p) => namesParameter(p, CURSOR_PARAMS))) {
    return new NetworkBadRequestError("cursor", "is not a cursor this list issued");
  }
  if (status === 400 && problems.some((p) => namesParameter(p, ["query"]))) return new NetworkBadRequestError("query", `X refused the search query: ${text}`);
  if (status === 401) return new NetworkUpstreamError(`X refused the credentials (HTTP 401); check X_BEARER_TOKEN and the user token`, 401);
  const problem = problems.find((p) => NOT_FOUND.test(`${p.type} ${p.title}`) || NOT_AUTHORIZED.test(`${p.type} ${p.title}`));
  if (status === 404) return problem ? errorOfProblem(problem, subject) : new NetworkNotFoundError(subject.resource, subject.ref);
  if (status === 403 && problem) return errorOfProblem(problem, subject);
  if (answer.method !== "GET" && (status === 400 || status === 403)) {
    if (/unsupported-authentication|Application-Only/i.test(text)) {
      return new NetworkRejectedError("invalid", `X needs a user-context token for this write: ${text}`);
    }
    return new NetworkRejectedError(rejectionOf(status, text), `X refused the write: ${text}`);
  }
  return new NetworkUpstreamError(`X answered HTTP ${status}: ${text}`, status);
}

/** Seconds until X accepts requests again, from the 429's headers (at least 1). */
function retryAfterSeconds(headers: Headers, nowMs: number): number {
  const explicit = headers.get("retry-after")?.trim();
  if (explicit && /^\d+(?:\.\d+)?$/.test(explicit)) return Math.max(1, Math.ceil(Number(explicit)));
  const dailyExhausted = headers.get("x-user-limit-24hour-remaining") === "0";
  const reset = Number(headers.get(dailyExhausted ? "x-user-limit-24hour-reset" : "x-rate-limit-reset") ?? Number.NaN);
  // Without a usable header, X's limits run in 15-minute windows; a minute is a fair first wait.
  if (!Number.isFinite(reset) || reset <= 0) return 60;
  return Math.max(1, Math.ceil(reset - nowMs / 1000));
}

/** Why X refused a write: its 403s say what forbids it; a 400 is a malformed request. */
function rejectionOf(status: number, text: string): NetworkRejection {
  if (/too long|character limit|exceeds? .*characters/i.test(text)) return "too_long";
  if (status !== 403) return "invalid";
  if (/duplicate/i.test(text)) return "duplicate";
  if (/premium|subscription/i.test(text)) return "premium_required";
  if (/\bDMs?\b|direct message|send messages/i.test(text)) return "dm_closed";
  return "invalid";
}

function resourceOf(resourceType: string | undefined, subject: XSubject): NetworkResource {
  // A DM's missing recipient is a user on X, but the caller asked about a DM.
  if (subject.resource === "dm" || subject.resource === "article") return subject.resource;
  if (resourceType === "user") return "user";
  if (resourceType === "tweet") return "post";
  if (resourceType === "list") return "list";
  return subject.resource;
}

function namesParameter(problem: XProblem, names: string[]): boolean {
  if (problem.parameter && names.includes(problem.parameter)) return true;
  return names.some((name) => problem.parameters?.[name] !== undefined);
}

function describe(problem: XProblem): string {
  return [problem.title, problem.detail ?? problem.message].filter(Boolean).join(": ").slice(0, 300);
}
