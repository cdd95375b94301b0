/**
 * An MCP server over a tool catalog, built on the SDK's low-level `Server`: the tools
 * are data generated from the router (tool_catalog.ts), not handlers registered one by
 * one. One instance answers one HTTP request (stateless Streamable HTTP) or one stdio
 * connection.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, type CallToolResult, ErrorCode, ListToolsRequestSchema, McpError, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv-provider.js";
import type { CatalogTool } from "./tool_catalog.ts";

/** What one server offers and how it runs a call. */
export interface ToolSession {
  /** The tools `tools/list` shows (by key scope and toolsets). */
  listed: readonly CatalogTool[];
  /** The `tools/list` result of `listed`, serialized (built once per server and kind of key). */
  listedJson: string;
  /** Every tool by name: a call may name one the list left out, and gets the API's answer (`insufficient_scope`). */
  byName: ReadonlyMap<string, CatalogTool>;
  call(tool: CatalogTool, args: Record<string, unknown> | undefined): Promise<CallToolResult>;
}

const INSTRUCTIONS = [
  "Threadline: schedule posts, threads and articles for X, and work with the account's content, audience and AI tools.",
  "Every tool is one REST operation of the API (its description names it) and takes the same fields; results are the REST JSON body.",
  "Tools that take account_id act on the key's main account when it is omitted; list accounts with identity_accounts.",
  "Timestamps are ISO-8601 with Z or an offset. A failed call returns isError with {error:{code,message}}; rate_limited carries retry_after (seconds).",
].join(" ");

/** The server's name and version in `initialize`. */
export const SERVER_INFO = { name: "threadline", version: "0.1.0" };

/**
 * One validator for every server: the SDK builds a new Ajv instance per server otherwise,
 * which the benchmark measured at about 300 µs of every stateless request (it is used
 * only for elicitation, which these servers never send).
 */
const sharedValidator = new AjvJsonSchemaValidator();

/** A server for `session`. */
export function createMcpServer(session: ToolSession): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: sharedValidator,
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => listTools(session));
  server.setRequestHandler(CallToolRequestSchema, (request) => callTool(session, request.params));
  return server;
}

/** The `tools/list` result. */
export function listTools(session: ToolSession): { tools: Tool[] } {
  return { tools: session.listed.map(toolDefinition) };
}

/** The `tools/call` result; an unknown tool is the protocol's invalid-params error. */
export function callTool(session: ToolSession, params: { name: string; arguments?: Record<string, unknown> }): Promise<CallToolResult> {
  const tool = session.byName.get(params.name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${params.name.slice(0, 100)}"`);
  return session.call(tool, params.arguments);
}

/** The `tools/list` entry of a catalog tool. */
export function toolDefinition(tool: CatalogTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool["inputSchema"],
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Tool["outputSchema"] } : {}),
    annotations: tool.annotations,
  };
}
