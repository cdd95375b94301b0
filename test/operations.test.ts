/**
 * Operations (docs/operations.md): request logs that carry the request id, route template, status,
 * account and key prefix but never a key, an Authorization value or a body; `X-Request-Id`
 * on every answer; `GET /metrics` off by default, behind its token, counting requests,
 * rate-limit refusals and jobs; `GET /healthz` and `GET /readyz` (a Redis that is not there).
 * Each case runs in process and over HTTP (harness transports).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { pino } from "pino";
import { z } from "zod";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { pollUntil } from "./support/child_node.ts";
import { keyProcedure, router } from "../core/trpc.ts";
import { createHttpApp } from "../adapters/http/create_http_app.ts";
import { observedFetch } from "../adapters/http/observed_fetch.ts";
import { enqueueJob } from "../core/jobs/jobs_queries.ts";

const METRICS_TOKEN = "metrics-test-token-0123456789";

/** A pino logger whose lines land in `lines` (raw text) for the assertions. */
function capturingLogger() {
  const lines: string[] = [];
  const logger = pino({ level: "debug" }, { write: (line: string) => void lines.push(line) });
  return { logger, lines, records: () => lines.map((line) => JSON.parse(line)) };
}

describe("request logs and X-Request-Id", () => {
  let harness: Harness;
  const capture = capturingLogger();
  before(async () => {
    harness = await startHarness({ config: { logger: capture.logger, metricsToken: METRICS_TOKEN, runJobs: true } });
  });
  after(() => harness.close());

  test("a run's log names request, route, status, account and key prefix, and holds no key, Authorization or body", async () => {
    const { world } = harness;
    const invalidKey = `sxk_${"Z".repeat(30)}NotARealKey`;
    const bodyMarker = `body-marker-${Date.now()}`;
    for (const transport of transports(harness)) {
      const id = `client-${transport.name}.1:ok`;
      const ok = await transport.request("GET", "/v1/tags", { key: world.keys.write, headers: { "X-Request-Id": id } });
      assert.equal(ok.status, 200);
      assert.equal(ok.headers.get("x-request-id"), id, "a well-formed client id is echoed");
      const bad = await transport.request("GET", "/v1/tags", { key: invalidKey, headers: { "X-Request-Id": "has spaces, not ok" } });
      assert.equal(bad.status, 401);
      assert.match(bad.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/, "a malformed id is replaced");
      const long = await transport.request("GET", "/v1/tags", { key: world.keys.read, headers: { "X-Request-Id": "x".repeat(129) } });
      assert.notEqual(long.headers.get("x-request-id"), "x".repeat(129));
      const failed = await transport.request("POST", "/v1/tags", { key: world.keys.write, body: { name: 42, note: bodyMarker } });
      assert.equal(failed.status, 400);
      const byId = await transport.request("GET", "/v1/scheduled-posts/987654321", {
        key: world.keys.write,
        headers: { "X-Request-Id": `by-id-${transport.name}` },
      });
      assert.equal(byId.status, 404);
      // Every answer carries an id: tRPC, docs, unknown routes (inside and outside /v1), 405, operations.
      const answers = [
        await transport.request("GET", "/trpc/tags.list?input=%7B%7D", { key: world.keys.write }),
        await transport.request("GET", "/v1/docs"),
        await transport.request("GET", "/v1/no-such-route", { key: world.keys.write }),
        await transport.request("GET", "/no-such-route"),
        await transport.request("PUT", "/v1/tags", { key: world.keys.write }),
        await transport.request("GET", "/healthz"),
        await transport.request("GET", "/readyz"),
      ];
      for (const answer of answers) assert.match(answer.headers.get("x-request-id") ?? "", /^[A-Za-z0-9._:-]{1,128}$/, `status ${answer.status}`);
      assert.equal(answers[3].status, 404);
      assert.equal(answers[4].status, 405);
    }
    const text = capture.lines.join("");
    for (const secret of [world.keys.write, world.keys.read, invalidKey, "Bearer ", bodyMarker]) {
      assert.ok(!text.includes(secret), `the log must not contain "${secret.slice(0, 12)}…"`);
    }
    const records = capture.records();
    for (const name of ["in-process", "http"]) {
      const line = records.find((record) => record.req_id === `client-${name}.1:ok`);
      assert.ok(line, `a line for the ${name} request`);
      assert.equal(line.msg, "request");
      assert.equal(line.method, "GET");
      assert.equal(line.route, "/v1/tags");
      assert.equal(line.status, 200);
      assert.equal(typeof line.duration_ms, "number");
      assert.equal(line.account_id, world.accounts.main);
      assert.equal(line.key_prefix, world.keys.write.slice(0, 8));
      const byId = records.find((record) => record.req_id === `by-id-${name}`);
      assert.equal(byId?.route, "/v1/scheduled-posts/{id}", "the route template, not the raw path");
      assert.equal(byId?.status, 404);
    }
    const unauthenticated = records.filter((record) => record.msg === "request" && record.status === 401);
    assert.ok(unauthenticated.length >= 2);
    for (const record of unauthenticated) assert.equal(record.key_prefix, undefined, "no key prefix without a principal");
  });

  test("an unexpected failure gives an error line with the request id and the stack", async () => {
    const probe = router({
      broken: keyProcedure
        .meta({ openapi: { method: "GET", path: "/v1/probe/broken" } })
        .input(z.object({}))
        .query(() => {
          throw new Error("kaboom in the probe");
        }),
    });
    const fetch = observedFetch(createHttpApp(probe, harness.services), { logger: capture.logger });
    const headers = { Authorization: `Bearer ${harness.world.keys.write}` };
    for (const path of ["/v1/probe/broken", "/trpc/broken?input=%7B%7D"]) {
      const id = `boom-${path.length}`;
      const response = await fetch(new Request(`http://probe.test${path}`, { headers: { ...headers, "X-Request-Id": id } }));
      assert.equal(response.status, 500);
      assert.equal(response.headers.get("x-request-id"), id);
      const line = capture.records().find((record) => record.req_id === id && record.level === 50);
      assert.ok(line, `an error line for ${path}`);
      assert.match(line.err.stack, /kaboom in the probe/);
      assert.doesNotMatch(JSON.stringify((await response.json()) as unknown), /kaboom/, "the answer leaks nothing");
    }
  });

  test("GET /metrics needs its token and counts requests, rate-limit refusals and jobs", async () => {
    const [transport] = transports(harness);
    assert.equal((await transport.request("GET", "/metrics")).status, 401);
    assert.equal((await transport.request("GET", "/metrics", { headers: { Authorization: "Bearer wrong" } })).status, 401);
    // The throttled plan allows 30 reads a minute: the 31st is refused by its request bucket
    // (a minute boundary on the way may reset the window once, hence up to 65).
    let refused = 0;
    for (let i = 0; i < 65 && refused === 0; i++) {
      if ((await transport.request("GET", "/v1/tags", { key: harness.world.keys.throttled })).status === 429) refused++;
    }
    assert.ok(refused >= 1, "the throttled key was never refused");
    const { sql } = harness.services;
    // A job the runner runs (its claim lag is observed) and one it has no handler for (only counted as queued).
    const ran = await enqueueJob(sql, { kind: "purge_idempotency_keys" });
    await enqueueJob(sql, { kind: "ops_test_unhandled" });
    await pollUntil(
      "the job to be done",
      async () => {
        const [row] = await sql<{ status: string }[]>`select status from jobs where id = ${ran}`;
        return row.status === "done" ? true : undefined;
      },
      { timeoutMs: 30_000 },
    );
    const scrape = async () => await transport.request("GET", "/metrics", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    const scraped = await pollUntil(
      "the job's claim to be counted",
      async () => {
        const answer = await scrape();
        return /threadline_job_lag_seconds_count\{kind="purge_idempotency_keys"\} [1-9]/.test(answer.body) ? answer : undefined;
      },
      { timeoutMs: 10_000 },
    );
    assert.equal(scraped.status, 200);
    assert.match(scraped.headers.get("content-type") ?? "", /^text\/plain/);
    const text: string = scraped.body;
    assert.match(text, /threadline_http_requests_total\{route="\/v1\/tags",method="GET",status="200"\} [1-9]/);
    assert.match(text, /threadline_http_requests_total\{route="\/v1\/tags",method="GET",status="429"\} [1-9]/);
    assert.match(text, /threadline_http_request_duration_seconds_count\{route="\/v1\/tags",method="GET"\} [1-9]/);
    assert.match(text, /threadline_rate_limited_total\{bucket="[a-z_ ]+"\} [1-9]/);
    assert.match(text, /threadline_jobs\{kind="ops_test_unhandled",status="queued"\} 1/);
    assert.doesNotMatch(text, /987654321/, "no raw path in a label");
  });
});

describe("operations routes of a default instance", () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(() => harness.close());

  test("GET /metrics is off (404) unless METRICS_ENABLED or METRICS_TOKEN", async () => {
    for (const transport of transports(harness)) {
      const answer = await transport.request("GET", "/metrics");
      assert.equal(answer.status, 404);
      assert.equal(answer.body.error.code, "not_found");
    }
  });

  test("GET /healthz answers ok and GET /readyz checks the database, migrations and Redis", async () => {
    for (const transport of transports(harness)) {
      const health = await transport.request("GET", "/healthz");
      assert.equal(health.status, 200);
      assert.deepEqual(health.body, { status: "ok" });
      const ready = await transport.request("GET", "/readyz");
      assert.equal(ready.status, 200, JSON.stringify(ready.body));
      assert.equal(ready.body.status, "ok");
      assert.equal(ready.body.checks.database, "ok");
      assert.equal(ready.body.checks.migrations, "ok");
      assert.equal(ready.body.checks.redis, process.env.REDIS_URL ? "ok" : "not configured");
    }
  });
});

describe("readiness with Redis unreachable", () => {
  let harness: Harness;
  before(async () => {
    // Nothing listens on port 1.
    harness = await startHarness({ config: { redisUrl: "redis://127.0.0.1:1" } });
  });
  after(() => harness.close());

  test("GET /readyz answers 503 naming redis, while /healthz stays 200", async () => {
    for (const transport of transports(harness)) {
      const ready = await transport.request("GET", "/readyz");
      assert.equal(ready.status, 503, JSON.stringify(ready.body));
      assert.equal(ready.body.status, "unavailable");
      assert.deepEqual(ready.body.failed, ["redis"]);
      assert.equal(ready.body.checks.database, "ok");
      assert.equal((await transport.request("GET", "/healthz")).status, 200);
    }
  });
});
