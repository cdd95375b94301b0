/**
 * Platform helpers exercised through the real HTTP server before any area uses them
 * (issue "Platform II", Done when): allowances and caps behind probe procedures that
 * only this test mounts, and the instance lifecycle with the job runner.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { startHarness, type Harness } from "./support/harness.ts";
import { manualClock } from "./support/manual_clock.ts";
import { serveProbe, type ProbeServer } from "./support/probe_server.ts";
import { keyProcedure, requirePrincipal, router } from "../core/trpc.ts";
import { requireAllowances } from "../core/limits/allowances.ts";
import { dailyActionCap, LIVE_LOOKUPS, PLATFORM_LIVE_DATA } from "../core/limits/allowance_catalog.ts";
import { actionCapError, lookupQuotaError } from "../core/limits/allowance_errors.ts";
import { createThreadline } from "../mod.ts";

const probe = router({
  lookup: keyProcedure
    .meta({ openapi: { method: "POST", path: "/v1/probe/lookup" } })
    .input(z.object({ units: z.number().int() }))
    .mutation(async ({ ctx, input }) => {
      const owner = requirePrincipal(ctx).mainAccountId;
      const outcome = await requireAllowances(
        ctx,
        owner,
        [
          { spec: LIVE_LOOKUPS, units: input.units },
          { spec: PLATFORM_LIVE_DATA, units: input.units },
        ],
        lookupQuotaError,
      );
      return { data: { remaining: outcome.allowances[0].remaining } };
    }),
  triage: keyProcedure
    .meta({ openapi: { method: "POST", path: "/v1/probe/triage" } })
    .input(z.object({}))
    .mutation(async ({ ctx }) => {
      const principal = requirePrincipal(ctx);
      await requireAllowances(ctx, principal.mainAccountId, [{ spec: dailyActionCap("triage", principal.plan.id), units: 1 }], actionCapError);
      return { data: { ok: true } };
    }),
});

describe("allowances through the HTTP server", () => {
  const clock = manualClock("2026-11-21T23:00:00Z");
  let harness: Harness;
  let server: ProbeServer;
  before(async () => {
    harness = await startHarness({ config: { clock } });
    server = await serveProbe(probe, harness.services);
  });
  after(async () => {
    await server.close();
    await harness.close();
  });

  test("300 live lookups a day, all or nothing, then 429 lookup_quota_exceeded with limit until midnight UTC", async () => {
    const key = harness.world.keys.write;
    assert.equal((await server.post("/v1/probe/lookup", key, { units: 298 })).body.data.remaining, 2);
    const tooMany = await server.post("/v1/probe/lookup", key, { units: 3 });
    assert.equal(tooMany.status, 429);
    assert.equal(tooMany.body.error.code, "lookup_quota_exceeded");
    assert.equal(tooMany.body.error.limit, 300);
    assert.equal(tooMany.body.error.reset_at, Date.parse("2026-11-22T00:00:00Z") / 1000);
    assert.equal(tooMany.headers.get("retry-after"), "3600");
    assert.equal((await server.post("/v1/probe/lookup", key, { units: 2 })).status, 200, "the refused call took nothing");
    clock.set("2026-11-22T00:00:00Z");
    assert.equal((await server.post("/v1/probe/lookup", key, { units: 1 })).body.data.remaining, 299);
  });

  test("the per-plan daily cap answers 429 ai_action_limited with scope account", async () => {
    const key = harness.world.keys.trial;
    for (let i = 0; i < 20; i++) assert.equal((await server.post("/v1/probe/triage", key, {})).status, 200, `run ${i + 1}`);
    // The trial plan also allows 20 writes a minute: the next call goes into the next minute.
    clock.advance(60_000);
    const capped = await server.post("/v1/probe/triage", key, {});
    assert.equal(capped.status, 429);
    assert.equal(capped.body.error.code, "ai_action_limited");
    assert.equal(capped.body.error.scope, "account");
    assert.equal(typeof capped.body.error.reset_at, "number");
    assert.ok(capped.body.error.retry_after > 0);
  });
});

describe("allowances when the counters cannot be verified", () => {
  let harness: Harness;
  let server: ProbeServer;
  before(async () => {
    harness = await startHarness({ config: { faults: "counters" } });
    server = await serveProbe(probe, harness.services);
  });
  after(async () => {
    await server.close();
    await harness.close();
  });

  test("refuse the call: lookup_quota_exceeded without limit and with a short retry_after", async () => {
    const answer = await server.post("/v1/probe/lookup", harness.world.keys.write, { units: 1 });
    assert.equal(answer.status, 429);
    assert.equal(answer.body.error.code, "lookup_quota_exceeded");
    assert.equal("limit" in answer.body.error, false);
    assert.ok(answer.body.error.retry_after <= 60);
    const capped = await server.post("/v1/probe/triage", harness.world.keys.write, {});
    assert.equal(capped.status, 429);
    assert.equal(capped.body.error.code, "ai_action_limited");
  });
});

describe("the instance lifecycle", () => {
  test("start() with runJobs runs the job runner and close() stops it and refuses later requests", async () => {
    const threadline = createThreadline({ databaseUrl: undefined, dataDir: null, runJobs: true });
    await threadline.start();
    const docs = await threadline.fetch(new Request("http://local.test/v1/docs"));
    assert.equal(docs.status, 200);
    const started = Date.now();
    await threadline.close();
    assert.ok(Date.now() - started < 10_000, "close() returned promptly");
    await assert.rejects(threadline.fetch(new Request("http://local.test/v1/docs")), /closed/);
  });
});
