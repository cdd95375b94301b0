/**
 * Checks an answer against the OpenAPI document: the JSON schema the document declares
 * for the operation and status (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses it).
 * The harness runs it on every 2xx REST answer of every suite (docs/operations.md), so a
 * documented-but-wrong response fails the test that produced it.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { appRouter } from "../../routers/index.ts";
import { buildOpenApiDocument } from "../../core/docs/openapi.ts";

// ajv-formats is CommonJS; under ESM its function arrives as the module's default.
const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

type Json = Record<string, any>;

/** One operation of the document, with a matcher for concrete paths. */
export interface DocumentOperation {
  method: string;
  path: string;
  operation: Json;
  matches(pathname: string): boolean;
}

let cached: { document: Json; ajv: Ajv2020; operations: DocumentOperation[] } | undefined;
const validators = new Map<string, ValidateFunction | null>();

/** The document the router serves (built once per process; it needs no database). */
export function openApiDocument(): Json {
  return state().document;
}

/** Every operation of the document, `GET /v1/docs` included. */
export function documentOperations(): DocumentOperation[] {
  return state().operations;
}

function state() {
  if (cached) return cached;
  const document = buildOpenApiDocument(appRouter);
  // OpenAPI adds `example` (and `discriminator`, `xml`...) beside JSON Schema keywords.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema(document, "openapi.json");
  const operations: DocumentOperation[] = [];
  for (const [path, item] of Object.entries<Json>(document.paths)) {
    const pattern = new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}$`);
    for (const [method, operation] of Object.entries<Json>(item)) {
      operations.push({ method: method.toUpperCase(), path, operation, matches: (pathname) => pattern.test(pathname) });
    }
  }
  cached = { document, ajv, operations };
  return cached;
}

/** The operation `method pathname` calls, if the document has it (a literal segment beats a `{param}`). */
export function operationFor(method: string, pathname: string): DocumentOperation | undefined {
  const candidates = documentOperations().filter((entry) => entry.method === method.toUpperCase() && entry.matches(pathname));
  return candidates.sort((a, b) => paramCount(a.path) - paramCount(b.path))[0];
}

function paramCount(path: string): number {
  return (path.match(/\{/g) ?? []).length;
}

/**
 * The problems of `body` against the schema documented for `status` of the operation
 * `method pathname` calls, as readable lines; [] when it conforms. An undocumented status
 * of a documented operation is a problem too; an undocumented path is left to its test.
 */
export function responseProblems(method: string, pathname: string, status: number, contentType: string | null, body: unknown): string[] {
  const entry = operationFor(method, pathname);
  if (!entry || entry.path === "/v1/docs") return [];
  const response = entry.operation.responses?.[String(status)];
  if (!response) return [`${method} ${entry.path} answered ${status}, which the document does not declare`];
  const declared = response.content ? Object.keys(response.content) : [];
  if (declared.length === 0) {
    return body === null || body === "" ? [] : [`${method} ${entry.path} ${status} is documented without a body but answered one`];
  }
  // A file the document declares (a download: `text/csv`) is text; its schema is `string`.
  const file = declared.find((type) => type !== "application/json" && contentType?.startsWith(type));
  if (file) return typeof body === "string" ? [] : [`${method} ${entry.path} ${status} answered ${file} that is not text`];
  if (!contentType?.startsWith("application/json")) return [`${method} ${entry.path} ${status} answered Content-Type ${contentType}, not application/json`];
  const validate = validatorFor(entry, status);
  if (!validate || validate(body)) return [];
  return (validate.errors ?? [])
    .slice(0, 8)
    .map((error) => `${method} ${entry.path} ${status}: ${error.instancePath || "(body)"} ${error.message} ${JSON.stringify(error.params)}`);
}

function validatorFor(entry: DocumentOperation, status: number): ValidateFunction | null {
  const key = `${entry.method} ${entry.path} ${status}`;
  if (!validators.has(key)) {
    const pointer = ["paths", entry.path, entry.method.toLowerCase(), "responses", String(status), "content", "application/json", "schema"]
      .map((part) => part.replace(/~/g, "~0").replace(/\//g, "~1"))
      .join("/");
    validators.set(key, state().ajv.compile({ $ref: `openapi.json#/${pointer}` }));
  }
  return validators.get(key) ?? null;
}

/** A validator for the schema at `pointer` (keys from the document root), e.g. a request body. */
export function schemaValidator(pointer: (string | number)[]): ValidateFunction {
  const key = `#${pointer.join("/")}`;
  const existing = validators.get(key);
  if (existing) return existing;
  const encoded = pointer.map((part) => String(part).replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
  const validate = state().ajv.compile({ $ref: `openapi.json#/${encoded}` });
  validators.set(key, validate);
  return validate;
}
