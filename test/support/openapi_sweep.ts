/**
 * The conformance sweep's view of the API: every operation of the OpenAPI document with
 * where its inputs go, and the bad requests its schemas imply. Nothing here names an
 * endpoint, so an operation is swept the day it is documented (ARCHITECTURE: the
 * conformance sweep).
 */
import fc from "fast-check";
import { appRouter } from "../../routers/index.ts";
import { restOperations } from "../../core/docs/openapi.ts";
import type { EndpointMeta } from "../../core/trpc.ts";
import { ERROR_STATUS } from "../../core/errors.ts";
import { documentOperations, openApiDocument, responseProblems, schemaValidator } from "./response_schemas.ts";
import { bodyFields, bodyObjects, branchesOf, fieldName, resolveSchema, sampleOf, SWEEP_SEED, validInstance, withValue } from "./schema_values.ts";
import type { Answer, Transport } from "./harness.ts";

type Json = Record<string, any>;

/** A parameter of an operation (path, query or header). */
export interface SweepParameter {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  schema: Json;
  index: number;
}

/** One documented operation as the sweep drives it. */
export interface SweepOperation {
  method: string;
  path: string;
  label: string;
  public: boolean;
  write: boolean;
  meta: EndpointMeta;
  parameters: SweepParameter[];
  bodySchema?: Json;
  /** Where `account_id` goes, when the operation takes one. */
  accountIdIn?: "query" | "body";
}

/** Every operation of the document. */
export function sweepOperations(): SweepOperation[] {
  const document = openApiDocument();
  const metas = new Map(restOperations(appRouter).map((operation) => [`${operation.method} ${operation.path}`, operation.meta]));
  return documentOperations().map(({ method, path, operation }) => {
    const parameters = (operation.parameters ?? []).map((parameter: Json, index: number) => ({
      name: parameter.name,
      in: parameter.in,
      required: Boolean(parameter.required),
      schema: resolveSchema(document, parameter.schema),
      index,
    }));
    const bodySchema = operation.requestBody?.content?.["application/json"]?.schema;
    const inQuery = parameters.some((parameter: SweepParameter) => parameter.in === "query" && parameter.name === "account_id");
    const inBody = Boolean(resolveSchema(document, bodySchema).properties?.account_id);
    return {
      method,
      path,
      label: `${method} ${path}`,
      public: Array.isArray(operation.security) && operation.security.length === 0,
      write: method !== "GET",
      meta: metas.get(`${method} ${path}`) ?? {},
      parameters,
      bodySchema,
      accountIdIn: inQuery ? "query" : inBody ? "body" : undefined,
    } satisfies SweepOperation;
  });
}

/**
 * Whether a path parameter names one of a fixed set of values (`/v1/audience/{kind}`)
 * rather than an object: such a segment addresses no one's object, so tenancy is the
 * account's alone.
 */
export function enumValuesOf(parameter: SweepParameter): unknown[] | undefined {
  const branches = branchesOf(openApiDocument(), parameter.schema);
  if (branches.length === 0 || !branches.every((branch) => Array.isArray(branch.enum))) return undefined;
  return branches.flatMap((branch) => branch.enum);
}

/**
 * Whether a path parameter names something on the social network (`x-network-id`: the X user
 * id of `/v1/contacts/{id}`), not a record of ours: every account has its own view of it.
 */
export function namesNetworkObject(parameter: SweepParameter): boolean {
  return branchesOf(openApiDocument(), parameter.schema).some((branch) => branch["x-network-id"] === true);
}

/** Whether the operation addresses an object of ours by id in its path (some path parameter is neither an enum nor a network id). */
export function addressesObject(operation: SweepOperation): boolean {
  return operation.parameters.some((parameter) => parameter.in === "path" && !enumValuesOf(parameter) && !namesNetworkObject(parameter));
}

/** A request the sweep sends. */
export interface SweepRequest {
  method: string;
  /** Path with query string. */
  path: string;
  /** Raw body text (already JSON, or deliberately not). */
  body?: string;
  headers: Record<string, string>;
}

/** Builds a request: path values, query values (strings), a body value or raw text. */
export function buildRequest(
  operation: SweepOperation,
  parts: { path: Record<string, string>; query?: Record<string, string>; body?: unknown; rawBody?: string; headers?: Record<string, string> },
): SweepRequest {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(parts.path[name] ?? "1"));
  const query = new URLSearchParams(parts.query ?? {}).toString();
  const headers = { ...parts.headers };
  let body = parts.rawBody;
  if (body === undefined && parts.body !== undefined) body = JSON.stringify(parts.body);
  if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === "content-type")) headers["Content-Type"] = "application/json";
  return { method: operation.method, path: query ? `${path}?${query}` : path, body, headers };
}

/**
 * A valid body for the operation (required fields only; `all`: every field but
 * `account_id`, for rules across fields such as "send name, color or both"), or
 * undefined when it takes none.
 */
export function validBody(operation: SweepOperation, options: { all?: boolean } = {}): Json | undefined {
  if (!operation.bodySchema) return undefined;
  return validInstance(openApiDocument(), operation.bodySchema, operation.label, options) as Json;
}

/** Well-formed values for the path parameters (ids that name nothing). */
export function wellFormedPath(operation: SweepOperation): Record<string, string> {
  const values: Record<string, string> = {};
  for (const parameter of operation.parameters.filter((p) => p.in === "path")) {
    const schema = branchesOf(openApiDocument(), parameter.schema)[0];
    values[parameter.name] =
      schema.type === "integer" || schema.type === "number"
        ? "987654321"
        : String(validInstance(openApiDocument(), { ...schema, example: undefined }, `${operation.label}:${parameter.name}`));
  }
  return values;
}

/** What a bad request must answer. */
export type Expectation =
  /** Invalid by the document: `400 invalid_parameter`. */
  | { kind: "invalid"; field?: string }
  /** Valid by the document (or undecidable from it): any documented answer but a 5xx. */
  | { kind: "any" };

/** One generated bad request. */
export interface BadCase {
  label: string;
  request: SweepRequest;
  expect: Expectation;
}

const RAW = "\u0001raw\u0001";

/** Odd values for any field; each is classified against the field's schema. */
function oddValues(schema: Json, salt: string): { label: string; value?: unknown; raw?: string }[] {
  const document = openApiDocument();
  const branches = branchesOf(document, schema);
  const types = new Set(branches.map((branch) => branch.type));
  const odd: { label: string; value?: unknown; raw?: string }[] = [
    { label: "wrong type: number", value: 12345 },
    { label: "wrong type: string", value: "not-the-right-type" },
    { label: "wrong type: boolean", value: true },
    { label: "wrong type: object", value: { nested: 1 } },
    { label: "wrong type: array", value: ["x"] },
    { label: "null", value: null },
    { label: "100k characters", value: "y".repeat(100_000) },
    { label: "control characters", value: "a\u0001b\u001b[31mc\u007f\td" },
    // Every JSON value fast-check draws for this place (fixed seed, printed on failure).
    ...sampleOf(fc.jsonValue({ maxDepth: 2 }), salt, 2).map((value, i) => ({ label: `fast-check value #${i}`, value })),
  ];
  for (const branch of branches) {
    if (branch.type === "string") {
      if (branch.minLength) odd.push({ label: `minLength ${branch.minLength} - 1`, value: "a".repeat(branch.minLength - 1) });
      if (branch.maxLength !== undefined) odd.push({ label: `maxLength ${branch.maxLength} + 1`, value: "a".repeat(branch.maxLength + 1) });
      if (branch.pattern) {
        const pattern = new RegExp(branch.pattern);
        const misses = ["", " ", "a b", "-1", "ü", "x".repeat(300), ...sampleOf(fc.string({ maxLength: 20 }), `${salt}:miss`, 10)].filter(
          (text) => !pattern.test(text),
        );
        for (const text of misses.slice(0, 3)) odd.push({ label: `pattern ${branch.pattern} missed by ${JSON.stringify(text).slice(0, 40)}`, value: text });
      }
      if (branch.format === "date-time") {
        const local = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 19);
        odd.push({ label: "timestamp without Z or offset", value: local }, { label: "date-only timestamp", value: local.slice(0, 10) });
      }
      if (Array.isArray(branch.enum)) odd.push({ label: "outside the enum", value: `${branch.enum[0]}_not_listed` });
    }
    if (branch.type === "integer" || branch.type === "number") {
      if (branch.minimum !== undefined && branch.minimum > -1e15) odd.push({ label: `minimum ${branch.minimum} - 1`, value: branch.minimum - 1 });
      if (branch.maximum !== undefined && branch.maximum < 1e15) odd.push({ label: `maximum ${branch.maximum} + 1`, value: branch.maximum + 1 });
      if (branch.exclusiveMinimum !== undefined) odd.push({ label: "exclusiveMinimum itself", value: branch.exclusiveMinimum });
      if (branch.exclusiveMaximum !== undefined) odd.push({ label: "exclusiveMaximum itself", value: branch.exclusiveMaximum });
      if (branch.type === "integer") odd.push({ label: "fraction", value: 1.5 });
    }
    if (branch.type === "array") {
      if (branch.minItems)
        odd.push({
          label: `minItems ${branch.minItems} - 1`,
          value: Array.from({ length: branch.minItems - 1 }, () => validInstance(document, branch.items, salt)),
        });
      if (branch.maxItems !== undefined && branch.maxItems < 1000) {
        odd.push({
          label: `maxItems ${branch.maxItems} + 1`,
          value: Array.from({ length: branch.maxItems + 1 }, (_, i) => validInstance(document, branch.items, `${salt}[${i}]`)),
        });
      }
    }
  }
  if (types.has("integer") || types.has("number")) {
    odd.push(
      { label: "1e309 in JSON text (Infinity)", raw: "1e309" },
      { label: "-0 in JSON text", raw: "-0" },
      { label: "2**53+1 in JSON text", raw: "9007199254740993" },
      { label: "huge number", raw: "1e308" },
    );
  }
  return odd;
}

/** Values no field accepts: text PostgreSQL cannot store (one platform rule, core/storable_text.ts). */
const UNSTORABLE = [
  { label: "NUL character", value: "before\u0000after" },
  { label: "lone surrogate", value: "before\ud800after" },
];

/** Every bad request the document implies for `operation` (path ids well-formed but naming nothing). */
export function badCases(operation: SweepOperation, auth: Record<string, string>): BadCase[] {
  const document = openApiDocument();
  const cases: BadCase[] = [];
  const path = wellFormedPath(operation);
  const body = validBody(operation);
  const baseQuery: Record<string, string> = {};
  const baseHeaders: Record<string, string> = { ...auth };
  for (const parameter of operation.parameters) {
    if (!parameter.required) continue;
    if (parameter.in === "query") baseQuery[parameter.name] = String(validInstance(document, parameter.schema, parameter.name));
    if (parameter.in === "header") baseHeaders[parameter.name] = String(validInstance(document, parameter.schema, parameter.name));
  }
  const bodyPointer = ["paths", operation.path, operation.method.toLowerCase(), "requestBody", "content", "application/json", "schema"];
  const bodyValid = operation.bodySchema ? schemaValidator(bodyPointer) : undefined;
  const make = (label: string, parts: Parameters<typeof buildRequest>[1], expect: Expectation) =>
    cases.push({ label, request: buildRequest(operation, parts), expect });

  // Unknown query parameters are ignored, like unknown body fields (API description: Input).
  make("query: unknown parameter", { path: { ...path }, query: { ...baseQuery, sweep_unknown: "1" }, headers: { ...baseHeaders }, body }, { kind: "any" });
  // Parameters (path, query, header) arrive as text; the adapter turns numeric and
  // true/false text into numbers and booleans before validation.
  for (const parameter of operation.parameters) {
    const validate = schemaValidator(["paths", operation.path, operation.method.toLowerCase(), "parameters", parameter.index, "schema"]);
    const texts = oddValues(parameter.schema, `${operation.label}:${parameter.name}`)
      .filter((odd) => odd.raw === undefined && (typeof odd.value === "string" || typeof odd.value === "number" || typeof odd.value === "boolean"))
      .map((odd) => ({ label: odd.label, text: String(odd.value) }));
    texts.push({ label: "NUL character", text: "a\u0000b" });
    if (parameter.required && parameter.in !== "path") texts.push({ label: "missing", text: "" });
    for (const { label, text } of texts) {
      if (parameter.in === "path" && (text === "" || text.length > 8_000)) continue;
      const typed = asParameterValue(text, parameter.schema);
      const unstorable = text.includes("\u0000");
      const invalid = unstorable || (label === "missing" ? true : !validate(typed));
      const parts = { path: { ...path }, query: { ...baseQuery }, headers: { ...baseHeaders }, body };
      if (parameter.in === "path") parts.path[parameter.name] = text;
      else if (parameter.in === "query") label === "missing" ? delete parts.query[parameter.name] : (parts.query[parameter.name] = text);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what a header cannot carry
      else if (/[\u0000-\u001f\u007f]|[^\u0000-\u00ff]/.test(text))
        continue; // not sendable as a header
      else parts.headers[parameter.name] = text;
      make(`${parameter.in} ${parameter.name}: ${label}`, parts, invalid ? { kind: "invalid", field: parameter.name } : { kind: "any" });
    }
  }

  if (!operation.bodySchema || !bodyValid) return cases;
  const base = { path, query: baseQuery, headers: baseHeaders };
  for (const field of bodyFields(document, operation.bodySchema)) {
    const name = fieldName(field.path);
    const mutated = (value: unknown) => withValue(document, operation.bodySchema!, body, field.path, value);
    if (field.required) make(`body ${name}: missing`, { ...base, body: mutated(undefined) }, { kind: "invalid", field: name });
    for (const odd of oddValues(field.schema, `${operation.label}:${name}`)) {
      if (odd.raw !== undefined) {
        const text = JSON.stringify(mutated(RAW)).replace(JSON.stringify(RAW), odd.raw);
        const invalid = odd.raw === "1e309" || !bodyValid(JSON.parse(text));
        make(`body ${name}: ${odd.label}`, { ...base, rawBody: text }, invalid ? { kind: "invalid", field: name } : { kind: "any" });
        continue;
      }
      const candidate = mutated(odd.value);
      make(`body ${name}: ${odd.label}`, { ...base, body: candidate }, bodyValid(candidate) ? { kind: "any" } : { kind: "invalid", field: name });
    }
    const isText = branchesOf(document, field.schema).some((branch) => branch.type === "string" || branch.type === undefined);
    if (isText) for (const odd of UNSTORABLE) make(`body ${name}: ${odd.label}`, { ...base, body: mutated(odd.value) }, { kind: "invalid", field: name });
  }
  // Unknown fields: refused inside objects marked `additionalProperties: false`, else ignored (API description: Input).
  for (const object of bodyObjects(document, operation.bodySchema)) {
    const path = [...object.path, "sweep_unknown_field"];
    const candidate = withValue(document, operation.bodySchema, body, path, "surprise");
    const name = fieldName(path);
    make(`body ${name}: unknown field`, { ...base, body: candidate }, object.closed ? { kind: "invalid", field: name } : { kind: "any" });
  }
  return cases;
}

/** Bodies that are not one JSON object (each answers `400 invalid_parameter`). */
export function wholeBodyCases(operation: SweepOperation, auth: Record<string, string>): BadCase[] {
  const path = wellFormedPath(operation);
  const bodies: [string, string, Record<string, string>?][] = [
    ["malformed JSON", '{"a": '],
    ["a JSON array", "[]"],
    ["JSON null", "null"],
    ["a JSON string", '"text"'],
    ["form-encoded with a wrong Content-Type", "a=1&b=2", { "Content-Type": "application/x-www-form-urlencoded" }],
  ];
  return bodies.map(([label, rawBody, headers]) => ({
    label: `body: ${label}`,
    request: buildRequest(operation, { path, rawBody, headers: { ...auth, ...headers } }),
    expect: { kind: "invalid" },
  }));
}

/** The value the adapter hands to validation for a parameter text (numbers and booleans converted). */
function asParameterValue(text: string, schema: Json): unknown {
  const types = new Set(branchesOf(openApiDocument(), schema).map((branch) => branch.type));
  if ((types.has("integer") || types.has("number")) && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (types.has("boolean") && (text === "true" || text === "false")) return text === "true";
  return text;
}

/** Sends `request` with a deadline: a hang is a failure, not a stuck suite. */
export async function send(transport: Transport, request: SweepRequest, timeoutMs = 10_000): Promise<Answer> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`No answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const headers = { ...request.headers };
    // The harness sets JSON's Content-Type for any body; keep a deliberately different one.
    return await Promise.race([transport.request(request.method, request.path, { body: request.body, headers: { ...headers } }), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Problems with an answer every operation shares: never a 5xx, the envelope, a code from the table, the documented shape. */
export function answerProblems(request: SweepRequest, answer: Answer, options: { upstream?: boolean } = {}): string[] {
  const problems: string[] = [];
  // `upstream`: a valid request may reach a dependency that refuses it (the local model's
  // documented `503 upstream_unavailable` for free-form instructions); a 500 never passes.
  if (answer.status >= 500 && !(options.upstream && answer.status > 500)) problems.push(`answered ${answer.status}`);
  if (answer.status >= 400) {
    const error = answer.body?.error;
    const status = (ERROR_STATUS as Record<string, number>)[error?.code];
    if (typeof error !== "object" || typeof error.code !== "string" || typeof error.message !== "string")
      problems.push("not the { error: { code, message } } envelope");
    else if (status !== answer.status) problems.push(`code "${error.code}" is not a ${answer.status} in core/errors.ts`);
  }
  const pathname = request.path.split("?")[0];
  problems.push(...responseProblems(request.method, pathname, answer.status, answer.headers.get("content-type"), answer.body));
  return problems;
}

/** One failed case, printed with what replays it. */
export function describeFailure(request: SweepRequest, answer: Answer | undefined, problems: string[], label = ""): string {
  const body =
    request.body === undefined ? "" : ` body ${request.body.length > 300 ? `${request.body.slice(0, 300)}... (${request.body.length} chars)` : request.body}`;
  const headers = Object.keys(request.headers)
    .filter((name) => name !== "Authorization")
    .map((name) => `${name}: ${String(request.headers[name]).slice(0, 80)}`)
    .join("; ");
  const got = answer ? `${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}` : "no answer";
  return `[${label}] ${request.method} ${request.path.slice(0, 200)}${body}${headers ? ` [${headers}]` : ""}\n    -> ${got}\n    ${problems.join("; ")} (SWEEP_SEED=${SWEEP_SEED})`;
}
