/**
 * The MCP tool server at `/v1/mcp` (supplement 1.1: "Remote MCP server lives at
 * `{base}/mcp` ... with the same Bearer header"): Streamable HTTP, stateless, so any
 * process behind a load balancer answers any request. Each POST gets its own server
 * and transport, answering JSON (no session, no stream); GET and DELETE, which only a
 * stateful server uses, answer `405` as the SDK client expects. The key is checked
 * before the body is read, with the same `401` answers as REST. Every message counts
 * against the key's request buckets like a REST call: a tool call spends what the same
 * REST call spends, any other message (initialize, tools/list, ping, a notification) one
 * read, answered `429 rate_limited` past the plan's reads. A JSON-RPC batch may hold one
 * message; a longer one is refused (`-32600`), so one request is one message's work.
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
import { answerHeaders } from "../http/observed_fetch.ts";
import { createMcpServer, type ToolSession } from "./mcp_server.ts";
import { chargeRequestBuckets } from "../../core/limits/request_buckets.ts";
import { answerDirectly } from "./direct_requests.ts";
import { runTool } from "./run_tool.ts";
import { closedToolsets, parseToolsets, toolCatalogOf, toolSession } from "./tool_sessions.ts";

/** Mounts the tool server on `app` (before the `/v1` fallbacks). */
export function mountMcpRoute(app: H3, router: AnyRouter, services: Services, options: { trustProxy: boolean }): void {
  app.all(MCP_PATH, (event) => mcpResponse(event, router, services, options.trustProxy));
}

async function mcpResponse(event: H3Event, router: AnyRouter, services: Services, trustProxy: boolean): Promise<Response> {
  const ip = getRequestIP(event, { xForwardedFor: trustProxy }) ?? "unknown";
  const ctx = createContextInner({ services, headers: event.req.headers, ip, responseHeaders: answerHeaders(event) });
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
    if (Array.isArray(message) && message.length > 1) return jsonRpcBatchRefused(message.length);
    const canWrite = principal.key.scopes.includes("write");
    const session = toolSession(catalog, { canWrite, toolsets, closed }, (tool, args) =>
      runTool(tool, args, {
        router,
        services,
        headers: event.req.headers,
        ip,
        principal,
        onUnexpected: (error) => {
          event.context.unexpected = error;
        },
        answerHeaders: ctx.responseHeaders,
      }),
    );
    if (!callsKnownTool(Array.isArray(message) ? message[0] : message, session)) {
      await chargeRequestBuckets(ctx, principal, { write: false, charge: true });
    }
    const direct = await answerDirectly(message, event.req.headers, session, ctx.responseHeaders);
    if (direct) return direct;
    const server = createMcpServer(session);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return withHeaders(await transport.handleRequest(event.req, { parsedBody: message }), ctx.responseHeaders);
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

/** Whether `message` calls a tool of the session: the tool's REST call charges the buckets (run_tool.ts). */
function callsKnownTool(message: unknown, session: ToolSession): boolean {
  if (message === null || typeof message !== "object") return false;
  const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
  return method === "tools/call" && typeof params?.name === "string" && session.byName.has(params.name);
}

/** The request's rate-limit headers on an answer built elsewhere (the SDK's or the direct path's). */
function withHeaders(response: Response, headers: Headers): Response {
  for (const [name, value] of headers) response.headers.set(name, value);
  return response;
}

/** JSON-RPC's answer to a batch of several messages (the protocol's invalid-request code). */
function jsonRpcBatchRefused(size: number): Response {
  const message = `Invalid Request: a batch may hold one message, this one holds ${size}; send one message per request`;
  return Response.json({ jsonrpc: "2.0", error: { code: -32600, message }, id: null }, { status: 400 });
}

/** JSON-RPC's answer to a body that is not JSON (the protocol's code, not the REST envelope). */
function jsonRpcParseError(): Response {
  return Response.json({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error: the body is not valid JSON" }, id: null }, { status: 400 });
}
