/**
 * `GET /v1/docs` and the OpenAPI document (ARCHITECTURE: Decisions, Docs): public,
 * negotiated (OpenAPI 3.1 JSON, HTML, Markdown by default), complete for every REST
 * procedure, and the same document from `npm run openapi` and tRPC `meta.docs`.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { AnyRouter } from "@trpc/server";
import { createThreadline } from "../mod.ts";
import { appRouter } from "../routers/index.ts";
import { BEYOND_SPEC_EXTENSION, restOperations, type RestOperation } from "../core/docs/openapi.ts";
import { startHarness, transports, type Harness, type Transport } from "./support/harness.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { childEnv, runNode } from "./support/child_node.ts";

/** The shared tool beside the repository (a clone has `shared/` next to it). */
const SPEC_COVERAGE = fileURLToPath(new URL("../../shared/tools/spec-coverage.mjs", import.meta.url));

type Json = Record<string, any>;

const operations: RestOperation[] = restOperations(appRouter as AnyRouter);
const ERROR_REF = "#/components/schemas/Error";

/** The answer to a GET that carries no request headers at all (the real CLI's way: supplement 1.4). */
async function bareGet(harness: Harness, transport: Transport, path: string): Promise<{ status: number; contentType: string; text: string }> {
  if (transport.name === "in-process") {
    const response = await harness.threadline.fetch(new Request(`http://in-process.test${path}`));
    return { status: response.status, contentType: response.headers.get("content-type") ?? "", text: await response.text() };
  }
  // node:http sends only Host and Connection; fetch() would add Accept: */* and more.
  const url = new URL(path, harness.baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method: "GET", agent: false }, (incoming) => {
      let text = "";
      incoming.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      incoming.on("end", () => resolve({ status: incoming.statusCode ?? 0, contentType: String(incoming.headers["content-type"] ?? ""), text }));
      incoming.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

/** Every `$ref` inside `value`. */
function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (key === "$ref" && typeof item === "string") found.push(item);
      else refsIn(item, found);
    }
  }
  return found;
}

/** The error codes a response schema enumerates (`error.code` enums anywhere inside it). */
function codesIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) codesIn(item, found);
  else if (value && typeof value === "object") {
    const code = (value as Json).properties?.error?.properties?.code;
    if (Array.isArray(code?.enum)) found.push(...code.enum);
    for (const item of Object.values(value)) codesIn(item, found);
  }
  return found;
}

/** `node`, or what its local `$ref` (`#/components/...`) points at. */
function resolved(document: Json, node: Json | undefined): Json | undefined {
  let current = node;
  for (let hops = 0; current && typeof current.$ref === "string" && hops < 10; hops++) {
    const ref: string = current.$ref;
    assert.ok(ref.startsWith("#/"), `only local references are expected, got ${ref}`);
    current = ref
      .slice(2)
      .split("/")
      .reduce<any>((parent, part) => parent?.[part.replace(/~1/g, "/").replace(/~0/g, "~")], document);
    assert.ok(current, `${ref} does not resolve`);
  }
  return current;
}

function operationIn(document: Json, operation: RestOperation): Json {
  const found = document.paths?.[operation.path]?.[operation.method.toLowerCase()];
  assert.ok(found, `${operation.method} ${operation.path} (${operation.procedurePath}) is missing from the document`);
  return found;
}

/** The operation's responses by status, each followed through a `$ref` to `#/components/responses`. */
function responsesOf(document: Json, operation: RestOperation): Json {
  const raw: Json = operationIn(document, operation).responses ?? {};
  return Object.fromEntries(Object.entries(raw).map(([status, response]) => [status, resolved(document, response)]));
}

function label(operation: RestOperation): string {
  return `${operation.method} ${operation.path}`;
}

describe("GET /v1/docs", { timeout: 120_000 }, () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(async () => {
    await harness?.close();
  });

  test("the router has REST operations to document", () => {
    // Guards every loop below against passing vacuously.
    assert.ok(operations.length >= 6, `only ${operations.length} REST operations found`);
  });

  describeMatrix(({ name }) => {
    describe(`through ${name}`, () => {
      const via = () => transports(harness).find((transport) => transport.name === name)!;

      test("with no request headers at all answers 200 Markdown naming every REST path", async () => {
        const answer = await bareGet(harness, via(), "/v1/docs");
        assert.equal(answer.status, 200);
        assert.match(answer.contentType, /^text\/markdown/);
        assert.ok(!answer.text.trimStart().startsWith("{"), "the default answer must not be JSON");
        for (const operation of operations) {
          assert.ok(answer.text.includes(`${operation.method} ${operation.path}`), `the quick reference does not mention ${label(operation)}`);
        }
      });

      test("is public: an invalid or malformed Authorization header does not make it fail", async () => {
        for (const authorization of ["Bearer sxk_not_a_real_key_0000000000000000", "Basic dXNlcjpwYXNz", "Bearer"]) {
          const answer = await via().request("GET", "/v1/docs", { headers: { Authorization: authorization } });
          assert.equal(answer.status, 200, `Authorization "${authorization}" answered ${answer.status}`);
          assert.match(answer.headers.get("content-type") ?? "", /^text\/markdown/);
          assert.equal(answer.headers.get("x-ratelimit-limit"), null, "a public answer carries no rate-limit headers");
        }
      });

      test("a valid key is accepted too and changes nothing", async () => {
        const answer = await via().request("GET", "/v1/docs", { key: harness.world.keys.read });
        assert.equal(answer.status, 200);
        assert.match(answer.headers.get("content-type") ?? "", /^text\/markdown/);
      });

      test("Accept: application/json answers the OpenAPI 3.1 JSON", async () => {
        const answer = await via().request("GET", "/v1/docs", { headers: { Accept: "application/json" } });
        assert.equal(answer.status, 200);
        assert.match(answer.headers.get("content-type") ?? "", /^application\/json/);
        assert.equal(typeof answer.body, "object");
        assert.match(answer.body.openapi, /^3\.1/);
        assert.ok(answer.body.paths["/v1/tags"]);
      });

      test("?format=openapi answers the OpenAPI 3.1 JSON whatever the Accept header", async () => {
        for (const accept of [undefined, "text/html", "*/*"]) {
          const answer = await via().request("GET", "/v1/docs?format=openapi", { headers: accept ? { Accept: accept } : {} });
          assert.equal(answer.status, 200);
          assert.match(answer.headers.get("content-type") ?? "", /^application\/json/);
          assert.match(answer.body.openapi, /^3\.1/, `Accept ${accept ?? "(none)"}`);
        }
      });

      test("?format=html and Accept: text/html answer the HTML page", async () => {
        const browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";
        for (const [path, headers] of [
          ["/v1/docs?format=html", {}],
          ["/v1/docs", { Accept: "text/html" }],
          ["/v1/docs", { Accept: browserAccept }],
        ] as const) {
          const answer = await via().request("GET", path, { headers });
          assert.equal(answer.status, 200);
          assert.match(answer.headers.get("content-type") ?? "", /^text\/html/, `${path} ${JSON.stringify(headers)}`);
          assert.equal(typeof answer.body, "string");
          assert.match(answer.body, /^<!doctype html>/i);
          for (const operation of operations) assert.ok(answer.body.includes(operation.path), `the HTML page lacks ${operation.path}`);
        }
      });

      test("?format=markdown answers Markdown even to Accept: application/json", async () => {
        const answer = await via().request("GET", "/v1/docs?format=markdown", { headers: { Accept: "application/json" } });
        assert.equal(answer.status, 200);
        assert.match(answer.headers.get("content-type") ?? "", /^text\/markdown/);
      });
    });
  });

  describe("the OpenAPI document", () => {
    let document: Json;
    before(async () => {
      const answer = await transports(harness)[0].request("GET", "/v1/docs?format=openapi");
      assert.equal(answer.status, 200);
      document = answer.body;
    });

    test("is the same document through both transports and createThreadline().openapi()", async () => {
      const overHttp = await transports(harness)[1].request("GET", "/v1/docs", { headers: { Accept: "application/json" } });
      assert.deepEqual(overHttp.body, document);
      assert.deepEqual(JSON.parse(JSON.stringify(createThreadline().openapi())), document);
    });

    test("has a path for every procedure with REST meta, and no other /v1 operation besides /v1/docs", () => {
      const expected = new Set(operations.map(label));
      for (const operation of operations) operationIn(document, operation);
      for (const [path, methods] of Object.entries(document.paths as Json)) {
        for (const method of Object.keys(methods)) {
          const name = `${method.toUpperCase()} ${path}`;
          if (name === "GET /v1/docs") continue;
          assert.ok(expected.has(name), `${name} is documented but no procedure serves it`);
        }
      }
    });

    test("POST /v1/tags documents 201 and no 200", () => {
      const create = operations.find((operation) => operation.method === "POST" && operation.path === "/v1/tags");
      assert.ok(create, "tags.create has no REST meta");
      const responses = responsesOf(document, create);
      assert.ok(responses["201"], "201 missing");
      assert.equal(responses["200"], undefined);
      assert.ok(refsIn(responses["201"]).length > 0 || responses["201"].content, "the 201 response has no body schema");
    });

    test("every authenticated operation uses bearerAuth and documents 401, 429 and 500 with the Error envelope", () => {
      for (const operation of operations) {
        const target = operationIn(document, operation);
        assert.ok(
          Array.isArray(target.security) && target.security.some((requirement: Json) => "bearerAuth" in requirement),
          `${label(operation)} has no bearerAuth security`,
        );
        for (const status of ["401", "429", "500"]) {
          const response = responsesOf(document, operation)[status];
          assert.ok(response, `${label(operation)} lacks ${status}`);
          const schema = response.content?.["application/json"]?.schema;
          assert.ok(refsIn(schema).includes(ERROR_REF), `${label(operation)} ${status} does not reference ${ERROR_REF}`);
        }
        const responses = responsesOf(document, operation);
        assert.deepEqual(new Set(codesIn(responses["401"])), new Set(["unauthorized", "invalid_api_key"]), label(operation));
        assert.ok(codesIn(responses["429"]).includes("rate_limited"), `${label(operation)} 429 lacks rate_limited`);
        assert.ok(resolved(document, responses["429"].headers?.["Retry-After"]), `${label(operation)} 429 lacks Retry-After`);
      }
      assert.ok(document.components?.schemas?.Error, "components.schemas.Error is missing");
    });

    test("write operations list insufficient_scope under 403", () => {
      const writes = operations.filter((operation) => operation.method !== "GET");
      assert.ok(writes.length >= 3);
      for (const operation of writes) {
        const forbidden = responsesOf(document, operation)["403"];
        assert.ok(forbidden, `${label(operation)} lacks 403`);
        assert.ok(codesIn(forbidden).includes("insufficient_scope"), `${label(operation)} 403 lacks insufficient_scope`);
      }
      for (const operation of operations.filter((o) => o.method === "GET")) {
        assert.ok(!codesIn(responsesOf(document, operation)["403"] ?? {}).includes("insufficient_scope"), `${label(operation)} is a read`);
      }
    });

    test("operations taking account_id list account_not_found (404) and accounts_unavailable (503)", () => {
      const scoped = operations.filter((operation) => operation.inputKeys.includes("account_id"));
      assert.ok(
        scoped.some((operation) => operation.path === "/v1/tags"),
        "GET/POST /v1/tags take account_id",
      );
      for (const operation of scoped) {
        const responses = responsesOf(document, operation);
        assert.ok(codesIn(responses["404"] ?? {}).includes("account_not_found"), `${label(operation)} 404 lacks account_not_found`);
        assert.ok(codesIn(responses["503"] ?? {}).includes("accounts_unavailable"), `${label(operation)} 503 lacks accounts_unavailable`);
      }
    });

    test("the legacy subscription bodies are documented under 403 and 500", () => {
      for (const operation of operations) {
        const responses = responsesOf(document, operation);
        for (const status of ["403", "500"]) {
          assert.ok(refsIn(responses[status]).includes("#/components/schemas/LegacyError"), `${label(operation)} ${status} lacks LegacyError`);
        }
      }
    });

    test("GET /v1/docs is documented as public (security: [])", () => {
      assert.deepEqual(document.paths["/v1/docs"]?.get?.security, []);
    });

    test("components.securitySchemes.bearerAuth is HTTP bearer", () => {
      const scheme = document.components?.securitySchemes?.bearerAuth;
      assert.equal(scheme?.type, "http");
      assert.equal(scheme?.scheme, "bearer");
    });

    test("X-RateLimit-Reset is documented as Unix epoch seconds on every authenticated success", () => {
      for (const operation of operations) {
        const responses = responsesOf(document, operation);
        const success = Object.keys(responses).find((status) => status.startsWith("2"));
        assert.ok(success, `${label(operation)} has no success response`);
        const reset = resolved(document, responses[success].headers?.["X-RateLimit-Reset"]);
        assert.ok(reset, `${label(operation)} ${success} lacks X-RateLimit-Reset`);
        assert.match(reset.description, /epoch seconds/i);
        assert.equal(reset.schema?.type, "integer");
      }
      assert.match(document.info.description, /X-RateLimit-Reset[^\n]*epoch seconds/i);
    });

    test("spec-coverage finds the identity and tag endpoints served", {
      skip: existsSync(SPEC_COVERAGE) ? false : `no ${SPEC_COVERAGE}: shared/ is not beside this clone`,
    }, async () => {
      const result = await runNode([SPEC_COVERAGE, "-"], { input: JSON.stringify(document), timeoutMs: 30_000 });
      assert.equal(result.code, 0, result.stderr);
      const missing = new Set(
        result.stdout
          .split("\n")
          .filter((line) => line.startsWith("missing "))
          .flatMap((line) => line.slice(line.indexOf(": ") + 2).split(", ")),
      );
      assert.match(result.stdout, /spec endpoints: \d+\/\d+ served/);
      for (const endpoint of ["GET /v1/accounts", "GET /v1/me", "GET /v1/tags", "POST /v1/tags", "PATCH /v1/tags/{id}", "DELETE /v1/tags/{id}"]) {
        assert.ok(!missing.has(endpoint), `spec-coverage reports ${endpoint} missing`);
      }
      // Every operation beyond the inventory says why it is served (x-beyond-spec), and only those.
      // The tool may print path parameters by name or as `{}`: both sides are compared as `{}`.
      const anonymous = (label: string) => label.replace(/\{[^}]*\}/g, "{}");
      const beyond = (/^beyond the inventory: (.*)$/m.exec(result.stdout)?.[1] ?? "").split(", ").filter(Boolean).map(anonymous).sort();
      const marked = Object.entries(document.paths as Record<string, Record<string, Record<string, unknown>>>)
        .flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ label: `${method.toUpperCase()} ${path}`, operation })))
        .filter(({ operation }) => typeof operation[BEYOND_SPEC_EXTENSION] === "string")
        .map(({ label }) => anonymous(label))
        .sort();
      assert.deepEqual(beyond, marked, "paths beyond the inventory are exactly the ones marked x-beyond-spec");
    });
  });

  test("npm run openapi prints the document's paths without starting a server or opening a database", async () => {
    const scratch = await mkdtemp(join(tmpdir(), "tl-docs-openapi-"));
    const dataDir = join(scratch, "data");
    try {
      const result = await runNode(["--import", "tsx", "adapters/cli/main.ts", "openapi"], {
        env: childEnv({ DATA_DIR: dataDir, PUBLIC_URL: undefined }),
        timeoutMs: 60_000,
      });
      assert.equal(result.code, 0, `exit ${result.code}; stderr: ${result.stderr}`);
      const printed = JSON.parse(result.stdout) as Json;
      assert.match(printed.openapi, /^3\.1/);
      const expected = createThreadline().openapi() as Json;
      assert.deepEqual(Object.keys(printed.paths).sort(), Object.keys(expected.paths).sort());
      for (const [path, methods] of Object.entries(expected.paths as Json)) {
        assert.deepEqual(Object.keys(printed.paths[path]).sort(), Object.keys(methods).sort(), path);
      }
      await assert.rejects(stat(dataDir), { code: "ENOENT" }, "openapi created the data directory: it opened a database");
      assert.doesNotMatch(result.stdout + result.stderr, /listening/i);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });

  describe("tRPC meta.docs", () => {
    test("answers the OpenAPI document without a key", async () => {
      const response = await fetch(`${harness.baseUrl}/trpc/meta.docs`);
      assert.equal(response.status, 200);
      const body = (await response.json()) as Json;
      const served = await transports(harness)[0].request("GET", "/v1/docs?format=openapi");
      assert.match(body.result.data.openapi.openapi, /^3\.1/);
      assert.deepEqual(body.result.data.openapi, served.body);
    });

    test("answers even with an invalid key (it is public)", async () => {
      const response = await fetch(`${harness.baseUrl}/trpc/meta.docs`, { headers: { Authorization: "Bearer sxk_invalid" } });
      assert.equal(response.status, 200);
      const body = (await response.json()) as Json;
      assert.ok(body.result.data.openapi.paths["/v1/tags"]);
    });

    test("answers the Markdown quick reference for format: markdown", async () => {
      const input = encodeURIComponent(JSON.stringify({ format: "markdown" }));
      const response = await fetch(`${harness.baseUrl}/trpc/meta.docs?input=${input}`);
      assert.equal(response.status, 200);
      const body = (await response.json()) as Json;
      const markdown = await bareGet(harness, transports(harness)[0], "/v1/docs");
      assert.equal(body.result.data.markdown, markdown.text);
    });
  });
});
