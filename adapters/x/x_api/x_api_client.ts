/**
 * One X API v2 request over fetch: the `Authorization` header (the app-only bearer
 * token for reads, a user-context credential for writes and DMs), a bounded wait
 * (AbortSignal.timeout covers the headers and the body), and the answer parsed or
 * turned into the port's typed errors (x_api_errors.ts). No retries here: a failed
 * read is cheap to repeat by the caller, and a write must not be repeated blindly
 * (publishPost reconciles instead).
 */
import type { Clock } from "../../../core/clock.ts";
import { NetworkRejectedError, NetworkTimeoutError, NetworkUnavailableError, NetworkUpstreamError } from "../../../core/network/network_errors.ts";
import { errorOfProblem, errorOfStatus, type XSubject } from "./x_api_errors.ts";
import type { XBody } from "./x_api_types.ts";
import { oauth1Authorization, type XConsumer, type XOAuth1Token } from "./x_oauth1.ts";

/** How to reach X. */
export interface XApiClientOptions {
  /** API root, `https://api.x.com` (a trailing `/2` is accepted too). */
  baseUrl: string;
  /** App-only bearer token, for reads. */
  bearerToken: string;
  fetch: typeof fetch;
  /** Bound on one request, headers and body included. */
  timeoutMs: number;
  clock: Clock;
  /** Watchers of every request, in order (metering, rate windows). */
  watchers?: readonly XCallWatcher[];
  /** The X app's API key and secret, to sign as accounts whose credential is an OAuth 1.0a token. */
  consumer?: XConsumer;
}

/**
 * Who a user-context request acts as: the account (its X user id) and its credential: an OAuth 2.0
 * user access token (sent as `Bearer`), or an OAuth 1.0a access token and secret (each request is
 * signed with them and the app's consumer key, x_oauth1.ts).
 */
export type XActor = { userId: string; accessToken: string } | { userId: string; oauth1: XOAuth1Token };

/** What a watcher learns of one request: enough to meter it and to keep X's rate windows. */
export interface XCallFacts {
  method: "GET" | "POST" | "DELETE";
  /** The path as sent, `/2/tweets/123`. */
  path: string;
  /** The endpoint it hit, ids replaced by `:id` (`DELETE /2/tweets/:id`): the key of X's rate windows. */
  endpoint: string;
  /** The account a user-context request acts as; undefined for app-only requests. */
  userId?: string;
  /** The JSON body of a POST as sent (metering tells a post holding a URL by its text). */
  body?: unknown;
}

/** What X answered, for a watcher: the status and headers (`x-rate-limit-*`) and the parsed body when there was one. */
export interface XAnswerFacts {
  status: number;
  headers: Headers;
  body: unknown;
}

/**
 * Watches every request (metering, rate windows). `before` may throw a NetworkError to hold a
 * request back before it is sent (a window ran out, the budget would be crossed); `after` learns
 * X's answer, or undefined when X did not answer (unreachable, timed out). A watcher's own
 * failure in `after` never fails the request.
 */
export interface XCallWatcher {
  before?(call: XCallFacts): Promise<void> | void;
  after?(call: XCallFacts, answer: XAnswerFacts | undefined): Promise<void> | void;
}

/** One request. */
export interface XRequest {
  method?: "GET" | "POST" | "DELETE";
  /** Path from the root, `/2/...`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  /** JSON body of a POST. */
  body?: unknown;
  /** The account acting (user context); the app-only bearer token when absent. */
  actingAs?: XActor;
  /** What a not-found or private answer is about. */
  subject: XSubject;
}

/** Sends requests to one X API. */
export interface XApiClient {
  /** The parsed body of a 2xx answer (it may hold only `errors` or only `meta`). */
  request<T>(request: XRequest): Promise<XBody<T>>;
  /** The body of a 2xx answer that must carry `data`; without it, its first `errors[]` item is thrown. */
  data<T>(request: XRequest): Promise<XBody<T> & { data: T }>;
  /** The body of a 2xx answer listing items: no `data` is an empty page, unless `errors[]` says why (a missing or protected subject). */
  list<T>(request: XRequest): Promise<XBody<T[]> & { data: T[] }>;
}

/** Creates the client. */
export function createXApiClient(options: XApiClientOptions): XApiClient {
  const root = options.baseUrl.replace(/\/+$/, "").replace(/\/2$/, "");
  const watchers = options.watchers ?? [];
  const tell = async (facts: XCallFacts, answer: XAnswerFacts | undefined) => {
    for (const watcher of watchers) {
      try {
        await watcher.after?.(facts, answer);
      } catch {
        // A watcher's failure (a counter store down) must not turn X's answer into a failure.
      }
    }
  };
  const client: XApiClient = {
    async request<T>(request: XRequest): Promise<XBody<T>> {
      const method = request.method ?? "GET";
      const url = new URL(`${root}${request.path}`);
      for (const [name, value] of Object.entries(request.query ?? {})) {
        if (value !== undefined && value !== "") url.searchParams.set(name, String(value));
      }
      const facts: XCallFacts = {
        method,
        path: request.path,
        endpoint: endpointOf(method, request.path),
        userId: request.actingAs?.userId,
        body: request.body,
      };
      for (const watcher of watchers) await watcher.before?.(facts);
      const headers: Record<string, string> = { Authorization: authorizationOf(options, request.actingAs, method, url), Accept: "application/json" };
      if (request.body !== undefined) headers["Content-Type"] = "application/json";
      const signal = AbortSignal.timeout(options.timeoutMs);
      let response: Response;
      let text: string;
      try {
        response = await options.fetch(url, { method, headers, body: request.body === undefined ? undefined : JSON.stringify(request.body), signal });
        text = await response.text();
      } catch (error) {
        await tell(facts, undefined);
        if (signal.aborted) throw new NetworkTimeoutError(`X did not answer ${method} ${request.path} within ${options.timeoutMs} ms`, { cause: error });
        throw new NetworkUnavailableError(`Cannot reach X at "${url.origin}"`, { cause: error });
      }
      let body: XBody<T> | undefined;
      try {
        body = text === "" ? {} : (JSON.parse(text) as XBody<T>);
      } catch (cause) {
        if (response.ok) {
          await tell(facts, { status: response.status, headers: response.headers, body: undefined });
          throw new NetworkUpstreamError(`X answered malformed JSON (HTTP ${response.status})`, response.status, { cause });
        }
      }
      await tell(facts, { status: response.status, headers: response.headers, body });
      if (!response.ok) {
        throw errorOfStatus({ status: response.status, headers: response.headers, body, method, subject: request.subject, nowMs: options.clock.now() });
      }
      if (typeof body !== "object" || body === null) throw new NetworkUpstreamError(`X answered an unexpected body (HTTP ${response.status})`, response.status);
      return body;
    },
    async data<T>(request: XRequest) {
      const body = await client.request<T>(request);
      if (body.data !== undefined) return body as XBody<T> & { data: T };
      const problem = body.errors?.[0];
      throw problem ? errorOfProblem(problem, request.subject) : new NetworkUpstreamError(`X answered ${request.path} without data`);
    },
    async list<T>(request: XRequest) {
      const body = await client.request<T[]>(request);
      const problem = body.errors?.[0];
      if (body.data === undefined && problem && body.meta === undefined) throw errorOfProblem(problem, request.subject);
      return { ...body, data: body.data ?? [] };
    },
  };
  return client;
}

/** The Authorization header of a request acting as `actor` (the app-only bearer token when none). */
function authorizationOf(options: XApiClientOptions, actor: XActor | undefined, method: string, url: URL): string {
  if (actor === undefined) return `Bearer ${options.bearerToken}`;
  if ("accessToken" in actor) return `Bearer ${actor.accessToken}`;
  if (!options.consumer) {
    throw new NetworkRejectedError("invalid", "Signing with an OAuth 1.0a token needs the X app's API key and secret (X_CONSUMER_KEY, X_CONSUMER_SECRET)");
  }
  return oauth1Authorization(options.consumer, actor.oauth1, method, url);
}

/** The endpoint a path hits: numeric ids (X's are) replaced by `:id`, `POST /2/users/:id/retweets`. */
export function endpointOf(method: string, path: string): string {
  // The version segment `/2` is not an id.
  const [, version = "", rest = ""] = /^(\/2)?(.*)$/s.exec(path) ?? [];
  return `${method} ${version}${rest.replace(/\/\d+(?=\/|$)/g, "/:id")}`;
}
