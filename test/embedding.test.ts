/**
 * Threadline as a library (ARCHITECTURE: Web standards first): another server mounts
 * `createThreadline(config).fetch` with one line, the instance starts on the first
 * request, and `close()` lets go of everything. Embedded in memory, or on a private
 * PostgreSQL database when `DATABASE_URL` is set.
 */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { H3 } from "h3";
import { toNodeHandler } from "h3/node";
import postgres from "postgres";
import { createThreadline, type Threadline, type ThreadlineConfig } from "../mod.ts";
import { ensureDemoWorld } from "../core/demo/demo_world.ts";
import { generateApiKey } from "../core/auth/api_key_format.ts";
import { createTestDatabase, testRedisPrefix, type TestDatabase } from "./support/test_database.ts";
import { pollUntil } from "./support/child_node.ts";

const mode = process.env.DATABASE_URL ? "postgres" : "embedded";

/** A private database (PostgreSQL) or none (embedded in memory), and the config for it. */
async function storage(): Promise<{ config: ThreadlineConfig; database?: TestDatabase }> {
  if (mode === "embedded") return { config: { dataDir: null } };
  const database = await createTestDatabase("postgres");
  return {
    database,
    config: { databaseUrl: database.url, redisUrl: process.env.REDIS_URL, redisPrefix: testRedisPrefix() },
  };
}

async function listenOn(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function closeServer(server: Server): Promise<void> {
  if (!server.listening) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Server processes connected to `database` (PostgreSQL only). */
async function backendsOf(database: TestDatabase): Promise<number> {
  const name = new URL(database.url!).pathname.slice(1);
  const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  try {
    const [row] = await admin<{ count: number }[]>`select count(*)::int as count from pg_stat_activity where datname = ${name}`;
    return row.count;
  } finally {
    await admin.end();
  }
}

describe(`embedding Threadline (${mode})`, { timeout: 120_000 }, () => {
  test("a Node server mounts it with one line; it starts on the first request, serves /v1/tags, and close() lets go", async () => {
    const { config, database } = await storage();
    const threadline: Threadline = createThreadline(config);
    // The one line of mod.ts's @example. h3 2.0.8 types toNodeHandler(app: H3) though it
    // only reads `app.fetch`, hence the cast (reported).
    const server = createServer(toNodeHandler({ fetch: threadline.fetch } as unknown as H3));
    try {
      if (database) assert.equal(await backendsOf(database), 0, "createThreadline() must not connect before the first request");
      const base = await listenOn(server);

      // No start(): a well-formed unknown key needs the migrated api_keys table to be refused.
      const first = await fetch(`${base}/v1/tags`, { headers: { authorization: `Bearer ${generateApiKey("sxk_")}` } });
      assert.equal(first.status, 401);
      assert.equal(((await first.json()) as any).error.code, "invalid_api_key");

      const services = await threadline.start();
      assert.equal(await threadline.start(), services, "start() after the first request reuses the running instance");
      const world = await ensureDemoWorld(services);

      const listed = await fetch(`${base}/v1/tags`, { headers: { authorization: `Bearer ${world.keys.write}` } });
      assert.equal(listed.status, 200);
      const body = (await listed.json()) as { data: { id: number }[] };
      assert.deepEqual(body.data.map((tag) => tag.id).sort(), [...world.tags].sort());
      const me = await fetch(`${base}/v1/me`, { headers: { authorization: `Bearer ${world.keys.read}` } });
      assert.equal(me.status, 200);
      assert.match(me.headers.get("x-ratelimit-limit") ?? "", /^\d+$/);
      if (database) assert.ok((await backendsOf(database)) > 0, "the running instance holds connections");

      await closeServer(server);
      await threadline.close();
      await threadline.close(); // a second close() is harmless
      await assert.rejects(services.sql`select 1`, "the pool still answers after close()");
      if (database)
        await pollUntil("PostgreSQL connections to end", async () => ((await backendsOf(database)) === 0 ? true : undefined), { timeoutMs: 10_000 });
    } finally {
      await closeServer(server);
      await threadline.close();
      await database?.drop();
    }
  });

  test("mounted under /api in an h3 app, it still answers /v1/docs, /v1 errors and tRPC beside the host's routes", async () => {
    const { config, database } = await storage();
    const threadline = createThreadline(config);
    const host = new H3();
    host.get("/health", () => ({ ok: true }));
    host.mount("/api", threadline);
    const server = createServer(toNodeHandler(host));
    try {
      const base = await listenOn(server);
      const markdown = await fetch(`${base}/api/v1/docs`);
      assert.equal(markdown.status, 200);
      assert.match(markdown.headers.get("content-type") ?? "", /^text\/markdown/);
      assert.match(await markdown.text(), /GET \/v1\/tags/);

      const openapi = await fetch(`${base}/api/v1/docs`, { headers: { accept: "application/json" } });
      assert.equal(openapi.status, 200);
      assert.match(((await openapi.json()) as any).openapi, /^3\.1/);

      const refused = await fetch(`${base}/api/v1/tags`);
      assert.equal(refused.status, 401);
      assert.equal(((await refused.json()) as any).error.code, "unauthorized");

      const trpc = await fetch(`${base}/api/trpc/meta.docs`);
      assert.equal(trpc.status, 200);
      assert.ok(((await trpc.json()) as any).result.data.openapi.paths["/v1/tags"]);

      const health = await fetch(`${base}/health`);
      assert.deepEqual(await health.json(), { ok: true });
    } finally {
      await closeServer(server);
      await threadline.close();
      await database?.drop();
    }
  });

  test("behind a hand-written fetch router it answers /v1/docs and leaves other paths to the host", async () => {
    const { config, database } = await storage();
    const threadline = createThreadline(config);
    const route = (request: Request): Promise<Response> => {
      const { pathname } = new URL(request.url);
      if (pathname.startsWith("/v1/") || pathname.startsWith("/trpc/")) return threadline.fetch(request);
      return Promise.resolve(new Response("host page", { headers: { "content-type": "text/plain" } }));
    };
    try {
      const docs = await route(new Request("http://host.test/v1/docs?format=openapi"));
      assert.equal(docs.status, 200);
      assert.match(((await docs.json()) as any).openapi, /^3\.1/);
      const page = await route(new Request("http://host.test/about"));
      assert.equal(await page.text(), "host page");
    } finally {
      await threadline.close();
      await database?.drop();
    }
  });
});
