/**
 * The MCP tools, generated from the OpenAPI document and the router (docs/mcp.md: every
 * REST operation is a tool, one source of truth: a new endpoint becomes a tool with
 * no extra code). A tool's name is the document's `x-mcp-tool` (core/docs/mcp_tools.ts),
 * its description and input JSON Schema the operation's, built from the procedure's zod
 * input and meta.
 */
import type { AnyRouter } from "@trpc/server";
import { restOperations } from "../../core/docs/openapi.ts";
import type { EndpointMeta } from "../../core/trpc.ts";
import { coercionPlan, type CoercionPlan } from "../http/input_coercion.ts";
import { MCP_TOOL_EXTENSION, toolsetOf } from "../../core/docs/mcp_tools.ts";
import { inlineRefs } from "./json_schema_refs.ts";
import { mayHoldSecret } from "./secret_fields.ts";

type Json = Record<string, any>;

/** One tool and how to call the procedure behind it. */
export interface CatalogTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Json;
  /** The success body's schema; absent when the operation answers no JSON object (204). */
  outputSchema?: Json;
  /** The answer may hold a `secret` field, withheld over MCP (secret_fields.ts); false only when the schema rules it out. */
  mayHoldSecret: boolean;
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  /** The toolset (the operation's tag as a slug: `scheduling`, `x_lookups`). */
  toolset: string;
  /** Needs a key with the write scope (every non-GET operation: Authentication 4). */
  write: boolean;
  procedurePath: string;
  type: "query" | "mutation";
  /** Arguments that REST carries in the path or query string (strings there). */
  urlArguments: ReadonlySet<string>;
  /** How REST converts those arguments from text (the same plan as its routes). */
  plan: CoercionPlan;
  /** Accepts `idempotency_key` (sent as the `Idempotency-Key` header). */
  idempotent: boolean;
  /** REST success status (204: no body). */
  successStatus: number;
  /** The operation answers a file (EndpointMeta.download): the tool answers its text, bounded (run_tool.ts). */
  download?: "text/csv";
  rest: { method: string; path: string };
}

/** The argument that carries `Idempotency-Key` on idempotent tools. */
export const IDEMPOTENCY_ARGUMENT = "idempotency_key";

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/** Builds every tool: one per operation of `document`, in document order. */
export function buildToolCatalog(router: AnyRouter, document: Json): CatalogTool[] {
  const byRoute = new Map(restOperations(router).map((operation) => [`${operation.method} ${operation.path}`, operation]));
  const tools: CatalogTool[] = [];
  for (const [path, item] of Object.entries<Json>(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const rest = byRoute.get(`${method.toUpperCase()} ${path}`);
      // The one documented operation without procedure meta (GET /v1/docs) names its
      // procedure in its operationId, as trpc-to-openapi does for all the others.
      const procedurePath = rest?.procedurePath ?? String(operation.operationId).replaceAll("-", ".");
      const meta: EndpointMeta = rest?.meta ?? ({} as EndpointMeta);
      const plan = coercionPlan(rest?.inputs ?? []);
      tools.push(toolOf({ document, method, path, operation, procedurePath, meta, plan }));
    }
  }
  const names = new Set(tools.map((tool) => tool.name));
  if (tools.some((tool) => !/^[a-z][a-z0-9_]{0,63}$/.test(tool.name)))
    throw new Error("Every operation needs an x-mcp-tool name of 1 to 64 snake_case characters");
  if (names.size !== tools.length) throw new Error("Two operations map to one MCP tool name; set a distinct toolName in their meta");
  return tools;
}

interface OperationSource {
  document: Json;
  method: (typeof METHODS)[number];
  path: string;
  operation: Json;
  procedurePath: string;
  meta: EndpointMeta;
  plan: CoercionPlan;
}

function toolOf({ document, method, path, operation, procedurePath, meta, plan }: OperationSource): CatalogTool {
  const write = method !== "get";
  const idempotent = meta.idempotent === true;
  const successStatus = meta.successStatus ?? 200;
  const { inputSchema, urlArguments } = inputSchemaOf(document, operation, idempotent);
  const title = String(operation.summary ?? procedurePath);
  const destructive = method === "delete" || /\/(bulk\/)?delete$/.test(path);
  const outputSchema = outputSchemaOf(document, operation, successStatus);
  const answerSchema = operation.responses?.[successStatus]?.content?.["application/json"]?.schema;
  return {
    name: String(operation[MCP_TOOL_EXTENSION]),
    title,
    description: descriptionOf(method, path, operation),
    inputSchema,
    outputSchema,
    mayHoldSecret: answerSchema === undefined ? successStatus !== 204 : mayHoldSecret(inlineRefs(document, answerSchema)),
    annotations: {
      title,
      readOnlyHint: !write,
      destructiveHint: destructive,
      idempotentHint: method === "get" || method === "put" || method === "delete",
      // Lookups and scrapes reach the social network or the web; the rest stays in Threadline.
      openWorldHint: /^\/v1\/x\//.test(path) || /scrape|from-url/.test(path),
    },
    toolset: toolsetOf(operation.tags?.[0] ?? "other"),
    write,
    procedurePath,
    type: write ? "mutation" : "query",
    urlArguments,
    plan,
    idempotent,
    successStatus,
    ...(meta.download ? { download: meta.download } : {}),
    rest: { method: method.toUpperCase(), path },
  };
}

function descriptionOf(method: string, path: string, operation: Json): string {
  const lines = [String(operation.summary ?? "")];
  if (operation.description) lines.push(String(operation.description));
  // Each error status of the document lists its codes as "`code`, `code`".
  const codes = Object.entries<Json>(operation.responses ?? {})
    .filter(([status]) => Number(status) >= 400)
    .flatMap(([status, response]) => [...String(response.description ?? "").matchAll(/`([a-z_]+)`/g)].map((match) => `${match[1]} (${status})`));
  lines.push(`REST: ${method.toUpperCase()} ${path}.${codes.length > 0 ? ` Errors (isError, the envelope as JSON text): ${codes.join(", ")}.` : ""}`);
  return lines.filter(Boolean).join("\n\n");
}

/** Path and query parameters and the JSON body's fields, as one object of arguments. */
function inputSchemaOf(document: Json, operation: Json, idempotent: boolean): { inputSchema: Json; urlArguments: Set<string> } {
  const properties: Json = {};
  const required: string[] = [];
  const urlArguments = new Set<string>();
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in !== "path" && parameter.in !== "query") continue;
    properties[parameter.name] = { ...inlineRefs(document, parameter.schema ?? {}), ...(parameter.description ? { description: parameter.description } : {}) };
    if (parameter.required) required.push(parameter.name);
    urlArguments.add(parameter.name);
  }
  const body = operation.requestBody?.content?.["application/json"]?.schema;
  if (body) {
    const schema = inlineRefs(document, body);
    for (const [name, field] of Object.entries<Json>(schema.properties ?? {})) if (!urlArguments.has(name)) properties[name] = field;
    for (const name of schema.required ?? []) if (!required.includes(name)) required.push(name);
  }
  if (idempotent) {
    properties[IDEMPOTENCY_ARGUMENT] = {
      type: "string",
      minLength: 1,
      maxLength: 64,
      description:
        "Optional retry key (the REST `Idempotency-Key` header): a retry with the same key and arguments returns the first result instead of acting twice",
    };
  }
  return { inputSchema: { type: "object", properties, ...(required.length > 0 ? { required } : {}) }, urlArguments };
}

function outputSchemaOf(document: Json, operation: Json, successStatus: number): Json | undefined {
  if (successStatus === 204) return undefined;
  const schema = operation.responses?.[successStatus]?.content?.["application/json"]?.schema;
  if (!schema) return undefined;
  const resolved = inlineRefs(document, schema);
  return resolved.type === "object" ? resolved : undefined;
}
