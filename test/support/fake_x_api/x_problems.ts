/**
 * Failures as X API v2 writes them (RFC 7807 problems): a missing or protected thing on
 * a read is a 200 whose `errors[]` says "Not Found Error" / "Authorization Error"; a
 * bad parameter a 400 "Invalid Request" naming it; a refused write a 403 whose detail
 * says why (duplicate content, text too long, premium needed, DMs closed) or a 400; a
 * per-user daily cap a 429 with the `x-user-limit-24hour-*` headers.
 */
import {
  NetworkBadRequestError,
  NetworkNotFoundError,
  NetworkPrivateError,
  NetworkRejectedError,
  type NetworkResource,
} from "../../../core/network/network_errors.ts";

/** What a route answers. */
export interface XAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A query parameter the fake refuses as X would. */
export class FakeParameterError extends Error {
  readonly parameter: string;
  readonly value: string;
  constructor(parameter: string, value: string, message: string) {
    super(message);
    this.parameter = parameter;
    this.value = value;
  }
}

const PROBLEMS = "https://api.twitter.com/2/problems";
const RESOURCE_TYPES: Record<NetworkResource, string> = { user: "user", dm: "user", post: "tweet", list: "list", article: "article" };

/** An `errors[]` item for a thing that is missing (or, `privately`, protected). */
export function lookupProblem(resource: NetworkResource, ref: string, parameter: string, privately = false): Record<string, unknown> {
  const type = RESOURCE_TYPES[resource];
  return privately
    ? {
        value: ref,
        detail: `Sorry, you are not authorized to see the ${type} with ${parameter}: [${ref}].`,
        title: "Authorization Error",
        resource_type: type,
        parameter,
        resource_id: ref,
        type: `${PROBLEMS}/not-authorized-for-resource`,
      }
    : {
        value: ref,
        detail: `Could not find ${type} with ${parameter}: [${ref}].`,
        title: "Not Found Error",
        resource_type: type,
        parameter,
        resource_id: ref,
        type: `${PROBLEMS}/resource-not-found`,
      };
}

/** A 400 "Invalid Request" naming one parameter. */
export function invalidRequest(parameter: string, value: string, message: string): XAnswer {
  return {
    status: 400,
    body: {
      errors: [{ parameters: { [parameter]: [value] }, message }],
      title: "Invalid Request",
      detail: "One or more parameters to your request was invalid.",
      type: `${PROBLEMS}/invalid-request`,
    },
  };
}

/** How X answers `error` (thrown by the simulated network or a route); `tokenParam` names the cursor parameter. */
export function answerOfError(error: unknown, tokenParam: string, nowMs: number): XAnswer {
  if (error instanceof FakeParameterError) return invalidRequest(error.parameter, error.value, error.message);
  if (error instanceof NetworkBadRequestError)
    return invalidRequest(tokenParam, "", `The \`${tokenParam}\` query parameter value is not a valid pagination token`);
  if (error instanceof NetworkNotFoundError) return { status: 200, body: { errors: [lookupProblem(error.resource, error.ref, "id")] } };
  if (error instanceof NetworkPrivateError) return { status: 200, body: { errors: [lookupProblem(error.resource, error.ref, "id", true)] } };
  if (error instanceof NetworkRejectedError) return rejection(error, nowMs);
  return { status: 500, body: { title: "Internal Server Error", detail: "Something went wrong", type: "about:blank", status: 500 } };
}

function rejection(error: NetworkRejectedError, nowMs: number): XAnswer {
  const forbidden = (detail: string): XAnswer => ({ status: 403, body: { title: "Forbidden", detail, type: "about:blank", status: 403 } });
  switch (error.reason) {
    case "duplicate":
      return forbidden("You are not allowed to create a Tweet with duplicate content.");
    case "too_long":
      return forbidden("Your Tweet text is too long.");
    case "premium_required":
      return forbidden("Publishing Articles requires an X Premium subscription.");
    case "dm_closed":
      return forbidden("You cannot send messages to this user.");
    case "reply_restricted":
    case "suspended":
    case "not_permitted":
      return refusalAnswer(error.reason);
    case "daily_limit": {
      const reset = String(Math.ceil((Math.floor(nowMs / 86_400_000) + 1) * 86_400));
      return {
        status: 429,
        body: { title: "Too Many Requests", detail: "Too Many Requests", type: "about:blank", status: 429 },
        headers: { "x-user-limit-24hour-limit": "5", "x-user-limit-24hour-remaining": "0", "x-user-limit-24hour-reset": reset },
      };
    }
    default:
      return {
        status: 400,
        body: { errors: [{ message: error.message }], title: "Invalid Request", detail: error.message, type: `${PROBLEMS}/invalid-request` },
      };
  }
}

/**
 * X's newer refusals of `POST /2/tweets`, as the fake answers them. X documents the types
 * (`x-api/fundamentals/response-codes-and-errors.mdx`, "Error types"; `openapi.json`
 * `ResourceUnavailableProblem`) but not every detail's wording: the details here are
 * plausible sentences carrying the words Threadline matches on.
 */
export const X_REFUSALS = {
  /** `x-api/posts/manage-tweets/integrate.mdx`, "Reply restrictions". */
  reply_restricted: {
    status: 403,
    body: {
      title: "Forbidden",
      detail:
        "Reply to this conversation is not allowed because you have not been mentioned or otherwise engaged by the author of the post you are replying to.",
      type: "about:blank",
      status: 403,
    },
  },
  suspended: {
    status: 403,
    body: { title: "Forbidden", detail: "This account is suspended.", resource_type: "user", type: `${PROBLEMS}/resource-unavailable`, status: 403 },
  },
  not_permitted: {
    status: 403,
    body: {
      title: "Client Forbidden",
      detail: "This request must be made using an approved developer account with the required scopes.",
      reason: "client-not-enrolled",
      type: `${PROBLEMS}/client-forbidden`,
      status: 403,
    },
  },
  missing_scope: {
    status: 403,
    body: { title: "Forbidden", detail: "Missing required scope: tweet.write", type: "about:blank", status: 403 },
  },
  usage_capped: {
    status: 429,
    body: {
      title: "UsageCapExceeded",
      detail: "Usage cap exceeded: Monthly product cap",
      period: "Monthly",
      scope: "Product",
      type: `${PROBLEMS}/usage-capped`,
      status: 429,
    },
  },
  expired_token: {
    status: 401,
    body: { title: "Unauthorized", detail: "Unauthorized", type: "about:blank", status: 401 },
  },
} satisfies Record<string, XAnswer>;

/** The fake's answer for one of X's newer refusals. */
export function refusalAnswer(kind: keyof typeof X_REFUSALS): XAnswer {
  return structuredClone(X_REFUSALS[kind]);
}
