/**
 * The conformance sweep, part 2 (docs/operations.md): bad input on every operation of the
 * OpenAPI document, generated from each operation's schemas (fast-check, fixed seed).
 * A value the document calls invalid answers `400 invalid_parameter`; anything else
 * answers a documented status, never a 5xx and never a hang. All cases run in process;
 * every seventh also over the listening server.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Answer, type Harness } from "./support/harness.ts";
import {
  answerProblems,
  badCases,
  buildRequest,
  describeFailure,
  send,
  sweepOperations,
  validBody,
  wellFormedPath,
  wholeBodyCases,
} from "./support/openapi_sweep.ts";
import { SWEEP_SEED } from "./support/schema_values.ts";
import { responseProblems } from "./support/response_schemas.ts";
import { createUser } from "../core/accounts/users.ts";
import { createKey } from "../core/auth/keys.ts";

let harness: Harness;
let key: string;
before(async () => {
  harness = await startHarness();
  // The sweep's own user, on the largest plan: thousands of requests never meet a 429
  // that would hide a validation answer (the throttled rules are swept in part 1).
  const { userId } = await createUser(
    harness.services.sql,
    { name: "Sweep", plan: "enterprise" },
    { username: "sweep_bot", name: "Sweep Bot", xPremium: true },
  );
  key = (await createKey(harness.services.sql, { userId, name: "sweep", scopes: ["read", "write"], prefix: harness.services.settings.keyPrefix })).key;
});
after(() => harness.close());

const operations = sweepOperations().filter((operation) => !operation.public);
let sent = 0;
const started = Date.now();

describe(`bad input on every operation (SWEEP_SEED=${SWEEP_SEED})`, () => {
  for (const operation of operations) {
    test(`${operation.label}: every bad value answers 400 invalid_parameter or a documented 4xx, never a 5xx`, async () => {
      const [inProcess, http] = transports(harness);
      const failures: string[] = [];
      const cases = badCases(operation, { Authorization: `Bearer ${key}` });
      for (const [index, sweepCase] of cases.entries()) {
        // Over HTTP only what an HTTP server takes: Node answers 431 itself to a URL over 16 KiB.
        const overHttp = index % 7 === 0 && sweepCase.request.path.length < 8_000;
        for (const transport of overHttp ? [inProcess, http] : [inProcess]) {
          sent++;
          let answer: Awaited<ReturnType<typeof send>>;
          try {
            answer = await send(transport, sweepCase.request);
          } catch (error) {
            failures.push(describeFailure(sweepCase.request, undefined, [String(error)], `${transport.name}: ${sweepCase.label}`));
            continue;
          }
          const problems = answerProblems(sweepCase.request, answer, { upstream: sweepCase.expect.kind === "any" });
          if (!/^\d+$/.test(answer.headers.get("x-ratelimit-limit") ?? "")) problems.push("no X-RateLimit-* on an authenticated answer");
          if (sweepCase.expect.kind === "invalid") {
            if (answer.status !== 400 || answer.body?.error?.code !== "invalid_parameter") problems.push("expected 400 invalid_parameter");
            // The message names the field (its top-level key at least).
            const field = sweepCase.expect.field?.split(/[.[]/)[0];
            if (field && answer.status === 400 && !String(answer.body?.error?.message).includes(field)) problems.push(`the message does not name "${field}"`);
          }
          if (problems.length) failures.push(describeFailure(sweepCase.request, answer, problems, `${transport.name}: ${sweepCase.label}`));
        }
      }
      assert.ok(cases.length > 0, "no case was generated");
      assert.deepEqual(failures, [], `${failures.length} of ${cases.length} cases failed:\n${failures.join("\n")}`);
    });
  }

  after(() => console.log(`# conformance sweep: ${operations.length} operations, ${sent} bad requests in ${Date.now() - started} ms`));
});

describe("whole-request rules on every operation with a body", () => {
  const withBody = operations.filter((operation) => operation.bodySchema);

  async function sweepWholeBodies(check: (answer: Answer) => string[]): Promise<void> {
    const failures: string[] = [];
    for (const operation of withBody) {
      for (const sweepCase of wholeBodyCases(operation, { Authorization: `Bearer ${key}` })) {
        const answer = await send(transports(harness)[0], sweepCase.request);
        const problems = [...answerProblems(sweepCase.request, answer), ...check(answer)];
        if (problems.length) failures.push(describeFailure(sweepCase.request, answer, problems, sweepCase.label));
      }
    }
    assert.deepEqual(failures, [], failures.join("\n"));
  }

  test("a body that is not one JSON object (malformed, an array, null, a string, form-encoded) answers 400 invalid_parameter", () =>
    sweepWholeBodies((answer) => (answer.status === 400 && answer.body?.error?.code === "invalid_parameter" ? [] : ["expected 400 invalid_parameter"])));

  test("that 400 carries X-RateLimit-* (an authenticated answer)", () =>
    sweepWholeBodies((answer) => (/^\d+$/.test(answer.headers.get("x-ratelimit-limit") ?? "") ? [] : ["no X-RateLimit-*"])));

  test("no key and a malformed JSON body answers 401 unauthorized (authentication before the body)", async () => {
    const failures: string[] = [];
    for (const operation of withBody) {
      const request = buildRequest(operation, { path: wellFormedPath(operation), rawBody: '{"a": ' });
      const answer = await send(transports(harness)[0], request);
      if (answer.status !== 401 || answer.body?.error?.code !== "unauthorized") failures.push(describeFailure(request, answer, ["expected 401 unauthorized"]));
    }
    assert.deepEqual(failures, []);
  });

  test("a JSON body over 1 MiB answers 413 payload_too_large", async () => {
    const failures: string[] = [];
    for (const operation of withBody) {
      const body = { ...validBody(operation), padding: "z".repeat(1024 * 1024) };
      const request = buildRequest(operation, { path: wellFormedPath(operation), body, headers: { Authorization: `Bearer ${key}` } });
      const answer = await send(transports(harness)[1], request);
      if (answer.status !== 413 || answer.body?.error?.code !== "payload_too_large")
        failures.push(describeFailure(request, answer, ["expected 413 payload_too_large"]));
    }
    assert.deepEqual(failures, []);
  });
});

describe("the response check itself", () => {
  test("refuses a body that breaks the documented schema and an undocumented status", () => {
    assert.deepEqual(responseProblems("GET", "/v1/tags", 200, "application/json", { data: [], pagination: { page: 1, limit: 20, has_more: false } }), []);
    assert.notDeepEqual(responseProblems("GET", "/v1/tags", 200, "application/json", { data: [{ id: "x" }] }), []);
    assert.notDeepEqual(responseProblems("GET", "/v1/tags", 418, "application/json", {}), []);
    assert.notDeepEqual(responseProblems("GET", "/v1/tags", 400, "application/json", { error: { code: "not_a_listed_code", message: "m" } }), []);
  });
});
