/**
 * The MCP tool server at `/v1/mcp` (docs/mcp.md), through the SDK's own client over
 * Streamable HTTP, both in process (`threadline.fetch`) and against the listening
 * server: a tool per documented operation, the same results, limits and errors as REST.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type Harness, randomIp, startHarness, transports } from "./support/harness.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { documentOperations } from "./support/response_schemas.ts";
import { WITHHELD_SECRET } from "../adapters/mcp/run_tool.ts";
import type { AnyRouter } from "@trpc/server";
import { appRouter } from "../routers/index.ts";
import { toolCatalogOf, toolSession } from "../adapters/mcp/tool_sessions.ts";

let harness: Harness;

before(async () => {
  harness = await startHarness();
});

after(async () => {
  await harness?.close();
});

type Surface = "in-process" | "http";

/** The operations MCP offers by default: every one but the webhook tools, which the operator turns on (MCP_WEBHOOK_TOOLS). */
const offeredOperations = () => documentOperations().filter((operation) => operation.operation.tags?.[0] !== "Webhooks");

/** An SDK client connected with `key` (and extra headers, a query on the URL). */
async function connect(surface: Surface, key: string, options: { headers?: Record<string, string>; query?: string } = {}): Promise<Client> {
  const base = surface === "http" ? harness.baseUrl : "http://in-process.test";
  const url = new URL(`${base}/v1/mcp${options.query ?? ""}`);
  const headers = { Authorization: `Bearer ${key}`, "X-Forwarded-For": randomIp(), ...options.headers };
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers },
    ...(surface === "in-process" ? { fetch: (input: string | URL, init?: RequestInit) => harness.threadline.fetch(new Request(input, init)) } : {}),
  });
  const client = new Client({ name: "threadline-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** The error envelope of a failed tool call. */
function errorOf(result: CallToolResult): { code: string; message: string; retry_after?: number } {
  assert.equal(result.isError, true, `expected an error, got ${JSON.stringify(result).slice(0, 300)}`);
  const text = (result.content[0] as { text: string }).text;
  return JSON.parse(text).error;
}

/** The REST status and headers a tool result carries in `_meta`. */
function responseOf(result: CallToolResult): { status: number; headers: Record<string, string> } {
  const response = result._meta?.["threadline/response"];
  assert.ok(response, "the result carries threadline/response");
  return response as { status: number; headers: Record<string, string> };
}

function statusOf(result: CallToolResult): number {
  return responseOf(result).status;
}

async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

describeMatrix(({ name: surface }) => {
  describe(`MCP over Streamable HTTP (${surface})`, () => {
    test("initialize names the server and lists a tool for every documented operation", async () => {
      const client = await connect(surface, harness.world.keys.write);
      try {
        assert.equal(client.getServerVersion()?.name, "threadline");
        assert.match(client.getInstructions() ?? "", /REST operation/);
        const { tools } = await client.listTools();
        assert.equal(tools.length, offeredOperations().length);
        assert.ok(!tools.some((tool) => tool.name.startsWith("webhooks_")), "the webhook tools wait for the operator");
        for (const tool of tools) {
          assert.match(tool.name, /^[a-z][a-z0-9_]{0,63}$/, tool.name);
          assert.equal(tool.inputSchema.type, "object");
          assert.match(tool.description ?? "", /REST: (GET|POST|PUT|PATCH|DELETE) \/v1\//);
        }
        const create = tools.find((tool) => tool.name === "scheduled_posts_create");
        assert.ok(create?.inputSchema.properties?.idempotency_key, "an idempotent operation takes idempotency_key");
        assert.equal(create?.annotations?.readOnlyHint, false);
        assert.equal(tools.find((tool) => tool.name === "tags_delete")?.annotations?.destructiveHint, true);
      } finally {
        await client.close();
      }
    });

    test("a read-only key lists only the read tools", async () => {
      const client = await connect(surface, harness.world.keys.read);
      try {
        const { tools } = await client.listTools();
        const reads = offeredOperations().filter((operation) => operation.method.toLowerCase() === "get").length;
        assert.equal(tools.length, reads);
        assert.ok(tools.every((tool) => tool.annotations?.readOnlyHint === true));
        assert.ok(!tools.some((tool) => tool.name === "scheduled_posts_create"));
      } finally {
        await client.close();
      }
    });

    test("a read tool answers what the same REST call answers", async () => {
      const client = await connect(surface, harness.world.keys.write);
      try {
        const result = await callTool(client, "identity_accounts");
        const [rest] = transports(harness);
        const answer = await rest.request("GET", "/v1/accounts", { key: harness.world.keys.write });
        assert.equal(result.isError, undefined);
        assert.deepEqual(result.structuredContent, answer.body);
        assert.deepEqual(JSON.parse((result.content[0] as { text: string }).text), answer.body);
        const meta = responseOf(result);
        assert.equal(meta.status, 200);
        assert.match(meta.headers["x-ratelimit-remaining"], /^\d+$/);
      } finally {
        await client.close();
      }
    });

    test("a write tool acts, and REST sees the change", async () => {
      const client = await connect(surface, harness.world.keys.write);
      try {
        const name = `mcp-${surface}-${Date.now()}`;
        const result = await callTool(client, "tags_create", { name });
        assert.equal(statusOf(result), 201);
        const tag = (result.structuredContent as { data: { id: unknown; name: string } }).data;
        assert.equal(tag.name, name);
        const [rest] = transports(harness);
        const list = await rest.request("GET", "/v1/tags", { key: harness.world.keys.write });
        assert.ok(list.body.data.some((row: { id: unknown }) => String(row.id) === String(tag.id)));
        // Path ids as a number or as text name the same tag (REST carries them as text).
        const byNumber = await callTool(client, "tags_update", { id: Number(tag.id), name: `${name}-a` });
        const byText = await callTool(client, "tags_update", { id: String(tag.id), name: `${name}-b` });
        assert.equal(statusOf(byNumber), 200);
        assert.equal((byText.structuredContent as { data: { name: string } }).data.name, `${name}-b`);
        const removed = await callTool(client, "tags_delete", { id: tag.id });
        assert.equal(removed.isError, undefined);
        assert.deepEqual((removed.structuredContent as { data: unknown }).data, { id: Number(tag.id), deleted: true });
      } finally {
        await client.close();
      }
    });

    test("an idempotent tool called twice with one key makes one object and replays the first answer", async () => {
      const client = await connect(surface, harness.world.keys.write);
      try {
        const text = `Idempotent over MCP (${surface}) ${Date.now()}`;
        const key = `mcp-${surface}-${Date.now()}`;
        const first = await callTool(client, "scheduled_posts_create", { text, idempotency_key: key });
        const second = await callTool(client, "scheduled_posts_create", { text, idempotency_key: key });
        assert.equal(statusOf(first), 201);
        assert.deepEqual(second.structuredContent, first.structuredContent);
        const { headers } = responseOf(second);
        assert.equal(headers["idempotency-replayed"], "true");
        const reused = await callTool(client, "scheduled_posts_create", { text: `${text} changed`, idempotency_key: key });
        assert.equal(errorOf(reused).code, "idempotency_key_reuse");
        assert.equal(statusOf(reused), 409);
        const [rest] = transports(harness);
        const list = await rest.request("GET", "/v1/scheduled-posts?status=draft&limit=100", { key: harness.world.keys.write });
        assert.equal(list.body.data.filter((post: { parts: { text: string }[] }) => post.parts[0]?.text === text).length, 1);
      } finally {
        await client.close();
      }
    });

    test("refusals are tool errors with the spec's code, never protocol errors", async () => {
      const reader = await connect(surface, harness.world.keys.read);
      const writer = await connect(surface, harness.world.keys.write);
      try {
        const scope = await callTool(reader, "scheduled_posts_create", { text: "read keys cannot write" });
        assert.equal(errorOf(scope).code, "insufficient_scope");
        assert.equal(statusOf(scope), 403);
        const invalid = await callTool(writer, "scheduled_posts_get", { id: "12a" });
        assert.equal(errorOf(invalid).code, "invalid_parameter");
        assert.equal(statusOf(invalid), 400);
        const missing = await callTool(writer, "scheduled_posts_get", { id: 999_999_999 });
        assert.equal(errorOf(missing).code, "not_found");
        const foreign = await callTool(writer, "tags_list", { account_id: harness.world.accounts.other_user });
        assert.equal(errorOf(foreign).code, "account_not_found");
        await assert.rejects(callTool(writer, "no_such_tool"), /Unknown tool "no_such_tool"/);
      } finally {
        await reader.close();
        await writer.close();
      }
    });

    test("AI tools charge credits like REST: an empty pool is ai_credits_exhausted", async () => {
      const client = await connect(surface, harness.world.keys.no_credits);
      try {
        const result = await callTool(client, "tools_rephrase", { type: "concise", text: "Shipping beats perfect. Every single time, no exceptions." });
        assert.equal(errorOf(result).code, "ai_credits_exhausted");
        assert.equal(statusOf(result), 429);
      } finally {
        await client.close();
      }
    });

    test("toolsets narrow the list, by query or header; an unknown one is 400 invalid_parameter", async () => {
      const byQuery = await connect(surface, harness.world.keys.write, { query: "?toolsets=tags" });
      const byHeader = await connect(surface, harness.world.keys.write, { headers: { "X-MCP-Toolsets": "tags, identity" } });
      try {
        const tags = (await byQuery.listTools()).tools.map((tool) => tool.name).sort();
        assert.deepEqual(tags, ["tags_create", "tags_delete", "tags_list", "tags_update"]);
        const both = (await byHeader.listTools()).tools.map((tool) => tool.name);
        assert.ok(both.includes("identity_me") && both.includes("identity_connect") && both.includes("tags_list") && both.length === 7, both.join());
      } finally {
        await byQuery.close();
        await byHeader.close();
      }
      await assert.rejects(connect(surface, harness.world.keys.write, { query: "?toolsets=tags,nope" }), /400|invalid_parameter|unknown toolset/);
    });
  });
});

describe("MCP over Streamable HTTP: the HTTP answers", () => {
  const initialize = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  };
  const post = (headers: Record<string, string>, body: string, query = "") =>
    fetch(`${harness.baseUrl}/v1/mcp${query}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "X-Forwarded-For": randomIp(), ...headers },
      body,
    });

  test("GET /v1/docs shows how to connect and lists every toolset with the tools the server lists", async () => {
    const client = await connect("http", harness.world.keys.write);
    const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
    await client.close();
    const document = await (await fetch(`${harness.baseUrl}/v1/docs?format=openapi`)).json();
    const { webhooks, ...offered } = document["x-mcp"].toolsets;
    assert.ok(webhooks.length > 0, "the document names the webhook tools an operator can turn on");
    const documented = Object.values<string[]>(offered).flat().sort();
    assert.deepEqual(documented, names);
    const markdown = await (await fetch(`${harness.baseUrl}/v1/docs?format=markdown`)).text();
    assert.match(markdown, /## MCP tools/);
    assert.match(markdown, /claude mcp add --transport http threadline http:\/\/127\.0\.0\.1:\d+\/v1\/mcp/);
    assert.match(markdown, /~\/\.cursor\/mcp\.json/);
    for (const toolset of Object.keys(document["x-mcp"].toolsets)) assert.match(markdown, new RegExp(`- \`${toolset}\`: `));
    const html = await (await fetch(`${harness.baseUrl}/v1/docs?format=html`)).text();
    assert.match(html, /<h2>MCP tools<\/h2>/);
  });

  test("no key is 401 unauthorized and a wrong key 401 invalid_api_key, as on REST", async () => {
    const none = await post({}, JSON.stringify(initialize));
    assert.equal(none.status, 401);
    assert.equal((await none.json()).error.code, "unauthorized");
    const wrong = await post({ Authorization: "Bearer sxk_notakey" }, JSON.stringify(initialize));
    assert.equal(wrong.status, 401);
    assert.equal((await wrong.json()).error.code, "invalid_api_key");
  });

  test("initialize answers JSON without a session id (stateless)", async () => {
    const answer = await post({ Authorization: `Bearer ${harness.world.keys.write}` }, JSON.stringify(initialize));
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get("mcp-session-id"), null);
    const body = await answer.json();
    assert.equal(body.result.serverInfo.name, "threadline");
    assert.ok(body.result.capabilities.tools);
  });

  test("GET and DELETE are 405 with Allow: POST", async () => {
    for (const method of ["GET", "DELETE"]) {
      const answer = await fetch(`${harness.baseUrl}/v1/mcp`, {
        method,
        headers: { Authorization: `Bearer ${harness.world.keys.write}`, "X-Forwarded-For": randomIp() },
      });
      assert.equal(answer.status, 405, method);
      assert.equal(answer.headers.get("allow"), "POST");
      assert.equal((await answer.json()).error.code, "method_not_allowed");
    }
  });

  test("a body that is not JSON is a JSON-RPC parse error; one over 1 MiB is 413 payload_too_large", async () => {
    const auth = { Authorization: `Bearer ${harness.world.keys.write}` };
    const malformed = await post(auth, "{not json");
    assert.equal(malformed.status, 400);
    assert.equal((await malformed.json()).error.code, -32700);
    const huge = await post(auth, JSON.stringify({ ...initialize, padding: "x".repeat(1024 * 1024) }));
    assert.equal(huge.status, 413);
    assert.equal((await huge.json()).error.code, "payload_too_large");
  });

  test("tools/list and tools/call answer alike on the direct path and through the SDK", async () => {
    const auth = { Authorization: `Bearer ${harness.world.keys.read}` };
    const list = { jsonrpc: "2.0", id: 7, method: "tools/list" };
    const direct = await (await post(auth, JSON.stringify(list))).json();
    // A batch of one is not taken by the direct path: the SDK's server answers it (this
    // SDK answers a batch of one with the single response).
    const single = (body: unknown) => (Array.isArray(body) ? body[0] : body);
    const viaSdk = single(await (await post(auth, JSON.stringify([list]))).json());
    assert.deepEqual(viaSdk, direct);
    const call = { jsonrpc: "2.0", id: "c", method: "tools/call", params: { name: "tags_list", arguments: { limit: 2 } } };
    const directCall = await (await post(auth, JSON.stringify(call))).json();
    const sdkCall = single(await (await post(auth, JSON.stringify([call]))).json());
    assert.equal(directCall.id, "c");
    assert.deepEqual(sdkCall.result.structuredContent, directCall.result.structuredContent);
  });

  test("a tools/call's HTTP answer carries the call's rate-limit headers, on the direct path and through the SDK", async () => {
    // A user of its own, so no other case spends the same write bucket meanwhile.
    const suffix = Math.random().toString(36).slice(2, 8);
    const { userId } = await harness.threadline.admin.createUser({
      name: "MCP headers",
      plan: "basic",
      account: { username: `mcp_headers_${suffix}`, name: "MCP headers" },
    });
    const { key } = await harness.threadline.admin.createKey({ userId, name: "mcp", scopes: ["read", "write"] });
    const auth = { Authorization: `Bearer ${key}` };
    const create = (id: number) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "tags_create", arguments: { name: `mcp-h-${suffix}-${id}` } },
    });
    const direct = await post(auth, JSON.stringify(create(1)));
    const viaSdk = await post(auth, JSON.stringify([create(2)]));
    const writesLeft: number[] = [];
    for (const answer of [direct, viaSdk]) {
      assert.equal(answer.status, 200);
      const body = await answer.json();
      const result = (Array.isArray(body) ? body[0] : body).result as CallToolResult;
      assert.equal(statusOf(result), 201);
      // The HTTP answer repeats the call's own headers (the write bucket: basic allows 10 writes a minute).
      assert.equal(answer.headers.get("x-ratelimit-remaining"), responseOf(result).headers["x-ratelimit-remaining"]);
      assert.equal(answer.headers.get("x-ratelimit-limit"), "10");
      writesLeft.push(Number(answer.headers.get("x-ratelimit-remaining")));
    }
    assert.ok(writesLeft[1] < writesLeft[0] || writesLeft[1] === 9, `writes left went ${writesLeft.join(",")} (a new minute resets to 9)`);
  });

  test("requests the SDK refuses are refused the same way before any tool runs", async () => {
    const auth = { Authorization: `Bearer ${harness.world.keys.write}` };
    const call = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "tags_list", arguments: {} } });
    const notAcceptable = await post({ ...auth, Accept: "application/json" }, call);
    assert.equal(notAcceptable.status, 406);
    const badVersion = await post({ ...auth, "MCP-Protocol-Version": "1999-01-01" }, call);
    assert.equal(badVersion.status, 400);
    const noName = await post(auth, JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { arguments: {} } }));
    const body = await noName.json();
    // The SDK's own answer to params its schema refuses (a JSON-RPC error, no tool run).
    assert.ok(body.error && body.error.code < 0 && !body.result, JSON.stringify(body));
    assert.match(body.error.message, /name|invalid/i);
    const unknown = await post(auth, JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "nope" } }));
    assert.match((await unknown.json()).error.message, /Unknown tool "nope"/);
  });

  test("every message spends a read like a REST call: tools/list answers with the rate-limit headers, then 429 rate_limited", async () => {
    // A user of its own on the plan of 30 reads a minute, so the other cases' keys keep their budgets.
    const suffix = Math.random().toString(36).slice(2, 8);
    const { userId } = await harness.threadline.admin.createUser({
      name: "MCP budget",
      plan: "basic",
      account: { username: `mcp_budget_${suffix}`, name: "MCP budget" },
    });
    const { key } = await harness.threadline.admin.createKey({ userId, name: "mcp", scopes: ["read"] });
    const auth = { Authorization: `Bearer ${key}` };
    const list = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    let refused: Response | undefined;
    const remaining: number[] = [];
    // A minute boundary may reset the window once.
    for (let i = 0; i < 65 && !refused; i++) {
      const answer = await post(auth, list);
      if (answer.status === 429) refused = answer;
      else {
        assert.equal(answer.status, 200);
        remaining.push(Number(answer.headers.get("x-ratelimit-remaining")));
        await answer.body?.cancel();
      }
    }
    assert.ok(refused, "tools/list was never refused");
    assert.ok(remaining.every(Number.isInteger) && remaining.length > 0, "each answer carries X-RateLimit-Remaining");
    assert.ok(remaining.at(-1)! < remaining[0] || remaining.length === 1, `remaining went ${remaining.join(",")}`);
    const body = await refused.json();
    assert.equal(body.error.code, "rate_limited");
    assert.ok(Number(refused.headers.get("retry-after")) >= 1);
  });

  test("tools/list answers are kept for a bounded number of toolset choices, and each still lists its own", () => {
    const catalog = toolCatalogOf(appRouter as AnyRouter, harness.services);
    const call = async () => ({ content: [] });
    const pairs = catalog.toolsets.flatMap((a, i) => catalog.toolsets.slice(i + 1).map((b) => [a, b]));
    assert.ok(pairs.length > 40, "enough combinations to pass the bound");
    for (const pair of pairs) {
      const session = toolSession(catalog, { canWrite: true, toolsets: new Set(pair) }, call);
      const names = JSON.parse(session.listedJson).tools.map((tool: { name: string }) => tool.name);
      assert.deepEqual(
        names,
        session.listed.map((tool) => tool.name),
      );
      assert.ok(session.listed.every((tool) => pair.includes(tool.toolset)));
    }
    assert.ok(catalog.lists.size <= 32, `${catalog.lists.size} lists kept`);
  });

  test("a batch of several messages is refused with JSON-RPC's invalid-request code before any runs", async () => {
    const auth = { Authorization: `Bearer ${harness.world.keys.write}` };
    const name = `mcp-batch-${Date.now()}`;
    const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "tags_create", arguments: { name: `${name}-${id}` } } });
    const answer = await post(auth, JSON.stringify([call(1), call(2), { jsonrpc: "2.0", id: 3, method: "tools/list" }]));
    assert.equal(answer.status, 400);
    const body = await answer.json();
    assert.equal(body.error.code, -32600);
    assert.match(body.error.message, /one message/);
    const tags = await fetch(`${harness.baseUrl}/v1/tags?limit=100`, { headers: { ...auth, "X-Forwarded-For": randomIp() } });
    assert.ok(!JSON.stringify(await tags.json()).includes(name), "no call of the batch ran");
  });

  test("an unknown toolset is 400 invalid_parameter naming the toolsets", async () => {
    const answer = await post({ Authorization: `Bearer ${harness.world.keys.write}` }, JSON.stringify(initialize), "?toolsets=nope");
    assert.equal(answer.status, 400);
    const body = await answer.json();
    assert.equal(body.error.code, "invalid_parameter");
    assert.match(body.error.message, /scheduling/);
  });

  test("tool calls spend the request buckets: past the plan's reads a tool answers rate_limited with retry_after", async () => {
    const client = await connect("http", harness.world.keys.throttled);
    try {
      let refusal: CallToolResult | undefined;
      // 30 reads a minute on the throttled plan; a minute boundary may reset the window once.
      for (let i = 0; i < 65 && !refusal; i++) {
        const result = await callTool(client, "identity_me");
        if (result.isError) refusal = result;
      }
      assert.ok(refusal, "the throttled key was never refused");
      const error = errorOf(refusal);
      assert.equal(error.code, "rate_limited");
      assert.equal(statusOf(refusal), 429);
      assert.ok(Number.isInteger(error.retry_after) && (error.retry_after ?? 0) >= 1, JSON.stringify(error));
      // Every message spends a read, listing tools included: refused while the key is limited.
      await assert.rejects(client.listTools(), /rate_limited/);
    } finally {
      await client.close();
    }
  });
});

describe("MCP: the webhook tools are the operator's to offer", () => {
  let enabled: Harness;
  before(async () => {
    enabled = await startHarness({ config: { mcpWebhookTools: true, outboundAllowHosts: "127.0.0.1" } });
  });
  after(() => enabled?.close());

  test("off by default: not listed, not callable by name, and asking for the toolset is 400 invalid_parameter", async () => {
    const client = await connect("http", harness.world.keys.write);
    try {
      await assert.rejects(() => client.callTool({ name: "webhooks_list", arguments: {} }), /Unknown tool/);
    } finally {
      await client.close();
    }
    const asked = await fetch(`${harness.baseUrl}/v1/mcp?toolsets=webhooks`, {
      method: "POST",
      headers: { Authorization: `Bearer ${harness.world.keys.write}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    assert.equal(asked.status, 400);
    const body = await asked.json();
    assert.equal(body.error.code, "invalid_parameter");
    assert.match(body.error.message, /MCP_WEBHOOK_TOOLS/);
  });

  test("turned on, the tools work and a secret never reaches the agent: it reads the secret over REST", async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${enabled.baseUrl}/v1/mcp?toolsets=webhooks`), {
      requestInit: { headers: { Authorization: `Bearer ${enabled.world.keys.write}`, "X-Forwarded-For": randomIp() } },
    });
    const client = new Client({ name: "threadline-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((tool) => tool.name === "webhooks_create"));
      const created = (await client.callTool({ name: "webhooks_create", arguments: { url: "http://127.0.0.1:9/threadline" } })) as CallToolResult;
      assert.equal(created.isError, undefined, JSON.stringify(created).slice(0, 300));
      const data = (created.structuredContent as any).data;
      assert.equal(data.secret, WITHHELD_SECRET);
      assert.ok(!JSON.stringify(created).includes("whsec_"), "no secret anywhere in the result");
      const rotated = (await client.callTool({ name: "webhooks_rotate_secret", arguments: { id: data.id } })) as CallToolResult;
      assert.ok(!JSON.stringify(rotated).includes("whsec_"), "nor in a rotation's");
    } finally {
      await client.close();
    }
  });
});
