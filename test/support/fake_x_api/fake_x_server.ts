/**
 * A loopback fake of X API v2 for testing the real client without mocking modules
 * (ARCHITECTURE: "The outside world is a port with two adapters"; "The same world
 * serves the X API v2 fake server in tests"). It serves the simulated network in X's
 * shapes (`{ data, includes, meta }`, `errors[]` problems, 200 partial errors for
 * missing things), checks the Bearer token (the app-only one, or a user-context token
 * that acts as one account, or an OAuth 1.0a signature it verifies), records every request, and can be scripted to answer a
 * status with headers (429 with `x-rate-limit-reset`, 500, 503), malformed JSON, or
 * nothing at all (a hang, for timeouts). Like X, it keeps rate windows per endpoint and user
 * (x_rate_windows.ts): `x-rate-limit-*` on every answer, 429 once one is used up. Every request
 * is checked against X's own OpenAPI document (x_contract.ts): what X's document would reject is
 * recorded in `violations`, and `close()` fails while any is left, so a test fails when
 * Threadline sends such a request.
 */
import { AssertionError } from "node:assert";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { systemClock, type Clock } from "../../../core/clock.ts";
import { migrate } from "../../../adapters/postgres/migrate.ts";
import { migrateSimulatedNetwork } from "../../../adapters/x/simulated/simulated_migrations.ts";
import { createSimulatedNetwork, type SimulatedNetwork } from "../../../adapters/x/simulated/simulated_network.ts";
import { createTestDatabase, type TestDatabase } from "../test_database.ts";
import { answerOfError, type XAnswer } from "./x_problems.ts";
import { READ_ROUTES } from "./x_read_routes.ts";
import type { RouteContext } from "./x_route.ts";
import { WRITE_ROUTES } from "./x_write_routes.ts";
import { createFakeXOAuth, type FakeXApp, type FakeXOAuth } from "./x_oauth_routes.ts";
import { createFakeXMedia, mediaRoutes, type FakeXMedia } from "./x_media_routes.ts";
import { createFakeRateWindows, type FakeRateWindowOptions } from "./x_rate_windows.ts";
import { oauth1UserOf, type FakeXOAuth1 } from "./x_oauth1_check.ts";
import { xContract, type ContractViolation, type XAuthScheme } from "./x_contract.ts";

/** One scripted answer; `path` (exact pathname or pattern) and `match` (on the parsed body) limit it to matching requests. */
export type FakeXReply = { path?: string | RegExp; match?: (body: unknown) => boolean } & (
  | { kind: "status"; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: "hang" }
  | { kind: "malformed" }
);

/** A request the fake received. */
export interface RecordedXRequest {
  method: string;
  /** Path with the query string. */
  path: string;
  pathname: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: any;
  at: number;
}

/** How to start the fake. */
export interface FakeXServerOptions {
  /** The world to serve; absent: a simulated network of its own (in-memory database, `seed`, 7-day search). */
  network?: SimulatedNetwork;
  /** The world's clock (X's time rules, such as recent search's 7 days, are checked against it). */
  clock?: Clock;
  seed?: number;
  /** The app-only token (default `test-bearer-token`). */
  bearerToken?: string;
  /** User-context tokens and the account each acts as. */
  userTokens?: Record<string, string>;
  /** The operator's X app: serves X's OAuth 2.0 flow (x_oauth_routes.ts) for it. */
  app?: FakeXApp;
  /** The port to listen on (default: one the OS picks). */
  port?: number;
  /** X's rate windows (default: X's documented limits, 15-minute windows); false: none, no headers. */
  rateWindows?: FakeRateWindowOptions | false;
  /** The app's API key and secret and the OAuth 1.0a tokens whose signed requests are accepted. */
  oauth1?: FakeXOAuth1;
  /** How long an uploaded media id may be attached (default 86400 s, as the chunked-upload quickstart's finalize answer). */
  mediaExpiresAfterSecs?: number;
}

/** A running fake. */
export interface FakeXServer {
  /** The API root to configure as `X_API_BASE_URL`. */
  url: string;
  bearerToken: string;
  network: SimulatedNetwork;
  requests: RecordedXRequest[];
  /** Requests X's OpenAPI document would reject (x_contract.ts); a test expecting some empties it before `close()`. */
  violations: ContractViolation[];
  /** Throws an AssertionError naming every recorded violation. */
  assertNoContractViolations(): void;
  /** Queues scripted answers, used in order by the next requests they match. */
  script(...replies: FakeXReply[]): void;
  /** X's OAuth 2.0 flow, when started with `app`. */
  oauth?: FakeXOAuth;
  /** Media uploaded through `/2/media/upload` (x_media_routes.ts): `uploads` counts them. */
  media: FakeXMedia;
  /** Stops the fake; then throws when `violations` is not empty. */
  close(): Promise<void>;
}

const ROUTES = [...READ_ROUTES, ...WRITE_ROUTES];

/** Starts the fake on 127.0.0.1 with an OS-chosen port. */
export async function startFakeXServer(options: FakeXServerOptions = {}): Promise<FakeXServer> {
  const clock = options.clock ?? systemClock;
  let database: TestDatabase | undefined;
  let network = options.network;
  if (!network) {
    database = await createTestDatabase("embedded");
    const { sql } = await database.open({ poolSize: 1 });
    await migrate(sql);
    await migrateSimulatedNetwork(sql);
    network = createSimulatedNetwork({ sql, clock, seed: options.seed ?? 7, searchWindowDays: 7 });
  }
  const world = network;
  const bearerToken = options.bearerToken ?? "test-bearer-token";
  const userTokens = new Map(Object.entries(options.userTokens ?? {}));
  const queue: FakeXReply[] = [];
  const requests: RecordedXRequest[] = [];
  const violations: ContractViolation[] = [];
  // The origin clients sign OAuth 1.0a requests for (the URL they were sent to).
  let signedOrigin = "http://127.0.0.1";
  const contract = xContract();
  const checks = new Set<Promise<void>>();
  const drafts: RouteContext["drafts"] = new Map();
  const oauth = options.app ? createFakeXOAuth(options.app, clock) : undefined;
  const media = createFakeXMedia(clock, options.mediaExpiresAfterSecs);
  const routes = [...ROUTES, ...mediaRoutes(media, clock)];
  const rateWindows = options.rateWindows === false ? undefined : createFakeRateWindows(options.rateWindows ?? {}, clock);

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      const bytes = Buffer.concat(chunks);
      const raw = bytes.toString("utf8");
      let body: unknown = raw === "" ? undefined : raw;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        // Kept as text: a test may assert what the client sent.
      }
      const url = new URL(request.url ?? "/", "http://fake-x.test");
      const method = request.method ?? "GET";
      requests.push({
        method,
        path: `${url.pathname}${url.search}`,
        pathname: url.pathname,
        query: url.searchParams,
        headers: request.headers,
        body,
        at: Date.now(),
      });
      const authorizing = oauth?.handle(method, url, request.headers, raw);
      if (authorizing) {
        if ("redirect" in authorizing) return void response.writeHead(302, { Location: authorizing.redirect }).end();
        return send(response, authorizing);
      }
      const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
      const oauth1 = (request.headers.authorization ?? "").startsWith("OAuth ");
      const tokenUser = token
        ? (userTokens.get(token) ?? oauth?.userOf(token))
        : oauth1UserOf(options.oauth1, request.headers.authorization ?? "", method, new URL(`${url.pathname}${url.search}`, signedOrigin));
      const auth: XAuthScheme = token === bearerToken ? "BearerToken" : token ? "OAuth2UserToken" : oauth1 ? "UserToken" : "none";
      const check = contract
        .check({ method, url, contentType: request.headers["content-type"], raw: bytes, auth })
        .then((problems) => {
          if (problems.length > 0) {
            violations.push({ request: `${method} ${url.pathname}${url.search}`, operation: contract.operationOf(method, url.pathname), problems });
          }
        })
        .finally(() => checks.delete(check));
      checks.add(check);
      // Answered once checked, so a test reading `violations` after its request sees this one.
      await check;
      if (token !== bearerToken && tokenUser === undefined) {
        return send(response, { status: 401, body: { title: "Unauthorized", type: "about:blank", status: 401, detail: "Unauthorized" } });
      }
      const scripted = queue.findIndex(
        (reply) =>
          (reply.path === undefined || (typeof reply.path === "string" ? reply.path === url.pathname : reply.path.test(url.pathname))) &&
          (reply.match === undefined || reply.match(body)),
      );
      if (scripted >= 0) {
        const [reply] = queue.splice(scripted, 1);
        if (reply.kind === "hang") return; // never answers; close() ends the socket
        if (reply.kind === "malformed") return send(response, { status: 200, body: '{"data": {"id": ' });
        return send(response, {
          status: reply.status,
          body: reply.body ?? { title: `Scripted ${reply.status}`, type: "about:blank", status: reply.status },
          headers: reply.headers,
        });
      }
      const window = rateWindows?.admit(method, url.pathname, tokenUser);
      if (window?.refused) return send(response, window.refused);
      void answer(method, url, body, tokenUser).then((result) => send(response, { ...result, headers: { ...window?.headers, ...result.headers } }));
    });
  });

  async function answer(method: string, url: URL, body: unknown, userId: string | undefined): Promise<XAnswer> {
    for (const route of routes) {
      const match = route.method === method ? route.pattern.exec(url.pathname) : null;
      if (!match) continue;
      if (route.userContext && userId === undefined) {
        return {
          status: 403,
          body: {
            title: "Unsupported Authentication",
            detail:
              "Authenticating with OAuth 2.0 Application-Only is forbidden for this endpoint.  Supported authentication types are [OAuth 1.0a User Context, OAuth 2.0 User Context].",
            type: "https://api.twitter.com/2/problems/unsupported-authentication",
            status: 403,
          },
        };
      }
      try {
        return await route.handle({ network: world, clock, url, params: match.slice(1), body, userId, drafts, media });
      } catch (error) {
        return answerOfError(error, route.tokenParam ?? "pagination_token", clock.now());
      }
    }
    return { status: 404, body: { title: "Not Found Error", detail: `No route ${method} ${url.pathname}`, type: "about:blank", status: 404 } };
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  signedOrigin = `http://127.0.0.1:${port}`;
  return {
    url: `http://127.0.0.1:${port}`,
    bearerToken,
    network: world,
    requests,
    violations,
    assertNoContractViolations,
    script: (...replies) => void queue.push(...replies),
    oauth,
    media,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await database?.drop();
      await Promise.all(checks);
      assertNoContractViolations();
    },
  };

  function assertNoContractViolations(): void {
    if (violations.length === 0) return;
    const list = violations.map((v) => `${v.request}${v.operation ? ` (${v.operation})` : ""}: ${v.problems.join("; ")}`).join("\n  ");
    throw new AssertionError({ message: `X's OpenAPI document would reject ${violations.length} request(s):\n  ${list}` });
  }
}

function send(response: ServerResponse, answer: XAnswer): void {
  response.writeHead(answer.status, { "Content-Type": "application/json", ...answer.headers });
  response.end(typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body ?? {}));
}
