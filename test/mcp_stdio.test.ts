/**
 * `threadline mcp` over stdio (docs/mcp.md), through the SDK's stdio client:
 * against the configured storage (PostgreSQL when DATABASE_URL is set, else an embedded
 * data directory the `demo` command filled), and relaying to a remote server's `/v1/mcp`.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { migratedDataDir } from "./support/embedded_template.ts";
import { type Harness, startHarness } from "./support/harness.ts";
import { documentOperations } from "./support/response_schemas.ts";
import { childEnv, PROJECT_ROOT, runNode } from "./support/child_node.ts";

const CLI = ["--import", "tsx", "adapters/cli/main.ts"];

let harness: Harness;
let scratch: string;
/** The environment of a local `threadline mcp` (its storage) and a write key there. */
let local: { env: NodeJS.ProcessEnv; writeKey: string; readKey: string };

before(async () => {
  harness = await startHarness();
  scratch = await mkdtemp(join(tmpdir(), "threadline-mcp-stdio-"));
  if (harness.database.url) {
    // The harness's own database, demo world included.
    local = {
      env: childEnv({ DATABASE_URL: harness.database.url, REDIS_URL: process.env.REDIS_URL, REDIS_PREFIX: harness.config.redisPrefix }),
      writeKey: harness.world.keys.write,
      readKey: harness.world.keys.read,
    };
  } else {
    const env = childEnv({ DATA_DIR: join(scratch, "data") });
    await migratedDataDir(join(scratch, "data"));
    const demo = await runNode([...CLI, "demo", "--json"], { env, timeoutMs: 120_000 });
    assert.equal(demo.code, 0, demo.stderr);
    const world = JSON.parse(demo.stdout);
    local = { env, writeKey: world.keys.write, readKey: world.keys.read };
  }
});

after(async () => {
  await harness?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

async function stdioClient(args: string[], env: NodeJS.ProcessEnv): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...CLI, "mcp", ...args],
    env: env as Record<string, string>,
    cwd: PROJECT_ROOT,
    stderr: "pipe",
  });
  const client = new Client({ name: "threadline-stdio-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

describe("threadline mcp (stdio)", { timeout: 180_000 }, () => {
  test("on the configured storage: every tool, a read and a write with the same answers as REST", async () => {
    const client = await stdioClient([], { ...local.env, THREADLINE_API_KEY: local.writeKey });
    try {
      const { tools } = await client.listTools();
      assert.equal(
        tools.length,
        documentOperations().filter((operation) => operation.operation.tags?.[0] !== "Webhooks").length,
        "every tool but the webhook ones (MCP_WEBHOOK_TOOLS)",
      );
      const me = (await client.callTool({ name: "identity_me", arguments: {} })) as CallToolResult;
      assert.equal(me.isError, undefined);
      assert.match((me.structuredContent as { data: { owner: { main_account_id: string } } }).data.owner.main_account_id, /^\d+$/);
      const name = `stdio-${Date.now()}`;
      const created = (await client.callTool({ name: "tags_create", arguments: { name } })) as CallToolResult;
      assert.equal((created.structuredContent as { data: { name: string } }).data.name, name);
      const listed = (await client.callTool({ name: "tags_list", arguments: {} })) as CallToolResult;
      assert.ok((listed.structuredContent as { data: { name: string }[] }).data.some((tag) => tag.name === name));
    } finally {
      await client.close();
    }
  });

  test("on the configured storage: a read-only key gets the read tools, and writes are refused", async () => {
    const client = await stdioClient(["--toolsets", "tags"], { ...local.env, THREADLINE_API_KEY: local.readKey });
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      assert.deepEqual(names, ["tags_list"]);
      const refused = (await client.callTool({ name: "tags_create", arguments: { name: "nope" } })) as CallToolResult;
      assert.equal(refused.isError, true);
      assert.equal(JSON.parse((refused.content[0] as { text: string }).text).error.code, "insufficient_scope");
    } finally {
      await client.close();
    }
  });

  test("a wrong key or none ends the command with the reason", async () => {
    const wrong = await runNode([...CLI, "mcp"], { env: { ...local.env, THREADLINE_API_KEY: "sxk_wrong" }, timeoutMs: 120_000 });
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /invalid_api_key/);
    const none = await runNode([...CLI, "mcp"], { env: childEnv({ THREADLINE_API_KEY: undefined }), timeoutMs: 60_000 });
    assert.equal(none.code, 1);
    assert.match(none.stderr, /THREADLINE_API_KEY/);
  });

  test("--base-url relays to a remote server's /v1/mcp", async () => {
    const env = childEnv({ THREADLINE_API_KEY: harness.world.keys.write });
    const client = await stdioClient(["--base-url", `${harness.baseUrl}/v1`], env);
    try {
      const { tools } = await client.listTools();
      assert.equal(
        tools.length,
        documentOperations().filter((operation) => operation.operation.tags?.[0] !== "Webhooks").length,
        "every tool but the webhook ones (MCP_WEBHOOK_TOOLS)",
      );
      const accounts = (await client.callTool({ name: "identity_accounts", arguments: {} })) as CallToolResult;
      const ids = (accounts.structuredContent as { data: { id: string }[] }).data.map((account) => account.id);
      assert.ok(ids.includes(harness.world.accounts.main));
      const missing = (await client.callTool({ name: "scheduled_posts_get", arguments: { id: 999_999_999 } })) as CallToolResult;
      assert.equal(JSON.parse((missing.content[0] as { text: string }).text).error.code, "not_found");
    } finally {
      await client.close();
    }
  });
});
