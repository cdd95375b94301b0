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

/** The answer to `message` when it is a well-formed `tools/list` or `tools/call`, else undefined (the SDK answers). */
export async function answerDirectly(message: unknown, headers: Headers, session: ToolSession): Promise<Response | undefined> {
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
    const call = CallToolRequestSchema.safeParse(message);
    if (!call.success || !session.byName.has(call.data.params.name)) return undefined;
    result = JSON.stringify(await callTool(session, call.data.params));
  } else {
    return undefined;
  }
  return new Response(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}`, { status: 200, headers: { "Content-Type": "application/json" } });
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
