/**
 * One tool call: the procedure behind the tool, through the same request path as REST
 * (authentication, scope, request buckets, input validation, account selection,
 * idempotency, credits), with the MCP request's own headers. The answer is the REST
 * body as `structuredContent`; a refusal is `isError` with the spec's error envelope,
 * never a protocol error (docs/mcp.md).
 */
import type { AnyRouter } from "@trpc/server";
import { procedureCaller } from "../../core/trpc_internals.ts";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type Context, createContextInner, type Services } from "../../core/context.ts";
import { limitHeaders, mergeCallHeaders } from "../../core/limits/rate_limit_headers.ts";
import type { Principal } from "../../core/request_state/principal.ts";
import { toApiFailure } from "../../core/api_failure.ts";
import { coerceStrings } from "../http/input_coercion.ts";
import { csvText } from "../http/csv_download.ts";
import type { FileDownload } from "../../core/file_download.ts";
import { type CatalogTool, IDEMPOTENCY_ARGUMENT } from "./tool_catalog.ts";

/** Where a tool call comes from. */
export interface ToolCallSource {
  router: AnyRouter;
  services: Services;
  /** The MCP request's headers (`Authorization` above all). */
  headers: Headers;
  ip: string;
  /** The key of `headers` when the transport has authenticated it for this request already. */
  principal?: Principal;
  /** Told about a failure the API did not mean to give (a 500), for the request log. */
  onUnexpected?: (error: unknown) => void;
  /**
   * The HTTP answer's headers, when the call rides on one (the MCP route): they get the call's
   * rate-limit and credit headers, as the same REST call's answer would carry them.
   */
  answerHeaders?: Headers;
}

/** The `_meta` key under which a result carries the REST answer's status and headers. */
export const RESPONSE_META_KEY = "threadline/response";

/** Runs `tool` with `args` and answers the MCP result. */
export async function runTool(tool: CatalogTool, args: Record<string, unknown> | undefined, source: ToolCallSource): Promise<CallToolResult> {
  const { input, idempotencyKey } = toolInput(tool, args ?? {});
  let headers = source.headers;
  if (idempotencyKey !== undefined) {
    headers = new Headers(headers);
    headers.set("Idempotency-Key", idempotencyKey);
  }
  const ctx = createContextInner({ services: source.services, headers, ip: source.ip, oneCall: true, authenticated: source.principal });
  try {
    return await callTool(tool, input, source, ctx);
  } finally {
    if (source.answerHeaders) mergeCallHeaders(source.answerHeaders, limitHeaders(ctx.responseHeaders));
  }
}

async function callTool(tool: CatalogTool, input: unknown, source: ToolCallSource, ctx: Context): Promise<CallToolResult> {
  try {
    const output = await callerOf(
      source.router,
      tool,
    )({
      ctx,
      getRawInput: async () => input,
      signal: undefined,
      batchIndex: 0,
    });
    if (tool.download) return await downloadText(tool, output as FileDownload, ctx.responseHeaders);
    return success(tool, output, ctx.responseHeaders, ctx.reply.status);
  } catch (error) {
    const failure = toApiFailure(error);
    if (failure.unexpected !== undefined) source.onUnexpected?.(failure.unexpected);
    const headers = new Headers(ctx.responseHeaders);
    for (const [name, value] of Object.entries(failure.headers)) headers.set(name, value);
    const envelope = typeof failure.body.error === "string" ? { error: { code: failure.code, message: failure.body.error } } : failure.body;
    return {
      isError: true,
      content: [{ type: "text", text: JSON.stringify(envelope) }],
      _meta: { [RESPONSE_META_KEY]: { status: failure.status, headers: Object.fromEntries(headers) } },
    };
  }
}

/** Each router's procedure callers by path, built on a tool's first call. */
const callers = new WeakMap<AnyRouter, Map<string, ReturnType<typeof procedureCaller>>>();

function callerOf(router: AnyRouter, tool: CatalogTool): ReturnType<typeof procedureCaller> {
  let byPath = callers.get(router);
  if (!byPath) callers.set(router, (byPath = new Map()));
  let caller = byPath.get(tool.procedurePath);
  if (!caller) byPath.set(tool.procedurePath, (caller = procedureCaller(router, tool.procedurePath, tool.type)));
  return caller;
}

/**
 * The procedure input from the arguments. Path and query values travel as strings over
 * REST, so a client's `12`, `"12"`, `true` or `"true"` there all become what REST would
 * pass (input_coercion.ts); body fields are JSON on both surfaces and pass unchanged.
 */
function toolInput(tool: CatalogTool, args: Record<string, unknown>): { input: Record<string, unknown>; idempotencyKey?: string } {
  const input: Record<string, unknown> = {};
  const fromUrl: Record<string, string> = {};
  let idempotencyKey: string | undefined;
  for (const [name, value] of Object.entries(args)) {
    if (name === IDEMPOTENCY_ARGUMENT && tool.idempotent) {
      if (value !== undefined && value !== null) idempotencyKey = String(value);
    } else if (tool.urlArguments.has(name) && (typeof value === "number" || typeof value === "boolean" || typeof value === "string")) {
      fromUrl[name] = String(value);
    } else {
      input[name] = value;
    }
  }
  return { input: { ...input, ...coerceStrings(fromUrl, tool.plan) }, idempotencyKey };
}

/** Characters of a file a tool answers at most (whole records): a tool result is one text, not a stream. */
export const MAX_DOWNLOAD_CHARS = 1_000_000;

/** A download operation's file as text (the CSV export), cut at whole records past `MAX_DOWNLOAD_CHARS` with a note saying so. */
async function downloadText(tool: CatalogTool, download: FileDownload, headers: Headers): Promise<CallToolResult> {
  const { text, records, truncated } = await csvText(download, MAX_DOWNLOAD_CHARS);
  const content: CallToolResult["content"] = [{ type: "text", text }];
  if (truncated)
    content.push({ type: "text", text: `Truncated after ${records} rows: fetch ${tool.rest.path} over REST for the whole file (${download.filename}).` });
  return {
    content,
    _meta: {
      [RESPONSE_META_KEY]: {
        status: tool.successStatus,
        headers: { ...Object.fromEntries(headers), "content-disposition": `attachment; filename="${download.filename}"` },
      },
    },
  };
}

/** What an MCP result says in place of a secret (docs/mcp.md: secrets are read over REST only). */
export const WITHHELD_SECRET = "[withheld over MCP: read it over REST]";

/**
 * `value` with every `secret` string replaced by {@link WITHHELD_SECRET}: a tool result lands in
 * an agent's context, where text it read from the network could ask for it to be sent on.
 */
function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, key === "secret" && typeof item === "string" ? WITHHELD_SECRET : withoutSecrets(item)]),
  );
}

function success(tool: CatalogTool, answer: unknown, headers: Headers, chosen: number | undefined): CallToolResult {
  const _meta = { [RESPONSE_META_KEY]: { status: chosen ?? tool.successStatus, headers: Object.fromEntries(headers) } };
  if (tool.successStatus === 204 || answer === undefined) return { content: [{ type: "text", text: "Done" }], _meta };
  // Walked only where the answer's schema leaves room for a secret (tool_catalog.ts).
  const output = tool.mayHoldSecret ? withoutSecrets(answer) : answer;
  const text = JSON.stringify(output);
  // MCP: structured results are also given as JSON text, for clients that read only `content`.
  if (output !== null && typeof output === "object" && !Array.isArray(output)) {
    const result: StructuredResult = { content: [{ type: "text", text }], structuredContent: output as Record<string, unknown>, _meta };
    result[STRUCTURED_JSON] = text;
    return result;
  }
  return { content: [{ type: "text", text }], _meta };
}

/**
 * The JSON text of a structured result's `structuredContent`, kept from building its `content`
 * text: a symbol key, which JSON and the SDK's schemas ignore (a WeakMap entry per call would
 * leave the garbage collector one more thing to clear per call).
 */
const STRUCTURED_JSON = Symbol("structuredContent as JSON");

type StructuredResult = CallToolResult & { [STRUCTURED_JSON]?: string };

/**
 * A tool result as JSON. A structured result's content is already serialized in its text, so
 * `structuredContent` is written from that text instead of serializing the answer again.
 */
export function toolResultJson(result: CallToolResult): string {
  const structured = (result as StructuredResult)[STRUCTURED_JSON];
  if (structured === undefined || Object.keys(result).length !== 3) return JSON.stringify(result);
  return `{"content":${JSON.stringify(result.content)},"structuredContent":${structured},"_meta":${JSON.stringify(result._meta)}}`;
}
