/**
 * One X API v2 request over fetch: the `Authorization: Bearer` header (the app-only
 * token for reads, a user-context token for writes and DMs), a bounded wait
 * (AbortSignal.timeout covers the headers and the body), and the answer parsed or
 * turned into the port's typed errors (x_api_errors.ts). No retries here: a failed
 * read is cheap to repeat by the caller, and a write must not be repeated blindly
 * (publishPost reconciles instead).
 */
import type { Clock } from "../../../core/clock.ts";
import { NetworkTimeoutError, NetworkUnavailableError, NetworkUpstreamError } from "../../../core/network/network_errors.ts";
import { errorOfProblem, errorOfStatus, type XSubject } from "./x_api_errors.ts";
import type { XBody } from "./x_api_types.ts";

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
}

/** One request. */
export interface XRequest {
  method?: "GET" | "POST" | "DELETE";
  /** Path from the root, `/2/...`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  /** JSON body of a POST. */
  body?: unknown;
  /** User-context token; the app-only bearer token when absent. */
  userToken?: string;
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
  const client: XApiClient = {
    async request<T>(request: XRequest): Promise<XBody<T>> {
      const method = request.method ?? "GET";
      const url = new URL(`${root}${request.path}`);
      for (const [name, value] of Object.entries(request.query ?? {})) {
        if (value !== undefined && value !== "") url.searchParams.set(name, String(value));
      }
      const headers: Record<string, string> = { Authorization: `Bearer ${request.userToken ?? options.bearerToken}`, Accept: "application/json" };
      if (request.body !== undefined) headers["Content-Type"] = "application/json";
      const signal = AbortSignal.timeout(options.timeoutMs);
      let response: Response;
      let text: string;
      try {
        response = await options.fetch(url, { method, headers, body: request.body === undefined ? undefined : JSON.stringify(request.body), signal });
        text = await response.text();
      } catch (error) {
        if (signal.aborted) throw new NetworkTimeoutError(`X did not answer ${method} ${request.path} within ${options.timeoutMs} ms`, { cause: error });
        throw new NetworkUnavailableError(`Cannot reach X at "${url.origin}"`, { cause: error });
      }
      let body: XBody<T> | undefined;
      try {
        body = text === "" ? {} : (JSON.parse(text) as XBody<T>);
      } catch (cause) {
        if (response.ok) throw new NetworkUpstreamError(`X answered malformed JSON (HTTP ${response.status})`, response.status, { cause });
      }
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
