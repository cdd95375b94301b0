/**
 * X's own OpenAPI document as the judge of every request the fake X server receives: the
 * operation must exist, its path and query parameters must match their schemas (types, enums,
 * patterns, minimum and maximum, no parameter X does not list), a JSON or multipart body must
 * match the request body schema, and the credential must be one of the operation's `security`
 * schemes (app-only `BearerToken`, `OAuth2UserToken`, OAuth 1.0a `UserToken`). The document is
 * x_openapi_subset.json, cut from xdevplatform/docs' openapi.json by make_x_openapi_subset.ts.
 * A violation does not change the fake's answer; it is recorded so a test fails when Threadline
 * sends a request X's document would reject.
 */
import { readFileSync } from "node:fs";
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";

// ajv-formats is CommonJS; under ESM its function arrives as the module's default.
const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

/** Which of X's security schemes a request's credential is. */
export type XAuthScheme = "BearerToken" | "OAuth2UserToken" | "UserToken" | "none";

/** One request as the contract sees it. */
export interface ContractRequest {
  method: string;
  url: URL;
  contentType: string | undefined;
  raw: Buffer;
  auth: XAuthScheme;
}

/** A request X's document would reject, and why. */
export interface ContractViolation {
  /** `GET /2/users/123/tweets?max_results=500`. */
  request: string;
  /** The operation it matched (`getUsersPosts`), when it matched one. */
  operation?: string;
  problems: string[];
}

/** Checks requests against X's document. */
export interface XContract {
  /** The problems of one request (empty when X's document accepts it). */
  check(request: ContractRequest): Promise<string[]>;
  /** The operation id a method and pathname match, or undefined. */
  operationOf(method: string, pathname: string): string | undefined;
}

type Json = any;

interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema: Json;
  explode?: boolean;
}

interface Operation {
  id: string;
  method: string;
  pattern: RegExp;
  pathNames: string[];
  literal: number;
  query: Parameter[];
  path: Parameter[];
  validateQuery: ValidateFunction;
  validatePath: ValidateFunction;
  /** Per content type: the validator and the body's schema as X's document gives it (its fields type multipart values). */
  bodies: Map<string, { validate: ValidateFunction; schema: Json }>;
  bodyRequired: boolean;
  schemes: Set<string>;
}

/**
 * Parameters X's openapi.json names differently from X's pages and API: the document calls the
 * post fields parameter `post.fields`, while x-api/fundamentals/fields.mdx ("Post (Tweet) |
 * `tweet.fields`") and every example on X's pages send `tweet.fields`, the name X answers to.
 */
const ALIASES: Record<string, string> = { "post.fields": "tweet.fields" };

/**
 * Values X's pages document that openapi.json's enums lack (its enums read `note_post`,
 * `referenced_posts`, `edit_history_post_ids`, and omit `author_id` from post fields):
 * x-api/fundamentals/data-dictionary.mdx ("All Post fields": author_id, in_reply_to_user_id,
 * note_tweet, referenced_tweets, edit_history_tweet_ids; "User": pinned_tweet_id; "List":
 * owner_id; "Direct Message events": sender_id, participant_ids, referenced_tweets) and
 * x-api/fundamentals/expansions.mdx ("Post expansions", "User expansions").
 */
const PAGE_VALUES: Record<string, string[]> = {
  "tweet.fields": ["author_id", "in_reply_to_user_id", "note_tweet", "referenced_tweets", "edit_history_tweet_ids"],
  "user.fields": ["pinned_tweet_id"],
  "list.fields": ["owner_id"],
  "dm_event.fields": ["sender_id", "participant_ids", "referenced_tweets"],
  expansions: ["referenced_tweets.id", "referenced_tweets.id.author_id", "edit_history_tweet_ids", "pinned_tweet_id"],
};

/**
 * Operations X's pages show with the app-only token though openapi.json lists only user-context
 * schemes: x-api/posts/likes/introduction.mdx, "Example: Get liking users", sends
 * `Authorization: Bearer $BEARER_TOKEN` to `GET /2/tweets/:id/liking_users`.
 */
const PAGE_SCHEMES: Record<string, string[]> = { getPostsLikingUsers: ["BearerToken"] };

const SUBSET = new URL("./x_openapi_subset.json", import.meta.url);

/** Loads x_openapi_subset.json. */
export function loadXOpenApiSubset(): Json {
  return JSON.parse(readFileSync(SUBSET, "utf8"));
}

let shared: XContract | undefined;

/** The checker for x_openapi_subset.json, built once (compiling X's schemas takes a moment). */
export function xContract(): XContract {
  shared ??= createXContract();
  return shared;
}

/** Builds the checker for `document` (default: x_openapi_subset.json). */
export function createXContract(document: Json = loadXOpenApiSubset()): XContract {
  // OpenAPI 3.0 schemas carry keywords JSON Schema does not (`nullable` is ajv's own, `example`,
  // `discriminator`): not strict, so those are metadata; formats such as int64 come from ajv-formats.
  const ajv = new Ajv({ strict: false, allErrors: true, verbose: true });
  addFormats(ajv);
  const rewrite = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!node || typeof node !== "object") return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => {
        if (key === "$ref") return [key, String(value).replace("#/components/schemas/", "x#/$defs/")];
        // X's document lists "attachments.media_keys" twice in DmEventExpansionsParameter's enum,
        // which JSON Schema forbids; the set of allowed values is the same without the repeat.
        if (key === "enum" && Array.isArray(value)) return [key, [...new Set(value)]];
        return [key, rewrite(value)];
      }),
    );
  };
  ajv.addSchema({ $id: "x", $defs: rewrite(document.components.schemas ?? {}) });
  const parameterOf = (node: Json): Parameter => {
    let parameter: Parameter = node.$ref ? document.components.parameters[node.$ref.split("/").pop()] : node;
    if (parameter.name in ALIASES) parameter = { ...parameter, name: ALIASES[parameter.name] };
    const extra = PAGE_VALUES[parameter.name];
    const items = parameter.schema?.items;
    if (extra && Array.isArray(items?.enum)) {
      parameter = { ...parameter, schema: { ...parameter.schema, items: { ...items, enum: [...items.enum, ...extra] } } };
    }
    return parameter;
  };
  const objectOf = (parameters: Parameter[]) =>
    ajv.compile({
      type: "object",
      properties: Object.fromEntries(parameters.map((p) => [p.name, rewrite(p.schema)])),
      required: parameters.filter((p) => p.required).map((p) => p.name),
      additionalProperties: false,
    });

  const operations: Operation[] = [];
  for (const [template, methods] of Object.entries<Record<string, Json>>(document.paths)) {
    const pathNames = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}|\{[^}]+\}/g, "([^/]+)")}$`);
    for (const [method, operation] of Object.entries(methods)) {
      const parameters = (operation.parameters ?? []).map(parameterOf);
      const query = parameters.filter((p: Parameter) => p.in === "query");
      const path = parameters.filter((p: Parameter) => p.in === "path");
      const bodies = new Map<string, { validate: ValidateFunction; schema: Json }>();
      for (const [type, content] of Object.entries<Json>(operation.requestBody?.content ?? {})) {
        const schema = content.schema?.$ref ? document.components.schemas[content.schema.$ref.split("/").pop()] : content.schema;
        bodies.set(type, { validate: ajv.compile(rewrite(content.schema ?? {})), schema });
      }
      operations.push({
        id: operation.operationId,
        method: method.toUpperCase(),
        pattern,
        pathNames,
        literal: template.replace(/\{[^}]+\}/g, "").length,
        query,
        path,
        validateQuery: objectOf(query),
        validatePath: objectOf(path),
        bodies,
        bodyRequired: operation.requestBody?.required === true,
        schemes: new Set([
          ...(operation.security ?? document.security ?? []).flatMap((requirement: Json) => Object.keys(requirement)),
          ...(PAGE_SCHEMES[operation.operationId] ?? []),
        ]),
      });
    }
  }
  // A literal segment wins over a parameter (`/2/users/me` before `/2/users/{id}`), as routers do.
  operations.sort((a, b) => b.literal - a.literal);
  const find = (method: string, pathname: string) => operations.find((op) => op.method === method && op.pattern.test(pathname));

  return {
    operationOf: (method, pathname) => find(method, pathname)?.id,
    async check(request) {
      const { method, url } = request;
      const operation = find(method, url.pathname);
      if (!operation) return [`X's document has no operation ${method} ${url.pathname}`];
      const problems: string[] = [];
      const captures = operation.pattern.exec(url.pathname)!.slice(1);
      const pathValues = Object.fromEntries(
        operation.pathNames.map((name, i) => [name, typed(decodeURIComponent(captures[i]), operation.path.find((p) => p.name === name)?.schema)]),
      );
      if (!operation.validatePath(pathValues)) problems.push(...messages("path", operation.validatePath));
      const queryValues: Record<string, unknown> = {};
      for (const name of new Set(url.searchParams.keys())) {
        const all = url.searchParams.getAll(name);
        if (all.length > 1) problems.push(`query parameter "${name}" is repeated (X takes one comma-separated value)`);
        queryValues[name] = typed(all[0], operation.query.find((p) => p.name === name)?.schema);
      }
      if (!operation.validateQuery(queryValues)) problems.push(...messages("query", operation.validateQuery));
      if (operation.schemes.size > 0 && !operation.schemes.has(request.auth)) {
        problems.push(`authentication "${request.auth}" is not one of [${[...operation.schemes].join(", ")}]`);
      }
      problems.push(...(await bodyProblems(operation, request)));
      return problems;
    },
  };
}

async function bodyProblems(operation: Operation, request: ContractRequest): Promise<string[]> {
  if (request.raw.length === 0) return operation.bodyRequired ? ["the request body is required"] : [];
  const type = request.contentType?.split(";")[0].trim().toLowerCase() ?? "";
  if (operation.bodies.size === 0) return [`X's document describes no request body for ${operation.id}`];
  const { validate, schema } = operation.bodies.get(type) ?? {};
  if (!validate) return [`content type "${type}" is not one of [${[...operation.bodies.keys()].join(", ")}]`];
  let body: unknown;
  if (type === "application/json") {
    try {
      body = JSON.parse(request.raw.toString("utf8"));
    } catch {
      return ["the request body is not JSON"];
    }
  } else if (type === "multipart/form-data") {
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(request.raw), { headers: { "Content-Type": request.contentType! } }).formData();
    } catch {
      return ["the request body is not multipart/form-data"];
    }
    const fields: Record<string, unknown> = {};
    for (const [name, value] of form.entries()) {
      // A file part is the `format: binary` string of OpenAPI 3.0.
      fields[name] = typeof value === "string" ? typed(value, schema?.properties?.[name]) : "(binary)";
    }
    body = fields;
  }
  return validate(body) ? [] : messages("body", validate);
}

/** A query or path value typed as its schema says (X takes arrays as one comma-separated value). */
function typed(raw: string, schema: Json): unknown {
  const type = schema?.type ?? (schema?.anyOf || schema?.oneOf ? undefined : schema?.$ref ? "string" : undefined);
  if (type === "array") return raw.split(",").map((item) => typed(item, schema.items));
  if ((type === "integer" || type === "number") && /^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if (type === "boolean" && (raw === "true" || raw === "false")) return raw === "true";
  return raw;
}

function messages(where: string, validate: ValidateFunction): string[] {
  return (validate.errors ?? []).map((error) => {
    const at = `${where}${error.instancePath.replace(/\//g, ".")}`;
    const extra = error.keyword === "additionalProperties" ? ` "${(error.params as { additionalProperty: string }).additionalProperty}"` : "";
    if (error.keyword === "enum") return `${at} ${JSON.stringify(error.data)} is not one of the values X's document allows`;
    return `${at} ${error.message}${extra}`;
  });
}
