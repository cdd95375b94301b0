/**
 * A Threadline instance for a test file: its own database (a fresh PostgreSQL database
 * when `DATABASE_URL` is set, else in-memory PGlite), its own Redis prefix when
 * `REDIS_URL` is set, the demo world, and a real listening server beside the in-process
 * `fetch`, so every case can run through both (STYLE.md: h3's describeMatrix).
 */
import { randomBytes } from "node:crypto";
import { createThreadline, type Threadline, type ThreadlineConfig } from "../../mod.ts";
import { listen } from "../../adapters/http/listen.ts";
import type { Services } from "../../core/context.ts";
import { ensureDemoWorld, type DemoWorld } from "../../core/demo/demo_world.ts";
import { migratedEmbeddedTemplate } from "./embedded_template.ts";
import { createTestDatabase, testRedisPrefix, type TestDatabase } from "./test_database.ts";
import { responseProblems } from "./response_schemas.ts";

/** A running test instance. */
export interface Harness {
  threadline: Threadline;
  services: Services;
  world: DemoWorld;
  baseUrl: string;
  database: TestDatabase;
  config: ThreadlineConfig;
  close(): Promise<void>;
}

/**
 * Starts an instance; `share` reuses another harness's database and Redis prefix (a second
 * process); `demoContent` also syncs the demo accounts' year of content (seconds).
 */
export async function startHarness(options: { config?: Partial<ThreadlineConfig>; share?: Harness; demoContent?: boolean } = {}): Promise<Harness> {
  const database = options.share?.database ?? (await createTestDatabase(undefined, { migrated: true }));
  const config: ThreadlineConfig = {
    databaseUrl: database.url,
    dataDir: null,
    // The database starts migrated (embedded_template.ts; on PostgreSQL a copy of
    // postgres_template.ts): initdb and the migrations run once per suite run, not per instance.
    loadDataDir: database.url ? undefined : await migratedEmbeddedTemplate(),
    redisUrl: process.env.REDIS_URL,
    redisPrefix: options.share?.config.redisPrefix ?? testRedisPrefix(),
    // Each case sends its own X-Forwarded-For so the failed-attempt limiter of one case
    // never spills into another.
    trustProxy: true,
    // Quiet test output: request lines only when asked for (LOG_LEVEL=info npm test).
    logLevel: process.env.LOG_LEVEL ?? "silent",
    ...options.config,
  };
  if (!database.url && options.share) throw new Error("Sharing needs PostgreSQL: embedded in-memory databases are per process");
  const threadline = createThreadline(config);
  const services = await threadline.start();
  // The demo accounts' synced content (a year of posts) only for the suites that read it.
  const world = options.share?.world ?? (await ensureDemoWorld(services, { content: options.demoContent ?? false }));
  // The production listener (adapters/http/listen.ts), so the http transport meets what a client does.
  const { server, url } = await listen(threadline.fetch, { port: 0, host: "127.0.0.1" });
  return {
    threadline,
    services,
    world,
    baseUrl: url,
    database,
    config,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await threadline.close();
      if (!options.share) await database.drop();
    },
  };
}

/** What a test request answers. */
export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** Options of one request. */
export interface RequestOptions {
  key?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** The client address (default: a random one per request). */
  ip?: string;
}

/** A way to reach the instance: in process or over HTTP. */
export interface Transport {
  name: "in-process" | "http";
  request(method: string, path: string, options?: RequestOptions): Promise<Answer>;
}

/** Both transports for `harness`. */
export function transports(harness: Harness): Transport[] {
  const make = (name: Transport["name"], send: (request: Request) => Promise<Response>): Transport => ({
    name,
    async request(method, path, options = {}) {
      const headers = new Headers(options.headers);
      if (options.key) headers.set("Authorization", `Bearer ${options.key}`);
      headers.set("X-Forwarded-For", options.ip ?? randomIp());
      let body: string | undefined;
      if (options.body !== undefined) {
        body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
        if (!headers.has("Content-Type")) headers.set("Content-Type", "application/json");
      }
      const base = name === "http" ? harness.baseUrl : "http://in-process.test";
      const response = await send(new Request(`${base}${path}`, { method, headers, body }));
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // Non-JSON answers (the Markdown docs) stay text.
      }
      // Every 2xx answer of every suite must match the schema the document declares for it.
      if (response.status < 300 && path.startsWith("/v1/")) {
        const problems = responseProblems(method, new URL(path, base).pathname, response.status, response.headers.get("content-type"), parsed);
        if (problems.length > 0) throw new Error(`The answer breaks the OpenAPI document:\n${problems.join("\n")}\nBody: ${text.slice(0, 2000)}`);
      }
      return { status: response.status, headers: response.headers, body: parsed };
    },
  });
  return [make("in-process", (request) => harness.threadline.fetch(request)), make("http", (request) => fetch(request))];
}

/** A random documentation-range address (RFC 5737), so cases do not share a failed-attempt bucket. */
export function randomIp(): string {
  const bytes = randomBytes(2);
  return `198.51.${bytes[0]}.${bytes[1]}`;
}
