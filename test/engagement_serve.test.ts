/**
 * The engagers follow the content sync on a real `threadline serve` (docs/areas.md "Audience"):
 * when the main account's engagers were counted before its replies and reposts were stored
 * (as when a server's jobs reach the account before the demo's first content sync commits),
 * the next content sync that stores them makes the engagers due again, so the served demo
 * world lists its repliers and reposters at once instead of an hour later. The precondition
 * is set in this process on the storage the server then opens; embedded, or on PostgreSQL +
 * Redis when DATABASE_URL and REDIS_URL are set.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AnyRouter } from "@trpc/server";
import { childEnv, pollUntil, startNode, type RunningNode } from "./support/child_node.ts";
import { createTestDatabase, testRedisPrefix, type TestDatabase } from "./support/test_database.ts";
import { migratedDataDir } from "./support/embedded_template.ts";
import { postgresMode } from "./support/served_world.ts";
import { assertEngagementCounted } from "./support/engagement_counted.ts";
import { openRuntime } from "../adapters/runtime/open_runtime.ts";
import { configFromEnv } from "../adapters/runtime/config.ts";
import { appRouter } from "../routers/index.ts";
import { ensureDemoWorld } from "../core/demo/demo_world.ts";
import { syncAccountAudience } from "../core/audience/audience_sync.ts";
import { audienceSyncStates } from "../core/audience/audience_sync_queries.ts";

describe(`engagers counted before the content are counted again by a served demo world (${postgresMode ? "PostgreSQL + Redis" : "embedded"})`, () => {
  let dir: string;
  let database: TestDatabase | undefined;
  let server: RunningNode | undefined;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "tl-engagement-"));
    database = postgresMode ? await createTestDatabase("postgres", { migrated: true }) : undefined;
    if (!database) await migratedDataDir(join(dir, "data"));
  });

  after(async () => {
    await server?.stop();
    await database?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  test("the demo's content sync makes the engagers due again: repliers, reposters and counts at once", { timeout: 120_000 }, async () => {
    const env = database
      ? childEnv({ SHUTDOWN_TIMEOUT_MS: "5000", DATABASE_URL: database.url, REDIS_URL: process.env.REDIS_URL, REDIS_PREFIX: testRedisPrefix() }, [])
      : childEnv({ SHUTDOWN_TIMEOUT_MS: "5000", DATA_DIR: join(dir, "data") });

    // The precondition: the world without its content, and the main account's audience synced
    // then (the engagers counted nobody and are not due for an hour).
    const runtime = await openRuntime(appRouter as AnyRouter, { ...configFromEnv(env), logLevel: "silent" });
    try {
      const seeded = await ensureDemoWorld(runtime.services, { content: false });
      const outcome = await syncAccountAudience(runtime.services, seeded.accounts.main);
      assert.deepEqual([outcome.engagers.result, outcome.engagers.status], ["synced", "complete"]);
      const engagers = (await audienceSyncStates(runtime.services.sql, seeded.accounts.main)).get("engagers");
      assert.equal(engagers?.synced_count, 0, "nothing to count before the content");
    } finally {
      await runtime.close();
    }

    // The demo's first content sync runs in `serve --demo-file`, then its audience sync.
    const demoFile = join(dir, "demo.json");
    server = startNode(["--import", "tsx", "adapters/cli/main.ts", "serve", "--port", "0", "--demo-file", demoFile], { env });
    const running = server;
    const demo = await pollUntil(
      "the demo file",
      async () => {
        try {
          return JSON.parse(await readFile(demoFile, "utf8"));
        } catch {
          return undefined; // not written yet
        }
      },
      { timeoutMs: 90_000, abort: () => (running.child.exitCode !== null ? `serve exited: ${running.stderr}` : undefined) },
    );
    await assertEngagementCounted(demo.base_url, demo.keys.write);
  });
});
