/**
 * How the OpenAPI document names its operations as MCP tools (docs/mcp.md): each operation
 * carries `x-mcp-tool` (its procedure path in snake_case, or the procedure's `toolName`)
 * and belongs to the toolset of its tag. The tool server reads these names from the
 * document; the references list them, so the three never disagree.
 */

/** The path of the MCP tool server (supplement 1.1: `{base}/mcp`). */
export const MCP_PATH = "/v1/mcp";

/** The OpenAPI extension that names an operation's tool. */
export const MCP_TOOL_EXTENSION = "x-mcp-tool";

/** `scheduledPosts.bulk.autoRetweet` -> `scheduled_posts_bulk_auto_retweet` (stable: the procedure path is). */
export function toolNameOf(procedurePath: string): string {
  return procedurePath
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .toLowerCase();
}

/** The toolset of a tag: `X Lookups` -> `x_lookups`. */
export function toolsetOf(tag: string): string {
  return tag
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_|_$/g, "");
}

/** How to connect the usual clients, for the references and docs/mcp.md. */
export function mcpConnectionGuide(serverUrl: string): string[] {
  const url = `${serverUrl.replace(/\/+$/, "")}${MCP_PATH}`;
  return [
    `The same operations are MCP tools at \`${url}\` (Streamable HTTP, stateless; the same Bearer key, scopes, limits, credits and \`Idempotency-Key\` as REST, the key as an \`idempotency_key\` argument). A read-only key lists only the read tools. Each tool's result is the REST JSON body (\`structuredContent\`, and as JSON text); a refusal is \`isError\` with the same \`{"error":{"code","message"}}\`, and \`_meta["threadline/response"]\` carries the REST status and rate-limit headers. Each tool call spends what the REST call spends; every other message (initialize, tools/list, ping, a notification) spends one read, and a JSON-RPC batch may hold one message.`,
    "",
    `- Claude Code: \`claude mcp add --transport http threadline ${url} --header "Authorization: Bearer $THREADLINE_API_KEY"\``,
    `- Claude Desktop (\`claude_desktop_config.json\`), through the stdio command: \`{"mcpServers":{"threadline":{"command":"npx","args":["threadline","mcp","--base-url","${serverUrl.replace(/\/+$/, "")}/v1"],"env":{"THREADLINE_API_KEY":"sxk_..."}}}}\``,
    `- Cursor (\`~/.cursor/mcp.json\`): \`{"mcpServers":{"threadline":{"url":"${url}","headers":{"Authorization":"Bearer sxk_..."}}}}\``,
    "- A local agent without a server: `THREADLINE_API_KEY=sxk_... npx threadline mcp` serves the tools over stdio on the configured storage.",
    `- Fewer tools: \`${url}?toolsets=scheduling,articles\` or the \`X-MCP-Toolsets\` header (\`--toolsets\` on \`threadline mcp\`); an unknown toolset is \`400 invalid_parameter\`.`,
    "- The `webhooks` tools are offered only when the operator sets `MCP_WEBHOOK_TOOLS=true` (an agent reading network content could be told to send data out); no tool result carries a secret.",
  ];
}
