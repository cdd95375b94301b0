/** Request buckets and their headers (spec: rule 3, Limits 1-2). */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { manualClock } from "./support/manual_clock.ts";
import { createKey } from "../core/auth/keys.ts";
import { userByEmail } from "../core/accounts/users.ts";
import { z } from "zod";
import { keyProcedure, router } from "../core/trpc.ts";
import { createHttpApp } from "../adapters/http/create_http_app.ts";

const epoch = (iso: string) => String(Date.parse(iso) / 1000);

describe("request buckets", () => {
  const clock = manualClock("2026-11-21T12:00:10Z");
  let harness: Harness;
  before(async () => {
    harness = await startHarness({ config: { clock } });
  });
  after(() => harness.close());

  test("every authenticated answer carries X-RateLimit-* and the IETF fields, errors included", async () => {
    for (const transport of transports(harness)) {
      const key = harness.world.keys.write;
      for (const [path, status] of [
        ["/v1/tags", 200],
        ["/v1/tags?limit=0", 400],
        [`/v1/tags?account_id=${harness.world.accounts.other_user}`, 404],
      ] as const) {
        const answer = await transport.request("GET", path, { key });
        assert.equal(answer.status, status, path);
        assert.equal(answer.headers.get("x-ratelimit-limit"), "3000", path);
        assert.match(answer.headers.get("x-ratelimit-remaining") ?? "", /^\d+$/);
        assert.equal(answer.headers.get("x-ratelimit-reset"), epoch("2026-11-21T12:01:00Z"));
        assert.equal(answer.headers.get("ratelimit-policy"), '"reads-minute";q=3000;w=60, "reads-day";q=200000;w=86400');
        assert.match(answer.headers.get("ratelimit") ?? "", /^"reads-minute";r=\d+;t=50, "reads-day";r=\d+;t=43190$/);
      }
    }
  });

  test("past the plan's reads per minute: 429 rate_limited with Retry-After until the next clock minute", async () => {
    const key = harness.world.keys.throttled;
    const [inProcess, http] = transports(harness);
    clock.set("2026-11-21T12:05:10Z");
    for (let i = 1; i <= 30; i++) {
      const answer = await (i % 2 ? inProcess : http).request("GET", "/v1/me", { key });
      assert.equal(answer.status, 200, `read ${i}`);
      assert.equal(answer.headers.get("x-ratelimit-limit"), "30");
      assert.equal(answer.headers.get("x-ratelimit-remaining"), String(30 - i));
    }
    const limited = await http.request("GET", "/v1/tags", { key });
    assert.equal(limited.status, 429);
    assert.equal(limited.body.error.code, "rate_limited");
    assert.equal(limited.body.error.retry_after, 50);
    assert.equal(limited.headers.get("retry-after"), "50");
    assert.equal(limited.headers.get("x-ratelimit-remaining"), "0");
    assert.equal(limited.headers.get("x-ratelimit-reset"), epoch("2026-11-21T12:06:00Z"));
    assert.match(limited.body.error.message, /30 reads per minute/);

    const write = await inProcess.request("POST", "/v1/tags", { key, body: { name: "writes have their own bucket" } });
    assert.equal(write.status, 201);
    assert.equal(write.headers.get("x-ratelimit-limit"), "10");

    clock.set("2026-11-21T12:05:59.999Z");
    assert.equal((await inProcess.request("GET", "/v1/me", { key })).status, 429);
    clock.set("2026-11-21T12:06:00Z");
    const next = await inProcess.request("GET", "/v1/me", { key });
    assert.equal(next.status, 200);
    assert.equal(next.headers.get("x-ratelimit-remaining"), "29");
  });

  test("budgets are per account owner across all of its keys", async () => {
    clock.set("2026-11-21T12:10:00Z");
    const bo = await userByEmail(harness.services.sql, "bo@demo.threadline.local");
    const second = await createKey(harness.services.sql, { userId: bo!.user_id, name: "second", scopes: ["read", "write"], prefix: "sxk_" });
    const [transport] = transports(harness);
    for (let i = 0; i < 10; i++) {
      const key = i % 2 ? second.key : harness.world.keys.throttled;
      assert.equal((await transport.request("POST", "/v1/tags", { key, body: { name: `shared-${i}` } })).status, 201, `write ${i}`);
    }
    const limited = await transport.request("POST", "/v1/tags", { key: second.key, body: { name: "eleventh" } });
    assert.equal(limited.status, 429);
    assert.equal(limited.body.error.code, "rate_limited");
    // Another owner's budget is untouched.
    assert.equal((await transport.request("POST", "/v1/tags", { key: harness.world.keys.write, body: { name: "someone else" } })).status, 201);
  });

  test("a write refused by its gate spends nothing", async () => {
    clock.set("2026-11-21T12:20:00Z");
    const [transport] = transports(harness);
    const before = await transport.request("GET", "/v1/me", { key: harness.world.keys.read });
    const refused = await transport.request("POST", "/v1/tags", { key: harness.world.keys.read, body: { name: "x" } });
    assert.equal(refused.status, 403);
    assert.equal(refused.headers.get("x-ratelimit-limit"), "1000");
    assert.equal(refused.headers.get("x-ratelimit-remaining"), "1000");
    assert.equal(Number(before.headers.get("x-ratelimit-remaining")), 2999);
  });
});

describe("day windows and extra units", () => {
  const clock = manualClock("2026-11-21T22:30:00Z");
  let harness: Harness;
  before(async () => {
    harness = await startHarness({ config: { clock } });
  });
  after(() => harness.close());

  test("the UTC-day window refuses once the day's reads are spent, until midnight UTC", async () => {
    const key = harness.world.keys.throttled;
    const owner = harness.world.accounts.throttled;
    // Spend all but one of the basic plan's 3,000 daily reads without 2,999 requests.
    await harness.services.requestCounters.consume([{ key: `rl:${owner}:reads:day`, limit: 3_000, windowSeconds: 86_400, cost: 2_999 }], clock.now());
    const [transport] = transports(harness);
    const last = await transport.request("GET", "/v1/me", { key });
    assert.equal(last.status, 200);
    assert.equal(last.headers.get("x-ratelimit-limit"), "3000", "the day window is now the tighter one");
    assert.equal(last.headers.get("x-ratelimit-remaining"), "0");
    assert.equal(last.headers.get("x-ratelimit-reset"), epoch("2026-11-22T00:00:00Z"));
    clock.set("2026-11-21T23:10:00Z");
    const refused = await transport.request("GET", "/v1/me", { key });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, "rate_limited");
    assert.equal(refused.body.error.retry_after, 50 * 60);
    assert.match(refused.body.error.message, /3000 reads per day/);
    clock.set("2026-11-22T00:00:00Z");
    assert.equal((await transport.request("GET", "/v1/me", { key })).status, 200);
  });

  test("enrichment units declared by a procedure have their own bucket, all or nothing with the write", async () => {
    clock.set("2026-11-22T08:00:00Z");
    const probe = router({
      enrich: keyProcedure
        .meta({ openapi: { method: "POST", path: "/v1/probe/enrich" }, units: { enrichment: 2 } })
        .input(z.object({}))
        .mutation(() => ({ data: { ok: true } })),
    });
    const app = createHttpApp(probe, harness.services);
    const send = () =>
      app.fetch(
        new Request("http://probe.test/v1/probe/enrich", {
          method: "POST",
          headers: { Authorization: `Bearer ${harness.world.keys.throttled}` },
          body: "{}",
        }),
      );
    // Basic: 5 enrichment units a minute, so two calls of 2 fit and the third does not.
    assert.equal((await send()).status, 200);
    const second = await send();
    assert.equal(second.status, 200);
    assert.equal(second.headers.get("x-ratelimit-remaining"), "8", "the write bucket counted both calls");
    // The fields describe the request's own bucket only, however many others it spends.
    assert.match(second.headers.get("ratelimit-policy") ?? "", /^"writes-minute";q=10;w=60, "writes-day";q=\d+;w=86400$/);
    assert.match(second.headers.get("ratelimit") ?? "", /^"writes-minute";r=8;t=60, "writes-day";r=\d+;t=57600$/);
    const third = await send();
    const body = await third.json();
    assert.equal(third.status, 429);
    assert.equal(body.error.code, "rate_limited");
    assert.equal(body.error.bucket, "enrichment");
    assert.equal(third.headers.get("x-ratelimit-remaining"), "8", "a refused call spends no write either");
  });
});

describe("when the shared counters are unreachable", () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness({ config: { faults: "counters", clock: manualClock("2026-11-21T13:00:05Z") } });
  });
  after(() => harness.close());

  test("request buckets fail open to a per-process limiter that still enforces the plan", async () => {
    const [transport] = transports(harness);
    for (let i = 0; i < 30; i++) assert.equal((await transport.request("GET", "/v1/me", { key: harness.world.keys.throttled })).status, 200);
    const limited = await transport.request("GET", "/v1/me", { key: harness.world.keys.throttled });
    assert.equal(limited.status, 429);
    assert.equal(limited.body.error.code, "rate_limited");
  });
});

describe("several server processes", {
  skip: process.env.DATABASE_URL && process.env.REDIS_URL ? false : "needs DATABASE_URL and REDIS_URL: processes share buckets through Redis",
}, () => {
  test("two processes on one database and Redis share one bucket", async () => {
    const clock = manualClock("2026-11-21T14:00:01Z");
    const first = await startHarness({ config: { clock } });
    const second = await startHarness({ share: first, config: { clock } });
    try {
      const key = first.world.keys.throttled;
      for (let i = 0; i < 30; i++) {
        const answer = await transports(i % 2 ? first : second)[1].request("GET", "/v1/me", { key });
        assert.equal(answer.status, 200, `read ${i}`);
      }
      for (const harness of [first, second]) {
        const answer = await transports(harness)[1].request("GET", "/v1/me", { key });
        assert.equal(answer.status, 429);
        assert.equal(answer.body.error.code, "rate_limited");
      }
    } finally {
      await second.close();
      await first.close();
    }
  });
});
