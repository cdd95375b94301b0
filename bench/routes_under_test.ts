/**
 * Everything both routes need, set up and checked: storage, a Threadline instance
 * with the bench user, the full-path server and the bare-route server on the same pool.
 * The later measurements (jobs, idempotency writes, lookups, AI calls) reuse the pool, the
 * services and the full-path server.
 */
import { randomBytes } from "node:crypto";
import { createThreadline } from "../mod.ts";
import type { Services } from "../core/context.ts";
import type { Sql } from "../core/db/sql.ts";
import type { CleanupStack } from "./cleanup_stack.ts";
import { provideStorage, type BenchStorage } from "./storage.ts";
import { type BenchUser, seedBenchUser } from "./seed.ts";
import { BARE_PATH, createBareApp } from "./bare_app.ts";
import { serveFetch } from "./serve_fetch.ts";
import type { BenchSettings } from "./bench_settings.ts";
import type { LoadOptions } from "./load_run.ts";

/** Tags per page in both requests. */
export const PAGE_SIZE = 20;

/** Threadline's pool, shared by both routes; 10 is openDatabase's PostgreSQL default, set explicitly to print it. */
export const POOL_SIZE = 10;

/** The instance's key prefix (keys seeded later need it). */
export const KEY_PREFIX = "sxk_";

/** A route to load. */
export interface Target {
  label: string;
  url: string;
  headers: Record<string, string>;
  /** A POST target's method and body (the MCP tool call); GET without a body otherwise. */
  method?: "POST";
  body?: string;
}

/** The load options of `target` at the settings' connections and pipelining, for `durationSeconds`. */
export function loadOf(target: Target, settings: Pick<BenchSettings, "connections" | "pipelining">, durationSeconds: number, signal: AbortSignal): LoadOptions {
  const { url, method, body, headers } = target;
  return { url, method, body, headers, connections: settings.connections, pipelining: settings.pipelining, durationSeconds, signal };
}

/** Both routes, ready and checked. */
export interface RoutesUnderTest {
  storage: BenchStorage;
  /** The pool size really in use (embedded PGlite always gets one connection: open_runtime.ts). */
  poolSize: number;
  full: Target;
  bare: Target;
  /** Threadline's pool (the job queue measurement runs on it). */
  sql: Sql;
  /** Where the full-path server listens (`http://127.0.0.1:<port>`). */
  fullOrigin: string;
  user: BenchUser;
  /** The instance's services (network, model, counters) for the in-process measurements. */
  services: Services;
}

/** Sets up both routes and registers their teardown on `cleanup`. */
export async function setUpRoutes(cleanup: CleanupStack, signal: AbortSignal): Promise<RoutesUnderTest> {
  const random = randomBytes(6).toString("hex");
  const storage = await provideStorage(cleanup, random);
  signal.throwIfAborted();
  const threadline = createThreadline({
    databaseUrl: storage.databaseUrl,
    dataDir: null,
    redisUrl: storage.redisUrl,
    redisPrefix: storage.redisPrefix,
    poolSize: POOL_SIZE,
    keyPrefix: KEY_PREFIX,
    // The measured path without request lines on the terminal; operations_section.ts measures them.
    logLevel: "silent",
  });
  cleanup.push("close Threadline", () => threadline.close());
  const services = await threadline.start();
  const user = await seedBenchUser(services.sql, { keyPrefix: KEY_PREFIX, random });
  signal.throwIfAborted();

  const fullServer = await serveFetch(threadline.fetch);
  cleanup.push("close the full-path server", () => fullServer.close());
  // The same pool as the full path (services.sql): same size, same driver options.
  const bareApp = createBareApp(services.sql, user.workspaceId);
  const bareServer = await serveFetch((request) => bareApp.fetch(request));
  cleanup.push("close the bare-route server", () => bareServer.close());

  const full: Target = { label: "full path", url: `${fullServer.url}/v1/tags?limit=${PAGE_SIZE}`, headers: { Authorization: `Bearer ${user.key}` } };
  const bare: Target = { label: "bare route", url: `${bareServer.url}${BARE_PATH}`, headers: {} };
  await verify(full, user.tagCount, true);
  await verify(bare, user.tagCount, false);
  const poolSize = storage.databaseUrl === undefined ? 1 : POOL_SIZE;
  return { storage, poolSize, full, bare, sql: services.sql, fullOrigin: fullServer.url, user, services };
}

/** One request must answer 200 with a full page before anything is measured. */
async function verify(target: Target, tagCount: number, rateLimited: boolean): Promise<void> {
  const response = await fetch(target.url, { headers: target.headers });
  const text = await response.text();
  let body: { data?: unknown[]; pagination?: { total?: number } } | undefined;
  try {
    body = JSON.parse(text);
  } catch {
    // Reported below with the raw text.
  }
  const problems: string[] = [];
  if (response.status !== 200) problems.push(`status ${response.status}`);
  if (body?.data?.length !== PAGE_SIZE) problems.push(`${body?.data?.length ?? "no"} tags instead of ${PAGE_SIZE}`);
  if (body?.pagination?.total !== tagCount) problems.push(`pagination.total ${body?.pagination?.total} instead of ${tagCount}`);
  if (rateLimited && !response.headers.has("x-ratelimit-limit")) problems.push("no X-RateLimit-Limit header");
  if (problems.length > 0) throw new Error(`Check of ${target.label} (GET ${target.url}) failed: ${problems.join(", ")}: ${text.slice(0, 300)}`);
}

/** `tools/call tags_list` with the full path's key and limit: the MCP tool call wrapping the full path's read (mcp_section.ts). */
export function mcpTarget(routes: RoutesUnderTest): Target {
  const limit = Number(new URL(routes.full.url).searchParams.get("limit") ?? PAGE_SIZE);
  return {
    label: "mcp tool call",
    url: `${routes.fullOrigin}/v1/mcp`,
    method: "POST",
    headers: { ...routes.full.headers, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "tags_list", arguments: { limit } } }),
  };
}
