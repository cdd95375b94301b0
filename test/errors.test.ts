/** The error envelope and the codes every surface shares (spec: Errors; ARCHITECTURE: Errors). */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { startHarness, type Harness } from "./support/harness.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { keyProcedure, router } from "../core/trpc.ts";
import { createHttpApp } from "../adapters/http/create_http_app.ts";
import { ERROR_STATUS } from "../core/errors.ts";
import postgres from "postgres";
import { toApiFailure } from "../core/api_failure.ts";

let harness: Harness;
before(async () => {
  harness = await startHarness();
});
after(() => harness.close());

test("the codes table carries every code of the spec's table with its status", () => {
  const spec: Record<string, number> = {
    invalid_parameter: 400,
    invalid_request: 400,
    invalid_media: 400,
    media_not_uploaded: 400,
    unsupported_media_type: 400,
    media_too_large: 400,
    fetch_failed: 400,
    url_not_allowed: 400,
    range_too_large: 400,
    system_list_read_only: 400,
    system_list_not_supported: 400,
    mirror_rejected: 400,
    unauthorized: 401,
    invalid_api_key: 401,
    insufficient_scope: 403,
    writes_main_account_only: 403,
    editor_restricted: 403,
    onboarding_required: 403,
    post_quota_exceeded: 403,
    x_premium_required: 403,
    cap_reached: 403,
    account_not_found: 404,
    not_found: 404,
    list_not_found: 404,
    worker_not_found: 404,
    agent_not_found: 404,
    idempotency_key_reuse: 409,
    dataset_not_ready: 409,
    feed_limit_reached: 409,
    rate_limited: 429,
    media_quota_exceeded: 429,
    ai_credits_exhausted: 429,
    ai_action_limited: 429,
    lookup_quota_exceeded: 429,
    collection_quota_exceeded: 429,
    dm_limit_reached: 429,
    internal_error: 500,
    upstream_error: 502,
    generation_failed: 502,
    x_publish_failed: 502,
    media_not_configured: 503,
    accounts_unavailable: 503,
    upstream_unavailable: 503,
    upstream_timeout: 504,
  };
  for (const [code, status] of Object.entries(spec)) assert.equal(ERROR_STATUS[code as keyof typeof ERROR_STATUS], status, code);
});

describe("unexpected failures", () => {
  const probe = router({
    broken: keyProcedure
      .meta({ openapi: { method: "GET", path: "/v1/probe/broken" } })
      .input(z.object({}))
      .query(() => {
        throw new Error("connection string postgres://secret@db");
      }),
  });

  test("answer 500 internal_error without leaking the internal message, on REST and tRPC", async () => {
    const app = createHttpApp(probe, harness.services);
    const originalError = console.error;
    console.error = () => {};
    try {
      const rest = await app.fetch(new Request("http://probe.test/v1/probe/broken", { headers: { Authorization: `Bearer ${harness.world.keys.write}` } }));
      const body = await rest.json();
      assert.equal(rest.status, 500);
      assert.deepEqual(body, { error: { code: "internal_error", message: "Internal server error" } });
      assert.match(rest.headers.get("x-ratelimit-limit") ?? "", /^\d+$/);
      const trpc = await app.fetch(
        new Request("http://probe.test/trpc/broken?input=%7B%7D", { headers: { Authorization: `Bearer ${harness.world.keys.write}` } }),
      );
      const trpcBody = await trpc.json();
      assert.equal(trpc.status, 500);
      assert.equal(trpcBody.error.data.code, "internal_error");
      assert.doesNotMatch(JSON.stringify(trpcBody), /secret/);
    } finally {
      console.error = originalError;
    }
  });

  test("toApiFailure keeps the unexpected error for the log only", () => {
    const failure = toApiFailure(new TypeError("boom"));
    assert.equal(failure.status, 500);
    assert.equal(failure.code, "internal_error");
    assert.ok(failure.unexpected instanceof TypeError);
    assert.doesNotMatch(JSON.stringify(failure.body), /boom/);
  });

  test("a database that cannot be reached answers 503 upstream_unavailable with Retry-After, and is still logged", async () => {
    // The real driver's error: nothing listens on port 1 of loopback.
    const unreachable = postgres("postgres://postgres@127.0.0.1:1/postgres", { max: 1, connect_timeout: 2, onnotice: () => {} });
    const error = await unreachable`select 1`.then(
      () => assert.fail("port 1 answered"),
      (caught: unknown) => caught,
    );
    await unreachable.end({ timeout: 0 });
    for (const thrown of [error, Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" })]) {
      const failure = toApiFailure(thrown);
      assert.equal(failure.status, 503, String(thrown));
      assert.equal(failure.code, "upstream_unavailable");
      assert.equal(failure.headers["Retry-After"], "2");
      assert.equal(failure.unexpected, thrown, "the outage is logged");
      assert.doesNotMatch(JSON.stringify(failure.body), /127\.0\.0\.1|administrator/);
    }
    // A query error of the database itself is not an outage.
    assert.equal(toApiFailure(Object.assign(new Error("syntax error"), { code: "42601" })).status, 500);
  });
});

describeMatrix(({ name, transport }) => {
  describe(`routing over ${name}`, () => {
    const call = (method: string, path: string) => transport(harness).request(method, path, { key: harness.world.keys.write });

    test("an unknown /v1 path answers 404 not_found in the envelope", async () => {
      const answer = await call("GET", "/v1/nothing-here");
      assert.equal(answer.status, 404);
      assert.equal(answer.body.error.code, "not_found");
      assert.match(answer.body.error.message, /\/v1\/nothing-here/);
    });

    test("a known path with another method answers 405 method_not_allowed with Allow", async () => {
      const answer = await call("PUT", "/v1/tags");
      assert.equal(answer.status, 405);
      assert.equal(answer.body.error.code, "method_not_allowed");
      assert.equal(answer.headers.get("allow"), "GET, POST");
      const item = await call("GET", `/v1/tags/${harness.world.tags[0]}`);
      assert.equal(item.status, 405);
      assert.equal(item.headers.get("allow"), "PATCH, DELETE");
    });

    test("paths are case-sensitive", async () => {
      const answer = await call("GET", "/v1/TAGS");
      assert.equal(answer.status, 404);
      assert.equal(answer.body.error.code, "not_found");
    });

    test("a bodiless POST is an empty object, not a 415", async () => {
      const answer = await transport(harness).request("POST", "/v1/tags", { key: harness.world.keys.write });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.error.code, "invalid_parameter");
      assert.match(answer.body.error.message, /"name"/);
    });

    test("a message quotes at most 100 characters of what was sent: a 3 KB path, a 100,000-character time zone, a long instruction", async () => {
      const path = `/v1/${"p".repeat(3_000)}`;
      const route = await call("GET", path);
      assert.equal(route.status, 404);
      assert.ok(route.body.error.message.length < 200, route.body.error.message);
      assert.ok(route.body.error.message.includes(`"${path.slice(0, 100)}…"`), route.body.error.message);
      const timezone = await transport(harness).request("PATCH", "/v1/queue-settings", {
        key: harness.world.keys.write,
        body: { timezone: "Z".repeat(100_000) },
      });
      assert.equal(timezone.status, 400);
      assert.equal(timezone.body.error.code, "invalid_parameter");
      assert.ok(JSON.stringify(timezone.body).length < 400, `${JSON.stringify(timezone.body).length} bytes`);
      assert.match(timezone.body.error.message, /"timezone"/);
      const instruction = `make it sound like ${"a pirate captain on a long voyage ".repeat(14)}`.slice(0, 500);
      const refused = await transport(harness).request("POST", "/v1/tools/inline-edit", {
        key: harness.world.keys.write,
        body: { text: "We shipped the new dashboard today.", instruction },
      });
      assert.equal(refused.status, 503, JSON.stringify(refused.body));
      assert.ok(!refused.body.error.message.includes(instruction.slice(0, 150)), refused.body.error.message);
      assert.ok(refused.body.error.message.length <= 500);
    });

    test("query booleans and JSON strings are not coerced into something else", async () => {
      const answer = await call("GET", "/v1/tags?limit=20abc");
      assert.equal(answer.status, 400);
      assert.equal(answer.body.error.code, "invalid_parameter");
    });
  });
});
