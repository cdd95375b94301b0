/**
 * The OpenAPI 3.1 document, generated from procedure meta by trpc-to-openapi and then
 * completed (ARCHITECTURE: REST adapter): real success statuses, the spec's error
 * envelope with the exact codes each endpoint can answer, the bearer scheme, the
 * rate-limit headers, and the public `GET /v1/docs`.
 */
import { exactlyOneOfSchema } from "../exactly_one_of.ts";
import type { AnyRouter } from "@trpc/server";
import { generateOpenApiDocument } from "trpc-to-openapi";
import { z } from "zod";
import { ERROR_STATUS, type ErrorCode } from "../errors.ts";
import type { EndpointMeta } from "../trpc.ts";
import { API_DESCRIPTION } from "./api_description.ts";
import { objectShapeOf } from "../schema_shape.ts";
import { listProcedures } from "../trpc_internals.ts";
import { MCP_PATH, MCP_TOOL_EXTENSION, toolNameOf, toolsetOf } from "./mcp_tools.ts";
import { webhooksSection } from "../webhooks/webhook_openapi.ts";
import { declaredTags } from "./openapi_tags.ts";

type Json = Record<string, any>;

/** One `/v1` operation as the REST adapter and the docs see it. */
export interface RestOperation {
  procedurePath: string;
  type: "query" | "mutation";
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  meta: EndpointMeta;
  /** The procedure's input parsers (zod object schemas), for query and path coercion. */
  inputs: readonly unknown[];
  inputKeys: string[];
}

/** Every procedure with a REST route, from the router's meta (one source of truth for paths). */
export function restOperations(router: AnyRouter): RestOperation[] {
  const operations: RestOperation[] = [];
  for (const procedure of listProcedures(router)) {
    const meta = procedure.meta as EndpointMeta | undefined;
    if (!meta?.openapi || meta.openapi.enabled === false || procedure.type === "subscription") continue;
    const { inputs } = procedure;
    const inputKeys = inputs.flatMap((input) => Object.keys(objectShapeOf(input)));
    operations.push({ procedurePath: procedure.path, type: procedure.type, method: meta.openapi.method, path: meta.openapi.path, meta, inputs, inputKeys });
  }
  return operations;
}

/** The error codes an operation can answer: the shared ones plus its own. */
export function errorCodesOf(operation: RestOperation): ErrorCode[] {
  const write = operation.type === "mutation";
  // `upstream_unavailable`: the database cannot be reached for a moment (core/api_failure.ts);
  // on AI endpoints also the model, or a model lacking what the request needs (`retryable: false`).
  const codes: ErrorCode[] = ["unauthorized", "invalid_api_key", "rate_limited", "internal_error", "upstream_unavailable"];
  if (write) codes.push("insufficient_scope");
  // A non-GET operation reads its body (one JSON object, within 1 MiB; ARCHITECTURE: request path 1)
  // even when it takes no field, so a malformed or oversized body is refused there too.
  const readsBody = operation.method !== "GET";
  if (operation.inputKeys.length > 0 || readsBody) codes.push("invalid_parameter");
  if (readsBody) codes.push("payload_too_large");
  if (operation.inputKeys.includes("account_id")) {
    codes.push("account_not_found", "accounts_unavailable");
    if (write && !operation.meta.sharedWrites) codes.push("writes_main_account_only");
  }
  if (operation.meta.editorRestricted) codes.push("editor_restricted");
  if (operation.meta.idempotent) codes.push("invalid_parameter", "idempotency_key_reuse", "idempotency_in_flight");
  if (operation.meta.credits && operation.meta.credits !== "free") codes.push("ai_credits_exhausted");
  for (const code of operation.meta.errors ?? []) codes.push(code);
  return [...new Set(codes)];
}

const errorEnvelope = z
  .object({
    error: z
      .object({
        code: z.string().meta({ description: "Stable machine-readable code; branch on this" }),
        message: z.string().meta({ description: "Human-readable; may be reworded" }),
        retry_after: z.number().int().optional().meta({ description: "Seconds; rate-limit errors" }),
        retryable: z
          .literal(false)
          .optional()
          .meta({
            description:
              "Present on a `503 upstream_unavailable` that retrying cannot fix: the configured model lacks `capability` " +
              "(the local engine cannot translate or follow free-form instructions). Configure what `requires` names.",
          }),
        capability: z.string().optional().meta({ description: "With `retryable: false`: what the model lacks (`translate`, `instructions`, `image`)" }),
        requires: z.string().optional().meta({ description: "With `retryable: false`: the configuration that provides it, e.g. `AI_BASE_URL and AI_MODEL`" }),
      })
      .catchall(z.unknown()),
  })
  .meta({ id: "Error", description: "The error envelope. Some errors add fields (see each code)." });

const legacyError = z
  .object({ error: z.string().meta({ description: "`subscription_required: ...` (403) or `internal_error: ...` (500)" }) })
  .meta({ id: "LegacyError", description: "The two legacy subscription answers with a plain string `error`" });

const rateHeaderDefinitions = {
  "X-RateLimit-Limit": {
    description: "Units in the reported window (the tighter of the minute and UTC-day windows of the request's bucket)",
    schema: { type: "integer" },
  },
  "X-RateLimit-Remaining": { description: "Units left in that window", schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "End of that window, Unix epoch seconds", schema: { type: "integer" } },
  "RateLimit-Policy": { description: 'IETF draft field: both windows of the bucket, e.g. `"reads-minute";q=300;w=60`', schema: { type: "string" } },
  RateLimit: { description: "IETF draft field: units left (`r`) and seconds to reset (`t`) per window", schema: { type: "string" } },
  "Retry-After": { description: "Seconds to wait before retrying", schema: { type: "integer" } },
  "X-Credits-Charged": {
    description: "Credits kept for this call (absent on free calls and on 202 answers that settle in the background)",
    schema: { type: "integer" },
  },
  "X-Credits-Remaining": { description: "Credits left in the pool", schema: { type: "integer" } },
  "X-Credits-Reset": { description: "When the pool renews, Unix epoch seconds", schema: { type: "integer" } },
  "Idempotency-Replayed": {
    description: "`true` when this is the stored answer of an earlier request with the same Idempotency-Key",
    schema: { type: "string", enum: ["true"] },
  },
};

/** The operation extension naming why an operation beyond the spec's inventory is served. */
export const BEYOND_SPEC_EXTENSION = "x-beyond-spec";

const idempotencyKeyParameter = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Up to 64 characters, kept 24 hours per account owner. A retry with the same key and body answers the first result with `Idempotency-Replayed: true`; another body answers `409 idempotency_key_reuse`; a retry while the first still runs answers `409 idempotency_in_flight` with `Retry-After`. Only successful answers are stored.",
  schema: { type: "string", maxLength: 64 },
};

const preferParameter = {
  name: "Prefer",
  in: "header",
  required: false,
  description:
    "`respond-async` (RFC 7240): answer `202` at once with the queued work instead of waiting for it; the `202` carries `Preference-Applied: respond-async`. Other preferences are ignored.",
  schema: { type: "string" },
};

const lastEventIdParameter = {
  name: "Last-Event-ID",
  in: "header",
  required: false,
  description:
    "The id of the last event received: the stream resumes after it (EventSource sends it when reconnecting); the JSON form starts after it when no `cursor` or `last_event_id` is sent",
  schema: { type: "string", pattern: "^(evt_)?[0-9]{1,15}$" },
};

const rateHeaders = Object.fromEntries(
  ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "RateLimit-Policy", "RateLimit"].map((name) => [
    name,
    { $ref: `#/components/headers/${name}` },
  ]),
);

/** Builds the complete OpenAPI 3.1 document for `router`. */
export function buildOpenApiDocument(router: AnyRouter, options: { serverUrl?: string } = {}): Json {
  const document = generateOpenApiDocument(router as any, {
    title: "Threadline API",
    description: API_DESCRIPTION,
    version: "1.0.0",
    baseUrl: options.serverUrl ?? "http://127.0.0.1:8787",
    securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "`Authorization: Bearer <API_KEY>` (keys start with `sxk_`)" } },
    defs: { Error: errorEnvelope, LegacyError: legacyError },
  }) as Json;
  for (const operation of restOperations(router)) {
    const target = document.paths[operation.path][operation.method.toLowerCase()];
    target.responses = responsesFor(operation, target.responses["200"]);
    target[MCP_TOOL_EXTENSION] = operation.meta.toolName ?? toolNameOf(operation.procedurePath);
    if (operation.meta.beyondSpec) target[BEYOND_SPEC_EXTENSION] = operation.meta.beyondSpec;
    if (operation.meta.exactlyOneOf) Object.assign(target.requestBody.content["application/json"].schema, exactlyOneOfSchema(operation.meta.exactlyOneOf));
    if (operation.meta.credits) {
      const success = target.responses[operation.meta.successStatus ?? 200];
      const names =
        operation.meta.credits === "free" || operation.meta.successStatus === 202
          ? ["X-Credits-Remaining", "X-Credits-Reset"]
          : ["X-Credits-Charged", "X-Credits-Remaining", "X-Credits-Reset"];
      for (const name of names) success.headers[name] = { $ref: `#/components/headers/${name}` };
    }
    if (operation.meta.stream) target.parameters = [...(target.parameters ?? []), lastEventIdParameter];
    if (operation.meta.respondAsync) {
      target.parameters = [...(target.parameters ?? []), preferParameter];
      const accepted = target.responses["202"];
      if (accepted)
        accepted.headers = {
          ...accepted.headers,
          "Preference-Applied": { description: "`respond-async` when the 202 honours `Prefer`", schema: { type: "string" } },
        };
    }
    if (operation.meta.idempotent) {
      target.parameters = [...(target.parameters ?? []), idempotencyKeyParameter];
      const success = target.responses[operation.meta.successStatus ?? 200];
      success.headers = { ...success.headers, "Idempotency-Replayed": { $ref: "#/components/headers/Idempotency-Replayed" } };
    }
  }
  document.paths["/v1/docs"] = { get: docsOperation() };
  // What Threadline posts to webhook endpoints (OpenAPI 3.1 `webhooks`; docs/webhooks.md).
  document.webhooks = webhooksSection();
  document["x-mcp"] = mcpExtension(document);
  document.info.license = { name: "MIT", identifier: "MIT" };
  document.tags = declaredTags(tagsUsedBy(document));
  document.components.headers = rateHeaderDefinitions;
  // trpc-to-openapi's own error shapes are replaced by the spec's envelope above.
  for (const name of Object.keys(document.components.schemas ?? {})) if (name.startsWith("error.")) delete document.components.schemas[name];
  return document;
}

const SUCCESS_DESCRIPTIONS: Record<number, string> = { 200: "OK", 201: "Created", 202: "Accepted; finishes in the background", 204: "Done; no body" };

function responsesFor(operation: RestOperation, success: Json): Json {
  const status = operation.meta.successStatus ?? 200;
  const responses: Json = {};
  responses[status] =
    status === 204
      ? { description: "Done; no body", headers: { ...rateHeaders } }
      : { ...success, description: SUCCESS_DESCRIPTIONS[status], headers: { ...rateHeaders } };
  // A download answers its file, not the JSON the procedure's output schema describes.
  if (operation.meta.download) {
    responses[status].description = `The file (${operation.meta.download}), streamed; \`Content-Disposition: attachment; filename="..."\` names it`;
    responses[status].content = { [operation.meta.download]: { schema: { type: "string" } } };
    responses[status].headers["Content-Disposition"] = { description: 'attachment; filename="<name>" (always the quoted form)', schema: { type: "string" } };
  }
  // A stream operation also answers Server-Sent Events to `Accept: text/event-stream`.
  if (operation.meta.stream) {
    responses[status].content[operation.meta.stream] = {
      schema: {
        type: "string",
        description: "Messages `id: <event id>`, `event: <type>`, `data: <the Event JSON (components/schemas/Event)>`, and `: heartbeat` comments",
      },
    };
  }
  for (const other of operation.meta.alsoAnswers ?? []) {
    responses[other] = { ...success, description: SUCCESS_DESCRIPTIONS[other], headers: { ...rateHeaders } };
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(operation)) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  for (const [errorStatus, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[errorStatus] = errorResponse(errorStatus, codes, errorStatus !== 401);
  }
  for (const legacy of [403, 500]) {
    responses[legacy] ??= errorResponse(legacy, [], true);
    responses[legacy].content["application/json"].schema = {
      oneOf: [responses[legacy].content["application/json"].schema, { $ref: "#/components/schemas/LegacyError" }],
    };
    responses[legacy].description += legacy === 403 ? "; or the legacy string `subscription_required: ...`" : "; or the legacy string `internal_error: ...`";
  }
  return responses;
}

function errorResponse(status: number, codes: ErrorCode[], withRateHeaders: boolean): Json {
  const headers: Json = withRateHeaders ? { ...rateHeaders } : {};
  if (status === 429 || codes.includes("idempotency_in_flight")) {
    headers["Retry-After"] = { $ref: "#/components/headers/Retry-After" };
  }
  const schema =
    codes.length === 0
      ? { $ref: "#/components/schemas/Error" }
      : {
          allOf: [{ $ref: "#/components/schemas/Error" }, { type: "object", properties: { error: { type: "object", properties: { code: { enum: codes } } } } }],
        };
  return {
    description: codes.length ? codes.map((code) => `\`${code}\``).join(", ") : "Error",
    headers,
    content: { "application/json": { schema } },
  };
}

/** Every tag an operation of `paths` or `webhooks` names. */
function tagsUsedBy(document: Json): string[] {
  const operations = [document.paths, document.webhooks ?? {}].flatMap((items: Json) =>
    Object.values<Json>(items).flatMap((item) => Object.values<Json>(item)),
  );
  return [...new Set(operations.flatMap((operation) => operation.tags ?? []))];
}

/** Where the tool server is and its toolsets, for clients reading the document. */
function mcpExtension(document: Json): Json {
  const toolsets: Record<string, string[]> = {};
  for (const item of Object.values<Json>(document.paths)) {
    for (const operation of Object.values<Json>(item)) (toolsets[toolsetOf(operation.tags?.[0] ?? "other")] ??= []).push(operation[MCP_TOOL_EXTENSION]);
  }
  return { path: MCP_PATH, transport: "streamable-http", stateless: true, toolsets };
}

function docsOperation(): Json {
  return {
    operationId: "meta-docs",
    [MCP_TOOL_EXTENSION]: toolNameOf("meta.docs"),
    tags: ["Meta"],
    summary: "This API description (public, no key)",
    description:
      "OpenAPI 3.1 JSON for `Accept: application/json` or `?format=openapi`; an HTML page for browsers (`Accept: text/html` or `?format=html`); otherwise a Markdown quick reference (`?format=markdown`).",
    security: [],
    parameters: [{ name: "format", in: "query", required: false, schema: { type: "string", enum: ["openapi", "markdown", "html"] } }],
    responses: {
      200: {
        description: "The description in the negotiated format",
        content: {
          "application/json": { schema: { type: "object" } },
          "text/markdown": { schema: { type: "string" } },
          "text/html": { schema: { type: "string" } },
        },
      },
    },
  };
}
