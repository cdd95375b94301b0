/**
 * The tool server over stdio for local agents (docs/mcp.md): the same tools,
 * either run in this process against the configured storage, or relayed to a remote
 * Threadline's `/v1/mcp` (`--base-url`), with the key from `THREADLINE_API_KEY`.
 */
import type { AnyRouter } from "@trpc/server";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, CallToolResultSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { authenticate } from "../../core/auth/authenticate.ts";
import { createContextInner, type Services } from "../../core/context.ts";
import { createMcpServer, SERVER_INFO } from "./mcp_server.ts";
import { runTool } from "./run_tool.ts";
import { closedToolsets, parseToolsets, toolCatalogOf, toolSession } from "./tool_sessions.ts";

/** Where the stdio server's tools run. */
export type StdioTarget = { kind: "local"; router: AnyRouter; services: Services } | { kind: "remote"; baseUrl: string };

/** Serves the tools on stdin/stdout until the client closes them; resolves when it does. */
export async function serveStdio(target: StdioTarget, options: { apiKey: string; toolsets?: string }): Promise<void> {
  const server = target.kind === "local" ? await localServer(target, options) : await remoteServer(target.baseUrl, options);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  // The SDK's stdio transport does not notice the end of stdin by itself.
  process.stdin.once("end", () => void server.close());
  await closed;
}

async function localServer(target: { router: AnyRouter; services: Services }, options: { apiKey: string; toolsets?: string }): Promise<Server> {
  const headers = new Headers({ Authorization: `Bearer ${options.apiKey}` });
  // The key is checked once up front (a wrong key ends the command with the API's 401 message).
  const principal = await authenticate(createContextInner({ services: target.services, headers, ip: "stdio" }));
  const catalog = toolCatalogOf(target.router, target.services);
  const closed = closedToolsets(target.services.settings);
  const toolsets = parseToolsets(options.toolsets, catalog, closed);
  const session = toolSession(catalog, { canWrite: principal.key.scopes.includes("write"), toolsets, closed }, (tool, args) =>
    runTool(tool, args, { router: target.router, services: target.services, headers, ip: "stdio" }),
  );
  return createMcpServer(session);
}

/** A stdio server relaying `tools/list` and `tools/call` to a remote tool server, unchanged. */
async function remoteServer(baseUrl: string, options: { apiKey: string; toolsets?: string }): Promise<Server> {
  const endpoint = new URL(`${baseUrl.replace(/\/+$/, "")}/mcp`);
  const headers: Record<string, string> = { Authorization: `Bearer ${options.apiKey}` };
  if (options.toolsets) headers["X-MCP-Toolsets"] = options.toolsets;
  const client = new Client({ name: "threadline-stdio", version: SERVER_INFO.version });
  await client.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers } }));
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: client.getInstructions() });
  server.setRequestHandler(ListToolsRequestSchema, (request) => client.listTools(request.params));
  server.setRequestHandler(CallToolRequestSchema, (request) => client.request({ method: "tools/call", params: request.params }, CallToolResultSchema));
  server.onclose = () => void client.close();
  return server;
}
