/**
 * `tools/list` and `tools/call`, the two requests an agent sends all day, answered
 * without building an SDK server and transport per request: the stateless pattern
 * costs about 300 µs of CPU per request in the SDK (an AbortController, a closing
 * error and zod parses of every message), which put a tool call at 1.55x the same
 * REST call against the 1.3x target (docs/mcp.md, measured by `npm run bench`). Only a
 * request the SDK would accept as it is takes this path: the same headers checked,
 * the message validated with the SDK's own schemas, the same handlers answering
 * (mcp_server.ts). Everything else (initialize, ping, notifications, batches, anything
 * malformed) goes to the SDK, which answers it, errors included.
 */
import { CallToolRequestSchema, ListToolsRequestSchema, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { callTool, type ToolSession } from "./mcp_server.ts";
import { toolResultJson } from "./run_tool.ts";
import { jsonTextResponse } from "../http/responses.ts";

/**
 * The answer to `message` when it is a well-formed `tools/list` or `tools/call`, else undefined
 * (the SDK answers). `answerHeaders` (the request id, the route's own rate-limit headers) go
 * out with it as they are: the answer is built once, never copied to add them.
 */
export async function answerDirectly(message: unknown, headers: Headers, session: ToolSession, answerHeaders: Headers): Promise<Response | undefined> {
  if (!acceptedHeaders(headers)) return undefined;
  // The JSON-RPC envelope by hand (JSONRPCRequestSchema's rules); the method's params with the SDK's schema below.
  if (message === null || typeof message !== "object" || Array.isArray(message)) return undefined;
  const { jsonrpc, id, method } = message as { jsonrpc?: unknown; id?: unknown; method?: unknown };
  if (jsonrpc !== "2.0" || !(typeof id === "string" || Number.isSafeInteger(id))) return undefined;
  let result: string;
  if (method === "tools/list") {
    if (!ListToolsRequestSchema.safeParse(message).success) return undefined;
    // Serialized once per server and kind of key (tool_sessions.ts).
    result = session.listedJson;
  } else if (method === "tools/call") {
    const params = plainCallParams(message) ?? sdkCallParams(message);
    if (!params || !session.byName.has(params.name)) return undefined;
    result = toolResultJson(await callTool(session, params));
  } else {
    return undefined;
  }
  answerHeaders.set("Content-Type", "application/json");
  return jsonTextResponse(200, `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}`, answerHeaders);
}

/**
 * The params of a call in its everyday form, `{ name, arguments? }` with a string name and an
 * object of arguments, which the SDK's CallToolRequestSchema accepts as it is: checked by hand,
 * as the schema's parse cost a tenth of a tool call's CPU. Any other form is left to the schema.
 */
function plainCallParams(message: object): { name: string; arguments?: Record<string, unknown> } | undefined {
  const { params } = message as { params?: unknown };
  if (params === null || typeof params !== "object" || Object.getPrototypeOf(params) !== Object.prototype) return undefined;
  const { name, arguments: args, ...others } = params as { name?: unknown; arguments?: unknown };
  if (typeof name !== "string" || Object.keys(others).length > 0) return undefined;
  if (args === undefined) return { name };
  if (args === null || typeof args !== "object" || Object.getPrototypeOf(args) !== Object.prototype) return undefined;
  return { name, arguments: args as Record<string, unknown> };
}

/** The params as the SDK's schema reads them, or undefined when it refuses the message (the SDK answers). */
function sdkCallParams(message: object): { name: string; arguments?: Record<string, unknown> } | undefined {
  const call = CallToolRequestSchema.safeParse(message);
  return call.success ? call.data.params : undefined;
}

/** The transport's own checks (webStandardStreamableHttp.js): Accept, Content-Type, MCP-Protocol-Version. */
function acceptedHeaders(headers: Headers): boolean {
  const accept = headers.get("accept") ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) return false;
  const type = (headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json") return false;
  const version = headers.get("mcp-protocol-version");
  return version === null || SUPPORTED_PROTOCOL_VERSIONS.includes(version);
}
