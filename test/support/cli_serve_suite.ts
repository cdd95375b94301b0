/**
 * The operating contract (ARCHITECTURE: Operating contract; spec/demo_world.md) through
 * real processes: `serve --port 0 --demo-file` writes a working demo world, data and
 * key rotation survive a restart, `demo --json` is repeatable, and the `keys` commands
 * manage keys within the cap of 10 active keys. One suite per storage, each in its own test
 * file (test/cli_serve_embedded.test.ts, test/cli_serve_postgres.test.ts) so the two run in
 * parallel.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, testRedisPrefix, type TestDatabase } from "./test_database.ts";
import type { AnyRouter } from "@trpc/server";
import { adminApi } from "../../core/admin/admin_api.ts";
import { openRuntime } from "../../adapters/runtime/open_runtime.ts";
import { configFromEnv } from "../../adapters/runtime/config.ts";
import { appRouter } from "../../routers/index.ts";
import { migratedDataDir } from "./embedded_template.ts";
import { childEnv, pollUntil, runNode, startNode, type Finished, type RunningNode } from "./child_node.ts";
import { assertEngagementCounted } from "./engagement_counted.ts";

const CLI = ["--import", "tsx", "adapters/cli/main.ts"];
const START_TIMEOUT_MS = 60_000;
const METRICS_TOKEN = "cli-serve-metrics-token";

interface DemoFile {
  base_url: string;
  trpc_url: string;
  accounts: Record<string, string>;
  keys: Record<string, string>;
  handles: { main: string };
  tags: number[];
}

const ACCOUNT_NAMES = ["main", "linked", "shared", "editor_shared", "throttled", "other_user"];
const KEY_NAMES = ["write", "read", "lapsed", "revoked", "throttled", "other_user"];

/** Asserts the shape spec/demo_world.md promises. */
function assertDemoShape(demo: DemoFile): void {
  assert.match(demo.base_url, /^http:\/\/127\.0\.0\.1:[1-9]\d*\/v1$/, `base_url ${demo.base_url}`);
  assert.equal(typeof demo.trpc_url, "string");
  assert.match(demo.trpc_url, /\/trpc$/);
  for (const name of ACCOUNT_NAMES) assert.match(demo.accounts?.[name] ?? "", /^\d+$/, `accounts.${name}`);
  assert.equal(new Set(ACCOUNT_NAMES.map((name) => demo.accounts[name])).size, ACCOUNT_NAMES.length, "account ids must differ");
  for (const name of KEY_NAMES) assert.match(demo.keys?.[name] ?? "", /^sxk_[A-Za-z0-9]+$/, `keys.${name}`);
  assert.equal(new Set(KEY_NAMES.map((name) => demo.keys[name])).size, KEY_NAMES.length, "keys must differ");
  assert.equal(typeof demo.handles?.main, "string");
  assert.ok(demo.handles.main.length > 0);
  assert.equal(demo.tags?.length, 2);
  for (const id of demo.tags) assert.ok(Number.isInteger(id) && id > 0, `tag id ${id}`);
}

/** A request to the demo's REST base. */
async function call(demo: DemoFile, method: string, path: string, key?: string, body?: unknown): Promise<{ status: number; headers: Headers; body: any }> {
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${demo.base_url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON; keep the text for the assertion message.
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/** Starts `serve --port 0 --demo-file demoFile` and waits for the demo file to parse. */
async function startServe(env: NodeJS.ProcessEnv, demoFile: string): Promise<{ server: RunningNode; demo: DemoFile }> {
  const server = startNode([...CLI, "serve", "--port", "0", "--demo-file", demoFile], { env });
  try {
    const demo = await pollUntil<DemoFile>(
      "the demo file",
      async () => {
        try {
          return JSON.parse(await readFile(demoFile, "utf8")) as DemoFile;
        } catch {
          return undefined; // not written yet, or half written
        }
      },
      {
        timeoutMs: START_TIMEOUT_MS,
        abort: () =>
          server.child.exitCode !== null || server.child.signalCode !== null
            ? `serve exited (${server.child.exitCode ?? server.child.signalCode})\nstdout: ${server.stdout}\nstderr: ${server.stderr}`
            : undefined,
      },
    );
    return { server, demo };
  } catch (error) {
    await server.stop("SIGKILL").catch(() => {});
    throw error;
  }
}

/** Runs a CLI command and parses its JSON output; fails the test on a non-zero exit. */
async function cliJson(env: NodeJS.ProcessEnv, args: string[]): Promise<any> {
  const result = await runNode([...CLI, ...args], { env, timeoutMs: START_TIMEOUT_MS });
  assert.equal(result.code, 0, `"${args.join(" ")}" exited ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
  try {
    return JSON.parse(result.stdout);
  } catch {
    assert.fail(`"${args.join(" ")}" printed no JSON: ${result.stdout}`);
  }
}

/** The suite on one storage; PostgreSQL's is skipped, saying why, without `DATABASE_URL`. */
export function describeCliSuite(mode: "embedded" | "postgres"): void {
  const skip =
    mode === "postgres" && !process.env.DATABASE_URL
      ? "DATABASE_URL not set; PostgreSQL cases skipped"
      : mode === "embedded" && process.env.DATABASE_URL
        ? // Its processes never see DATABASE_URL (childEnv): here it would repeat the embedded pass's run exactly.
          "DATABASE_URL set: the embedded CLI cases run in the passes without it (this pass runs cli_serve_postgres)"
        : false;
  describe(`threadline CLI on ${mode}`, { skip, timeout: 600_000 }, () => {
    let scratch: string;
    let database: TestDatabase | undefined;
    let env: NodeJS.ProcessEnv;
    const running: RunningNode[] = [];

    before(async () => {
      scratch = await mkdtemp(join(tmpdir(), `tl-cli-${mode}-`));
      if (mode === "postgres") {
        database = await createTestDatabase("postgres");
        env = childEnv({
          DATABASE_URL: database.url,
          REDIS_URL: process.env.REDIS_URL,
          REDIS_PREFIX: process.env.REDIS_URL ? testRedisPrefix() : undefined,
          DATA_DIR: join(scratch, "unused-data"),
          PORT: undefined,
          PUBLIC_URL: undefined,
          METRICS_TOKEN,
        });
      } else {
        // No DATABASE_URL / REDIS_URL: embedded PGlite under DATA_DIR, in-memory counters.
        env = childEnv({ DATA_DIR: join(scratch, "data"), PORT: undefined, PUBLIC_URL: undefined, METRICS_TOKEN });
      }
    });

    after(async () => {
      for (const server of running) await server.stop("SIGKILL").catch(() => {});
      await database?.drop();
      if (scratch) await rm(scratch, { recursive: true, force: true });
    });

    describe("serve --port 0 --demo-file", () => {
      let first: { server: RunningNode; demo: DemoFile };
      let second: { server: RunningNode; demo: DemoFile };
      const persistedTag = `persisted-${mode}`;

      test("writes the demo world once listening, with every promised key", { timeout: START_TIMEOUT_MS + 10_000 }, async () => {
        first = await startServe(env, join(scratch, "demo-1.json"));
        running.push(first.server);
        assertDemoShape(first.demo);
        const docs = await fetch(first.demo.base_url.replace(/\/v1$/, "/trpc/meta.docs"));
        assert.equal(docs.status, 200, "trpc_url's server answers meta.docs");
        assert.equal(first.demo.trpc_url, first.demo.base_url.replace(/\/v1$/, "/trpc"));
        // It holds working keys; the embedded data too are this OS user's alone.
        assert.equal((await stat(join(scratch, "demo-1.json"))).mode & 0o777, 0o600);
        if (mode === "embedded") assert.equal((await stat(join(scratch, "data"))).mode & 0o777, 0o700);
      });

      test("the served demo world has its engagement counted (repliers, reposters, each replier's replies_count)", { timeout: 60_000 }, async () => {
        await assertEngagementCounted(first.demo.base_url, first.demo.keys.write);
      });

      test("keys.write lists the two demo tags and can create one", async () => {
        const { demo } = first;
        const listed = await call(demo, "GET", "/tags", demo.keys.write);
        assert.equal(listed.status, 200, JSON.stringify(listed.body));
        const ids = listed.body.data.map((tag: { id: number }) => tag.id);
        assert.deepEqual([...ids].sort(), [...demo.tags].sort());
        const created = await call(demo, "POST", "/tags", demo.keys.write, { name: persistedTag });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        assert.equal(created.body.data.name, persistedTag);
      });

      test("keys.read reads; keys.revoked is 401 invalid_api_key", async () => {
        const { demo } = first;
        const read = await call(demo, "GET", "/tags", demo.keys.read);
        assert.equal(read.status, 200);
        const refused = await call(demo, "POST", "/tags", demo.keys.read, { name: "read-only-write" });
        assert.equal(refused.status, 403);
        assert.equal(refused.body.error.code, "insufficient_scope");
        const revoked = await call(demo, "GET", "/tags", demo.keys.revoked);
        assert.equal(revoked.status, 401);
        assert.equal(revoked.body.error.code, "invalid_api_key");
      });

      test("keys.lapsed is 403 with the legacy subscription_required string body", async () => {
        const lapsed = await call(first.demo, "GET", "/tags", first.demo.keys.lapsed);
        assert.equal(lapsed.status, 403);
        assert.equal(typeof lapsed.body.error, "string", JSON.stringify(lapsed.body));
        assert.match(lapsed.body.error, /^subscription_required:/);
      });

      test("keys.throttled is on a plan of 30 reads a minute", async () => {
        const me = await call(first.demo, "GET", "/me", first.demo.keys.throttled);
        assert.equal(me.status, 200, JSON.stringify(me.body));
        assert.equal(me.headers.get("x-ratelimit-limit"), "30");
        assert.equal(me.body.data.owner.main_account_id, first.demo.accounts.throttled);
      });

      test("keys.other_user cannot reach accounts.main: 404 account_not_found", async () => {
        const { demo } = first;
        const answer = await call(demo, "GET", `/tags?account_id=${demo.accounts.main}`, demo.keys.other_user);
        assert.equal(answer.status, 404);
        assert.equal(answer.body.error.code, "account_not_found");
      });

      test("the first start on an empty embedded database prints a working write key", {
        skip: mode !== "embedded" && "only embedded storage creates the demo world on first start",
      }, async () => {
        const { server, demo } = first;
        const key = await pollUntil("a printed sxk_ key", () => /\b(sxk_[A-Za-z0-9]+)/.exec(server.stdout)?.[1], { timeoutMs: 10_000 });
        const answer = await call(demo, "GET", "/tags", key);
        assert.equal(answer.status, 200, `the printed key ${key} does not work`);
      });

      test("SIGTERM stops the server with exit code 0", async () => {
        const exit = await first.server.stop("SIGTERM", 20_000);
        assert.deepEqual(exit, { code: 0, signal: null }, `stderr: ${first.server.stderr}`);
        await assert.rejects(fetch(`${first.demo.base_url}/docs`), "the port still answers after exit");
      });

      test("a restart keeps the data and issues fresh keys; the previous keys.write is rotated out", { timeout: START_TIMEOUT_MS + 10_000 }, async () => {
        assert.ok(first.server.child.exitCode !== null, "the first server must have exited");
        second = await startServe(env, join(scratch, "demo-2.json"));
        running.push(second.server);
        const { demo } = second;
        assertDemoShape(demo);
        assert.deepEqual(demo.accounts, first.demo.accounts);
        assert.deepEqual(demo.tags, first.demo.tags);
        assert.notEqual(demo.keys.write, first.demo.keys.write);

        const listed = await call(demo, "GET", "/tags", demo.keys.write);
        assert.equal(listed.status, 200);
        assert.ok(
          listed.body.data.some((tag: { name: string }) => tag.name === persistedTag),
          "the tag created in the first run is gone",
        );
        assert.equal((await call(demo, "GET", "/me", demo.keys.read)).status, 200);

        const old = await call(demo, "GET", "/tags", first.demo.keys.write);
        assert.equal(old.status, 401);
        assert.equal(old.body.error.code, "invalid_api_key");
      });

      test("operations through serve: a JSON request log with the client's X-Request-Id and no key, probes, metrics behind the token", async () => {
        const { demo, server } = second;
        const origin = demo.base_url.replace(/\/v1$/, "");
        const requestId = `ops-check-${mode}`;
        const tagged = await fetch(`${demo.base_url}/tags`, { headers: { authorization: `Bearer ${demo.keys.write}`, "x-request-id": requestId } });
        assert.equal(tagged.status, 200);
        assert.equal(tagged.headers.get("x-request-id"), requestId);
        const line = await pollUntil("the request's log line", () => server.stdout.split("\n").find((text) => text.includes(`"${requestId}"`)), {
          timeoutMs: 10_000,
        });
        const record = JSON.parse(line);
        assert.equal(record.route, "/v1/tags");
        assert.equal(record.status, 200);
        assert.equal(record.key_prefix, demo.keys.write.slice(0, record.key_prefix.length));
        const logLines = server.stdout.split("\n").filter((text) => text.startsWith("{"));
        for (const key of Object.values(demo.keys)) assert.ok(!logLines.some((text) => text.includes(key)), "a log line holds a key");
        assert.equal((await fetch(`${origin}/healthz`)).status, 200);
        const ready = await fetch(`${origin}/readyz`);
        assert.equal(ready.status, 200, await ready.clone().text());
        assert.equal((await fetch(`${origin}/metrics`)).status, 401);
        const metrics = await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
        assert.equal(metrics.status, 200);
        assert.match(await metrics.text(), /threadline_http_requests_total\{[^}]*route="\/v1\/tags"[^}]*\} [1-9]/);

        const exit = await second.server.stop("SIGTERM", 20_000);
        assert.equal(exit.code, 0, `stderr: ${second.server.stderr}`);
      });
    });

    describe("demo --json and keys", () => {
      let cliEnv: NodeJS.ProcessEnv;
      let demo: DemoFile;
      let userId: number;

      let cliDatabase: TestDatabase | undefined;

      before(async () => {
        // A database of its own, so these cases do not depend on the serve cases.
        if (mode === "postgres") {
          cliDatabase = await createTestDatabase("postgres", { migrated: true });
          cliEnv = { ...env, DATABASE_URL: cliDatabase.url };
        } else {
          // A migrated copy: the serve cases above start on a fresh directory, as a new operator's first start does.
          await migratedDataDir(join(scratch, "cli-data"));
          cliEnv = { ...env, DATA_DIR: join(scratch, "cli-data") };
        }
      });
      after(async () => {
        await cliDatabase?.drop();
      });

      test("demo --json prints the demo world and can run again", { timeout: 2 * START_TIMEOUT_MS }, async () => {
        const firstRun = (await cliJson(cliEnv, ["demo", "--json"])) as DemoFile;
        assertDemoShape(firstRun);
        const secondRun = (await cliJson(cliEnv, ["demo", "--json"])) as DemoFile;
        assertDemoShape(secondRun);
        assert.deepEqual(secondRun.accounts, firstRun.accounts);
        assert.deepEqual(secondRun.tags, firstRun.tags);
        assert.equal(secondRun.handles.main, firstRun.handles.main);
        demo = secondRun;
      });

      test("accounts list names each user with their main account", async () => {
        const users = (await cliJson(cliEnv, ["accounts", "list"])) as { user_id: number; main_account_id: string }[];
        assert.ok(Array.isArray(users));
        const main = users.find((user) => user.main_account_id === demo.accounts.main);
        assert.ok(main, `no user owns ${demo.accounts.main}: ${JSON.stringify(users)}`);
        assert.ok(Number.isInteger(main.user_id));
        userId = main.user_id;
        assert.ok(users.some((user) => user.main_account_id === demo.accounts.other_user));
      });

      test("keys create, list, rotate and revoke manage one key", { timeout: 6 * START_TIMEOUT_MS }, async () => {
        const created = await cliJson(cliEnv, ["keys", "create", "--user", String(userId), "--name", "x", "--scopes", "read"]);
        assert.match(created.key, /^sxk_[A-Za-z0-9]+$/);
        assert.equal(created.name, "x");
        assert.deepEqual(created.scopes, ["read"]);
        assert.equal(created.user_id, userId);

        const listed = (await cliJson(cliEnv, ["keys", "list", "--user", String(userId)])) as any[];
        const row = listed.find((key) => key.id === created.id);
        assert.ok(row, "the new key is not listed");
        assert.equal(row.name, "x");
        assert.ok(!JSON.stringify(listed).includes(created.key), "keys list must never show a full key");

        const rotated = await cliJson(cliEnv, ["keys", "rotate", "--key", String(created.id)]);
        assert.match(rotated.key, /^sxk_/);
        assert.notEqual(rotated.key, created.key);
        assert.notEqual(rotated.id, created.id);
        assert.equal(rotated.name, "x");
        assert.deepEqual(rotated.scopes, ["read"]);
        const afterRotate = (await cliJson(cliEnv, ["keys", "list", "--user", String(userId)])) as any[];
        assert.ok(afterRotate.some((key) => key.id === rotated.id));
        assert.ok(!afterRotate.some((key) => key.id === created.id), "the rotated-out key is still active");

        const revoked = await cliJson(cliEnv, ["keys", "revoke", "--key", String(rotated.id)]);
        assert.equal(revoked.revoked, true);
        const withRevoked = (await cliJson(cliEnv, ["keys", "list", "--user", String(userId), "--include-revoked"])) as any[];
        for (const id of [created.id, rotated.id]) {
          const entry = withRevoked.find((key) => key.id === id);
          assert.ok(entry?.revoked_at, `key ${id} is not listed as revoked`);
        }

        const again = await runNode([...CLI, "keys", "revoke", "--key", String(rotated.id)], { env: cliEnv, timeoutMs: START_TIMEOUT_MS });
        assert.notEqual(again.code, 0, "revoking a revoked key must fail");
        assert.match(again.stderr, /not_found|Cannot find/);
      });

      test("an 11th active key is refused with a non-zero exit naming the cap of 10", { timeout: 4 * START_TIMEOUT_MS }, async () => {
        const active = (await cliJson(cliEnv, ["keys", "list", "--user", String(userId)])) as unknown[];
        assert.ok(active.length < 10, `user already has ${active.length} active keys`);
        // The fillers through the admin API in this process (the CLI's own functions), one open
        // of the storage instead of a process each; the 11th goes through the CLI.
        const runtime = await openRuntime(appRouter as AnyRouter, configFromEnv(cliEnv));
        try {
          for (let n = active.length; n < 10; n++) {
            await adminApi(runtime.services).createKey({ userId, name: `filler ${n}`, scopes: ["read"] });
          }
        } finally {
          await runtime.close();
        }
        const eleventh: Finished = await runNode([...CLI, "keys", "create", "--user", String(userId), "--name", "eleventh"], {
          env: cliEnv,
          timeoutMs: START_TIMEOUT_MS,
        });
        assert.notEqual(eleventh.code, 0, `the 11th key was created: ${eleventh.stdout}`);
        assert.match(eleventh.stderr, /\b10\b/);
        assert.doesNotMatch(eleventh.stdout, /sxk_/);
        const after = (await cliJson(cliEnv, ["keys", "list", "--user", String(userId)])) as { name: string }[];
        assert.equal(after.length, 10);
        assert.ok(!after.some((key) => key.name === "eleventh"));
      });
    });
  });
}
