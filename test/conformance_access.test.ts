/**
 * The conformance sweep, part 1 (ARCHITECTURE: the conformance sweep; docs/operations.md):
 * every operation of the OpenAPI document is held to the auth, scope, rate-limit and
 * tenancy rules with no per-endpoint list. Runs through both transports.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Answer, type Harness, type Transport } from "./support/harness.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import {
  addressesObject,
  answerProblems,
  buildRequest,
  describeFailure,
  send,
  sweepOperations,
  validBody,
  wellFormedPath,
  type SweepOperation,
  type SweepRequest,
} from "./support/openapi_sweep.ts";
import { realPathIds } from "./support/real_ids.ts";

let harness: Harness;
before(async () => {
  harness = await startHarness();
});
after(() => harness.close());

const operations = sweepOperations();
const keyed = operations.filter((operation) => !operation.public);
const idAddressed = keyed.filter((operation) => addressesObject(operation) && operation.accountIdIn);

test("the document has operations to sweep, each with an id-free request the sweep can build", () => {
  assert.ok(keyed.length >= 50, `only ${keyed.length} keyed operations`);
  for (const operation of keyed) assert.ok(buildRequest(operation, { path: wellFormedPath(operation), body: validBody(operation) }).path.startsWith("/v1/"));
});

function auth(key: string): Record<string, string> {
  return { Authorization: `Bearer ${key}` };
}

/** A well-formed request of `operation`, with `account_id` set where the operation takes it. */
function requestOf(
  operation: SweepOperation,
  options: { key?: string; path?: Record<string, string>; accountId?: string; headers?: Record<string, string>; fullBody?: boolean },
): SweepRequest {
  const query: Record<string, string> = {};
  let body = validBody(operation, { all: options.fullBody });
  if (options.accountId && operation.accountIdIn === "query") query.account_id = options.accountId;
  if (options.accountId && operation.accountIdIn === "body") body = { ...body, account_id: options.accountId };
  const headers = { ...(options.key ? auth(options.key) : {}), ...options.headers };
  return buildRequest(operation, { path: options.path ?? wellFormedPath(operation), query, body, headers });
}

function assertRateHeaders(answer: Answer, where: string): void {
  for (const name of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) {
    assert.match(answer.headers.get(name) ?? "", /^\d+$/, `${where}: no ${name}`);
  }
}

/**
 * Sends the request with the smallest valid body; when that body breaks a rule across
 * fields (`400 invalid_parameter`, which comes before any lookup), sends every field instead.
 */
async function sendValid(
  transport: Transport,
  operation: SweepOperation,
  options: Parameters<typeof requestOf>[1],
): Promise<{ request: SweepRequest; answer: Answer }> {
  let request = requestOf(operation, options);
  let answer = await send(transport, request);
  if (answer.status === 400 && operation.bodySchema) {
    request = requestOf(operation, { ...options, fullBody: true });
    answer = await send(transport, request);
  }
  return { request, answer };
}

async function expectCode(
  transport: Transport,
  sent: SweepRequest | { request: SweepRequest; answer: Answer },
  status: number,
  code: string | undefined,
  options: { rateHeaders: boolean },
): Promise<Answer> {
  const { request, answer } = "answer" in sent ? sent : { request: sent, answer: await send(transport, sent) };
  const problems = answerProblems(request, answer);
  if (answer.status !== status) problems.push(`expected ${status}${code ? ` ${code}` : ""}`);
  else if (code && answer.body?.error?.code !== code) problems.push(`expected code ${code}`);
  assert.deepEqual(problems, [], describeFailure(request, answer, problems, transport.name));
  if (options.rateHeaders) assertRateHeaders(answer, request.path);
  return answer;
}

describeMatrix(({ index: transportIndex, name }) => {
  const transport = () => transports(harness)[transportIndex];
  describe(`auth and scope on every operation over ${name}`, () => {
    for (const operation of keyed) {
      test(`${operation.label}: no key 401 unauthorized, a revoked key 401 invalid_api_key${operation.write ? ", a read-only key 403 insufficient_scope" : ""}`, async () => {
        await expectCode(transport(), requestOf(operation, {}), 401, "unauthorized", { rateHeaders: false });
        await expectCode(transport(), requestOf(operation, { headers: { Authorization: "Basic c3dlZXA=" } }), 401, "unauthorized", { rateHeaders: false });
        await expectCode(transport(), requestOf(operation, { key: harness.world.keys.revoked }), 401, "invalid_api_key", { rateHeaders: false });
        if (operation.write)
          await expectCode(transport(), requestOf(operation, { key: harness.world.keys.read }), 403, "insufficient_scope", { rateHeaders: true });
      });
    }
    for (const operation of operations.filter((operation) => operation.public)) {
      test(`${operation.label} is public`, async () => {
        const answer = await send(transport(), requestOf(operation, {}));
        assert.equal(answer.status, 200);
      });
    }
  });
});

describe("tenancy on every operation", () => {
  const transport = () => transports(harness)[0];
  const realIds = new Map<string, Record<string, string>>();
  before(async () => {
    // Found before any write of this file, so every id names a live object of the main user.
    for (const operation of idAddressed)
      realIds.set(operation.label, await realPathIds(transport(), operation, harness.world.keys.write, harness.world, operations));
  });

  for (const operation of idAddressed) {
    test(`${operation.label}: another user's key on the main user's real object answers 404, never 2xx or 403`, async () => {
      const { request, answer } = await sendValid(transport(), operation, { key: harness.world.keys.other_user, path: realIds.get(operation.label) });
      const problems = answerProblems(request, answer);
      if (answer.status !== 404) problems.push("expected a 404 that does not tell the object exists");
      assert.deepEqual(problems, [], describeFailure(request, answer, problems));
      assertRateHeaders(answer, operation.label);
    });
  }

  for (const operation of keyed.filter((operation) => operation.accountIdIn)) {
    test(`${operation.label}: another user's account_id answers 404 account_not_found`, async () => {
      const sent = await sendValid(transport(), operation, {
        key: harness.world.keys.write,
        path: realIds.get(operation.label),
        accountId: harness.world.accounts.other_user,
      });
      await expectCode(transport(), sent, 404, "account_not_found", { rateHeaders: true });
    });
  }

  for (const operation of keyed.filter((operation) => operation.accountIdIn && operation.write)) {
    if (operation.meta.sharedWrites) {
      test(`${operation.label}: a write to a viewer-shared account is allowed (sharedWrites)`, async () => {
        const { request, answer } = await sendValid(transport(), operation, {
          key: harness.world.keys.write,
          path: realIds.get(operation.label),
          accountId: harness.world.accounts.shared,
        });
        const problems = answerProblems(request, answer);
        if (answer.body?.error?.code === "writes_main_account_only") problems.push("refused a write the operation's meta allows");
        assert.deepEqual(problems, [], describeFailure(request, answer, problems));
      });
      continue;
    }
    test(`${operation.label}: a write to a viewer-shared account answers 403 writes_main_account_only`, async () => {
      const sent = await sendValid(transport(), operation, {
        key: harness.world.keys.write,
        path: realIds.get(operation.label),
        accountId: harness.world.accounts.shared,
      });
      await expectCode(transport(), sent, 403, "writes_main_account_only", { rateHeaders: true });
    });
  }
});

describe("a throttled key", () => {
  test("once its buckets are spent, every operation answers 429 rate_limited with Retry-After and X-RateLimit-*, before validation", async () => {
    const transport = transports(harness)[0];
    const key = harness.world.keys.throttled;
    // Fixed windows on the clock minute: a run that crosses a minute starts again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const minute = Math.floor(Date.now() / 60_000);
      for (const method of ["GET", "POST"]) {
        for (let i = 0; i < 200; i++) {
          const answer = await transport.request(method, method === "GET" ? "/v1/me" : "/v1/tags", { key, body: method === "GET" ? undefined : { name: "" } });
          if (answer.status === 429) break;
        }
      }
      const failures: string[] = [];
      for (const operation of keyed) {
        // A bad value where the operation has one: the limit still answers first.
        const body = operation.bodySchema ? { account_id: "not-a-number" } : undefined;
        const request = buildRequest(operation, { path: wellFormedPath(operation), query: { limit: "0" }, body, headers: auth(key) });
        const answer = await send(transport, request);
        const problems = answerProblems(request, answer);
        if (answer.status !== 429 || answer.body?.error?.code !== "rate_limited") problems.push("expected 429 rate_limited");
        if (!/^\d+$/.test(answer.headers.get("retry-after") ?? "") || typeof answer.body?.error?.retry_after !== "number")
          problems.push("no Retry-After / retry_after");
        if (!/^\d+$/.test(answer.headers.get("x-ratelimit-remaining") ?? "")) problems.push("no X-RateLimit-*");
        if (problems.length) failures.push(describeFailure(request, answer, problems));
      }
      if (failures.length === 0) return;
      if (Math.floor(Date.now() / 60_000) === minute) assert.fail(failures.join("\n"));
    }
    assert.fail("three runs crossed a minute boundary");
  });
});
