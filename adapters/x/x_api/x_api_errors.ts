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
 *   NetworkRejectedError with the reason read from X's answer (WRITE_REFUSALS); anything else,
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
  if (status === 429) {
    // `usage-capped`: the project's usage cap, also a 429 (response-codes-and-errors.mdx, "Error types").
    const capped = problems.some((p) => /usage-capped|UsageCapExceeded/i.test(`${p.type} ${p.title}`));
    return new NetworkRateLimitedError(retryAfterSeconds(answer.headers, answer.nowMs), `X ${capped ? "usage cap" : "rate limit"} reached (${text})`);
  }
  if (status === 400 && problems.some((p) => namesParameter(p, CURSOR_PARAMS))) {
    return new NetworkBadRequestError("cursor", "is not a cursor this list issued");
  }
  if (status === 400 && problems.some((p) => namesParameter(p, ["query"]))) return new NetworkBadRequestError("query", `X refused the search query: ${text}`);
  // A 401 is retryable: a user token X refused is refreshed before the next attempt.
  if (status === 401) return new NetworkUpstreamError(`X refused the credentials (HTTP 401); check X_BEARER_TOKEN and the user token`, 401);
  const problem = problems.find((p) => NOT_FOUND.test(`${p.type} ${p.title}`) || NOT_AUTHORIZED.test(`${p.type} ${p.title}`));
  if (status === 404) return problem ? errorOfProblem(problem, subject) : new NetworkNotFoundError(subject.resource, subject.ref);
  if (status === 403 && problem) return errorOfProblem(problem, subject);
  if (answer.method !== "GET" && (status === 400 || status === 403)) {
    if (/unsupported-authentication|Application-Only/i.test(text)) {
      return new NetworkRejectedError("invalid", `X needs a user-context token for this write: ${text}`);
    }
    const types = problems.map((p) => p.type ?? "").join(" ");
    return new NetworkRejectedError(rejectionOf(status, `${types} ${text}`), `X refused the write: ${text}`);
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

/**
 * X's refusals of a write, in the order they are tried: what X says (the problem's `type`,
 * `title` and `detail`, joined) and the kind it stands for. Every kind is permanent
 * (core/network/permanent_failure.ts): the same request would be refused again.
 *
 * - duplicate: a 403 whose detail names "duplicate content" (a text this author already
 *   published recently).
 * - reply_restricted: since 2026-02-23 a reply is allowed only where the original post's
 *   author summoned the replying account (@mentioned it or quoted one of its posts);
 *   otherwise "the reply request will be rejected" (`x-api/posts/manage-tweets/integrate.mdx`,
 *   "Reply restrictions"; `changelog.mdx`). X documents no exact wording, so the match is on
 *   the words such a refusal must use.
 * - suspended: the acting account is suspended (`resource-unavailable`, or a detail saying
 *   "suspended"; `openapi.json` `ResourceUnavailableProblem`).
 * - not_permitted: `client-forbidden` ("App not enrolled or lacks required access",
 *   `x-api/fundamentals/response-codes-and-errors.mdx`, "Error types") or a 403 naming a
 *   missing scope ("User-context endpoints need appropriate OAuth scopes", same page,
 *   "403 Forbidden"): fixed by the app's access or by reconnecting with the scopes.
 * - premium_required, dm_closed: articles without premium, a recipient whose DMs are closed.
 *
 * A protected author's post (`not-authorized-for-resource`) is NetworkPrivateError, a usage
 * cap (`usage-capped`, a 429) NetworkRateLimitedError (retryable), a 401 NetworkUpstreamError
 * (retryable: the token is refreshed before the next attempt, core/accounts/x_tokens.ts).
 */
const WRITE_REFUSALS: ReadonlyArray<readonly [RegExp, NetworkRejection]> = [
  [/duplicate/i, "duplicate"],
  [
    /summon|reply to this conversation|not (?:allowed|permitted) to reply|reply (?:is )?(?:not allowed|not permitted|restricted)|reply request/i,
    "reply_restricted",
  ],
  [/resource-unavailable|suspended/i, "suspended"],
  [/client-forbidden|\bscopes?\b/i, "not_permitted"],
  [/premium|subscription/i, "premium_required"],
  [/\bDMs?\b|direct message|send messages/i, "dm_closed"],
];

/** Why X refused a write: its 403s say what forbids it (WRITE_REFUSALS); a 400 is a malformed request. */
function rejectionOf(status: number, text: string): NetworkRejection {
  if (/too long|character limit|exceeds? .*characters/i.test(text)) return "too_long";
  if (status !== 403) return "invalid";
  return WRITE_REFUSALS.find(([pattern]) => pattern.test(text))?.[1] ?? "invalid";
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
