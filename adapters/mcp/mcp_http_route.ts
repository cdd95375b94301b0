/**
 * The MCP tool server at `/v1/mcp` (supplement 1.1: "Remote MCP server lives at
 * `{base}/mcp` ... with the same Bearer header"): Streamable HTTP, stateless, so any
 * process behind a load balancer answers any request. Each POST gets its own server
 * and transport, answering JSON (no session, no stream); GET and DELETE, which only a
 * stateful server uses, answer `405` as the SDK client expects. The key is checked
 * before the body is read, with the same `401` answers as REST; listing tools spends
 * nothing, and each tool call spends what the same REST call spends.
 */
import type { AnyRouter } from "@trpc/server";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { type H3, type H3Event, getRequestIP } from "h3";
import { authenticate } from "../../core/auth/authenticate.ts";
import { createContextInner, type Services } from "../../core/context.ts";
import { ApiError } from "../../core/errors.ts";
import { toApiFailure } from "../../core/api_failure.ts";
import { MCP_PATH } from "../../core/docs/mcp_tools.ts";
import { readBoundedText } from "../http/bounded_body.ts";
import { failureResponse } from "../http/responses.ts";
import { createMcpServer } from "./mcp_server.ts";
import { answerDirectly } from "./direct_requests.ts";
import { runTool } from "./run_tool.ts";
import { closedToolsets, parseToolsets, toolCatalogOf, toolSession } from "./tool_sessions.ts";

/** Mounts the tool server on `app` (before the `/v1` fallbacks). */
export function mountMcpRoute(app: H3, router: AnyRouter, services: Services, options: { trustProxy: boolean }): void {
  app.all(MCP_PATH, (event) => mcpResponse(event, router, services, options.trustProxy));
}

async function mcpResponse(event: H3Event, router: AnyRouter, services: Services, trustProxy: boolean): Promise<Response> {
  const ip = getRequestIP(event, { xForwardedFor: trustProxy }) ?? "unknown";
  const ctx = createContextInner({ services, headers: event.req.headers, ip });
  event.context.apiContext = ctx;
  try {
    const principal = await authenticate(ctx);
    ctx.report.principal = principal;
    if (event.req.method !== "POST") {
      const refusal = new ApiError(
        "method_not_allowed",
        `${event.req.method} is not allowed on ${MCP_PATH}: the tool server is stateless; POST JSON-RPC messages`,
      );
      return failureResponse(toApiFailure(refusal), new Headers({ Allow: "POST" }));
    }
    const catalog = toolCatalogOf(router, services);
    const closed = closedToolsets(services.settings);
    const toolsets = parseToolsets(event.url.searchParams.get("toolsets") ?? event.req.headers.get("x-mcp-toolsets"), catalog, closed);
    const message = parseMessage(await readBoundedText(event.req));
    if (message === undefined) return jsonRpcParseError();
    const canWrite = principal.key.scopes.includes("write");
    const session = toolSession(catalog, { canWrite, toolsets, closed }, (tool, args) =>
      runTool(tool, args, {
        router,
        services,
        headers: event.req.headers,
        ip,
        onUnexpected: (error) => {
          event.context.unexpected = error;
        },
      }),
    );
    const direct = await answerDirectly(message, event.req.headers, session);
    if (direct) return direct;
    const server = createMcpServer(session);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(event.req, { parsedBody: message });
    } finally {
      await server.close();
    }
  } catch (error) {
    return failureResponse(toApiFailure(error), ctx.responseHeaders);
  }
}

function parseMessage(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** JSON-RPC's answer to a body that is not JSON (the protocol's code, not the REST envelope). */
function jsonRpcParseError(): Response {
  return Response.json({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error: the body is not valid JSON" }, id: null }, { status: 400 });
}
