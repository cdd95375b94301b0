/** AI credits: pools, the ledger, charge/refund/settle and the credit headers (spec: AI credits, Credit headers, rule 9). */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { manualClock } from "./support/manual_clock.ts";
import { chargesCredits, inAccount, keyProcedure, router } from "../core/trpc.ts";
import { createHttpApp } from "../adapters/http/create_http_app.ts";
import { serveProbe, type ProbeServer } from "./support/probe_server.ts";
import { addMonths, creditPeriodAt } from "../core/time/credit_period.ts";
import { chargeCall } from "../core/credits/credit_call.ts";
import { chargeCredits, creditState, renewExpiredPools, settleCredits } from "../core/credits/credits.ts";
import { keptForReference } from "../core/credits/credits_queries.ts";
import { createContextInner } from "../core/context.ts";
import { ApiError } from "../core/errors.ts";
import { createKey } from "../core/auth/keys.ts";
import { createUser } from "../core/accounts/users.ts";
import { planById } from "../core/plans/plans.ts";

describe("credit periods", () => {
  test("a monthly pool renews on the billing day, clamped to short months", () => {
    const anchor = new Date("2026-01-31T10:00:00Z");
    assert.equal(addMonths(anchor, 1).toISOString(), "2026-02-28T10:00:00.000Z");
    const period = creditPeriodAt({ period: "monthly", credits: 1 }, anchor, new Date("2026-03-05T00:00:00Z"));
    assert.deepEqual([period.start.toISOString(), period.end.toISOString()], ["2026-02-28T10:00:00.000Z", "2026-03-31T10:00:00.000Z"]);
    const edge = creditPeriodAt({ period: "monthly", credits: 1 }, anchor, new Date("2026-03-31T10:00:00Z"));
    assert.equal(edge.start.toISOString(), "2026-03-31T10:00:00.000Z");
  });

  test("a daily pool renews at midnight UTC", () => {
    const period = creditPeriodAt({ period: "daily", credits: 1 }, new Date("2026-01-01T15:00:00Z"), new Date("2026-11-21T23:59:59Z"));
    assert.deepEqual([period.start.toISOString(), period.end.toISOString()], ["2026-11-21T00:00:00.000Z", "2026-11-22T00:00:00.000Z"]);
  });
});

describe("priced procedures", () => {
  const clock = manualClock(Date.now());
  let harness: Harness;
  let fail = false;
  const probe = router({
    flat: keyProcedure
      .meta({ openapi: { method: "POST", path: "/v1/probe/flat" }, credits: { flat: 3 }, idempotent: true })
      .input(z.object({ text: z.string().min(1), account_id: z.string().optional() }))
      .use(inAccount)
      .use(chargesCredits)
      .mutation(({ input }) => {
        if (fail) throw new ApiError("upstream_error", "The model failed before output");
        return { data: { text: input.text.toUpperCase() } };
      }),
    metered: keyProcedure
      .meta({ openapi: { method: "POST", path: "/v1/probe/metered" }, credits: { metered: 1 } })
      .input(z.object({ cost: z.number().int() }))
      .use(chargesCredits)
      .mutation(async ({ ctx, input }) => {
        await chargeCall(ctx, input.cost);
        if (fail) throw new ApiError("upstream_error", "Failed after output");
        return { data: { cost: input.cost } };
      }),
    free: keyProcedure
      .meta({ openapi: { method: "POST", path: "/v1/probe/free" }, credits: "free" })
      .input(z.object({}))
      .use(chargesCredits)
      .mutation(() => ({ data: { ok: true } })),
    background: keyProcedure
      .meta({ openapi: { method: "POST", path: "/v1/probe/background" }, credits: { flat: 25 }, successStatus: 202 })
      .input(z.object({}))
      .use(chargesCredits)
      .mutation(() => ({ data: { status: "queued" } })),
  });
  let server: ProbeServer;
  const call = (path: string, key: string, body: unknown, headers: Record<string, string> = {}) => server.post(path, key, body, headers);
  const owner = (id: string, plan = "ultra") => ({ ownerId: id, plan: planById(plan), billingAnchor: new Date(0) });
  let ctx: ReturnType<typeof createContextInner>;

  before(async () => {
    harness = await startHarness({ config: { clock } });
    server = await serveProbe(probe, harness.services);
    ctx = createContextInner({ services: harness.services });
  });
  after(async () => {
    await server.close();
    await harness.close();
  });

  const ledgerBalances = async (ownerId: string) => {
    const [row] = await harness.services.sql<{ spent: number; ledger: number }[]>`
      select p.spent, coalesce((select -sum(amount) from credit_ledger l where l.owner_id = p.owner_id and l.period_start = p.period_start and entry <> 'grant'), 0)::int as ledger
        from credit_pools p where p.owner_id = ${ownerId}`;
    assert.equal(row.ledger, row.spent, "the ledger of the period sums to the pool's running total");
  };

  test("a flat-priced call keeps its price and says so in X-Credits-*", async () => {
    const before = await call("/v1/probe/free", harness.world.keys.write, {});
    const remainingBefore = Number(before.headers.get("x-credits-remaining"));
    const answer = await call("/v1/probe/flat", harness.world.keys.write, { text: "hi" });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get("x-credits-charged"), "3");
    assert.equal(Number(answer.headers.get("x-credits-remaining")), remainingBefore - 3);
    assert.match(answer.headers.get("x-credits-reset") ?? "", /^\d{10}$/);
    await ledgerBalances(harness.world.accounts.main);
  });

  test("a call that fails before output is refunded in full", async () => {
    const start = Number((await call("/v1/probe/free", harness.world.keys.write, {})).headers.get("x-credits-remaining"));
    fail = true;
    try {
      const answer = await call("/v1/probe/flat", harness.world.keys.write, { text: "hi" });
      assert.equal(answer.status, 502);
      assert.equal(answer.body.error.code, "upstream_error");
      assert.equal(answer.headers.get("x-credits-charged"), "0");
      assert.equal(Number(answer.headers.get("x-credits-remaining")), start);
      const metered = await call("/v1/probe/metered", harness.world.keys.write, { cost: 4 });
      assert.equal(metered.headers.get("x-credits-charged"), "0");
    } finally {
      fail = false;
    }
    const entries = await harness.services.sql`select entry, amount from credit_ledger where owner_id = ${harness.world.accounts.main} and entry = 'refund'`;
    assert.ok(entries.length >= 2);
    await ledgerBalances(harness.world.accounts.main);
  });

  test("a request that fails validation is never charged", async () => {
    const state = await creditState(ctx, owner(harness.world.accounts.main));
    const answer = await call("/v1/probe/flat", harness.world.keys.write, { text: "" });
    assert.equal(answer.status, 400);
    assert.equal(answer.headers.get("x-credits-charged"), null);
    assert.equal((await creditState(ctx, owner(harness.world.accounts.main))).spent, state.spent);
  });

  test("free calls and 202 answers omit X-Credits-Charged but send the other two", async () => {
    for (const path of ["/v1/probe/free", "/v1/probe/background"]) {
      const answer = await call(path, harness.world.keys.write, {});
      assert.equal(answer.headers.get("x-credits-charged"), null, path);
      assert.match(answer.headers.get("x-credits-remaining") ?? "", /^\d+$/, path);
      assert.match(answer.headers.get("x-credits-reset") ?? "", /^\d+$/, path);
    }
  });

  test("a metered call keeps what the handler charged", async () => {
    const answer = await call("/v1/probe/metered", harness.world.keys.write, { cost: 2 });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get("x-credits-charged"), "2");
  });

  test("an empty pool answers 429 ai_credits_exhausted with the spec's fields and Retry-After", async () => {
    const answer = await call("/v1/probe/flat", harness.world.keys.no_credits, { text: "hi" });
    assert.equal(answer.status, 429);
    assert.equal(answer.body.error.code, "ai_credits_exhausted");
    assert.equal(answer.body.error.credits_required, 3);
    assert.equal(answer.body.error.credits_remaining, 0, JSON.stringify(answer.body));
    assert.equal(typeof answer.body.error.reset_at, "number");
    assert.equal(Number(answer.headers.get("retry-after")), answer.body.error.reset_at - Math.floor(clock.now() / 1000));
    const metered = await call("/v1/probe/metered", harness.world.keys.no_credits, { cost: 1 });
    assert.equal(metered.body.error.code, "ai_credits_exhausted");
  });

  test("a replayed idempotent call is not charged again", async () => {
    const first = await call("/v1/probe/flat", harness.world.keys.write, { text: "once" }, { "Idempotency-Key": "credit-once" });
    const spent = (await creditState(ctx, owner(harness.world.accounts.main))).spent;
    const again = await call("/v1/probe/flat", harness.world.keys.write, { text: "once" }, { "Idempotency-Key": "credit-once" });
    assert.equal(again.headers.get("idempotency-replayed"), "true");
    assert.equal(again.headers.get("x-credits-charged"), first.headers.get("x-credits-charged"));
    assert.equal((await creditState(ctx, owner(harness.world.accounts.main))).spent, spent);
  });

  test("concurrent charges never overdraw the pool", async () => {
    const user = await createUser(harness.services.sql, { name: "Racer", plan: "basic" }, { username: "credit_racer", name: "Racer" });
    const { key } = await createKey(harness.services.sql, { userId: user.userId, name: "k", scopes: ["read", "write"], prefix: "sxk_" });
    const answers = await Promise.all(Array.from({ length: 12 }, () => call("/v1/probe/background", key, {})));
    // Basic: 200 credits a month, 25 per call.
    assert.equal(answers.filter((answer) => answer.status === 202 || answer.status === 200).length, 8);
    assert.equal(answers.filter((answer) => answer.status === 429).length, 4);
    await ledgerBalances(user.mainAccountId);
  });

  test("settling a background call brings what it kept to its real cost", async () => {
    const user = await createUser(harness.services.sql, { name: "Settler", plan: "pro" }, { username: "credit_settler", name: "Settler" });
    const who = owner(user.mainAccountId, "pro");
    await chargeCredits(ctx, who, { amount: 25, reference: "cover:1" });
    await settleCredits(ctx, who, { reference: "cover:1", actual: 9 });
    assert.equal(await keptForReference(harness.services.sql, who.ownerId, "cover:1"), 9);
    await settleCredits(ctx, who, { reference: "cover:1", actual: 30 });
    assert.equal(await keptForReference(harness.services.sql, who.ownerId, "cover:1"), 30);
    assert.equal((await creditState(ctx, who)).remaining, 1_000 - 30);
    await ledgerBalances(who.ownerId);
  });

  test("a pool renews when its period ends, by the clock or by the reset job", async () => {
    const user = await createUser(
      harness.services.sql,
      { name: "Trialist", plan: "trial", subscriptionStatus: "trialing" },
      { username: "credit_trial", name: "T" },
    );
    const who = owner(user.mainAccountId, "trial");
    await chargeCredits(ctx, who, { amount: 50, reference: "use-all" });
    assert.equal((await creditState(ctx, who)).remaining, 0);
    clock.advance(86_400_000);
    assert.equal((await creditState(ctx, who)).remaining, 50);
    clock.advance(-86_400_000);
    await harness.services
      .sql`update credit_pools set period_end = now() - interval '1 second', period_start = now() - interval '1 day', spent = 7 where owner_id = ${user.mainAccountId}`;
    assert.ok((await renewExpiredPools(harness.services.sql, new Date())) >= 1);
    const [pool] = await harness.services.sql<
      { spent: number; period_end: Date }[]
    >`select spent, period_end from credit_pools where owner_id = ${user.mainAccountId}`;
    assert.equal(pool.spent, 0);
    assert.ok(pool.period_end.getTime() > Date.now());
  });

  test("the ledger is append-only", async () => {
    await assert.rejects(harness.services.sql`update credit_ledger set amount = 0`, /append-only/);
    await assert.rejects(harness.services.sql`delete from credit_ledger`, /append-only/);
  });

  test("GET /v1/me returns the plan and the credit pool", async () => {
    const answer = await transports(harness)[1].request("GET", "/v1/me", { key: harness.world.keys.trial });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.data.plan.id, "trial");
    assert.equal(answer.body.data.credits.period, "daily");
    assert.equal(answer.body.data.credits.pool, 50);
    assert.equal(answer.body.data.credits.remaining, 50);
  });
});

describe("when the credit ledger cannot be verified", () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness({ config: { faults: "counters" } });
  });
  after(() => harness.close());

  test("a priced call is refused with 429 ai_credits_exhausted and null balance fields", async () => {
    const probe = router({
      flat: keyProcedure
        .meta({ openapi: { method: "POST", path: "/v1/probe/flat" }, credits: { flat: 1 } })
        .input(z.object({}))
        .use(chargesCredits)
        .mutation(() => ({ data: { ok: true } })),
    });
    const response = await createHttpApp(probe, harness.services).fetch(
      new Request("http://probe.test/v1/probe/flat", {
        method: "POST",
        headers: { Authorization: `Bearer ${harness.world.keys.write}` },
        body: "{}",
      }),
    );
    const body = await response.json();
    assert.equal(response.status, 429);
    assert.equal(body.error.code, "ai_credits_exhausted");
    assert.equal(body.error.credits_remaining, null);
    assert.equal(body.error.reset_at, null);
    assert.equal(response.headers.get("retry-after"), null);
    const me = await transports(harness)[0].request("GET", "/v1/me", { key: harness.world.keys.write });
    assert.equal(me.status, 200);
    assert.equal(me.body.data.credits, null);
  });
});

test("a clock behind the billing date reads the first period, not the one before it", () => {
  const anchor = new Date("2026-11-21T10:00:00Z");
  const period = creditPeriodAt({ period: "monthly", credits: 1 }, anchor, new Date("2026-11-21T09:59:59Z"));
  assert.deepEqual([period.start.toISOString(), period.end.toISOString()], ["2026-11-21T10:00:00.000Z", "2026-12-21T10:00:00.000Z"]);
});
