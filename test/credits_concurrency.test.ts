/**
 * AI credits under one owner's concurrent calls: charges run side by
 * side without a per-owner lock, yet never overdraw the pool, never lose a charge, and
 * announce `credits.low` once.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, type Harness } from "./support/harness.ts";
import { withCredits } from "../core/credits/credit_call.ts";
import { chargeCredits, creditState } from "../core/credits/credits.ts";
import { createContextInner } from "../core/context.ts";
import { ApiError } from "../core/errors.ts";
import { createUser } from "../core/accounts/users.ts";
import { planById } from "../core/plans/plans.ts";
import type { Principal } from "../core/request_state/principal.ts";
import { putCreditsLowThreshold } from "../core/events/event_settings_queries.ts";

describe("one owner's concurrent charges", () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(async () => {
    await harness.close();
  });

  /** A fresh basic-plan user (200 credits a month) with `spend` already kept, so `200 - spend` remain. */
  const ownerWith = async (username: string, spend: number) => {
    const user = await createUser(harness.services.sql, { name: username, plan: "basic" }, { username, name: username });
    const owner = { ownerId: user.mainAccountId, plan: planById("basic"), billingAnchor: new Date(0) };
    const ctx = createContextInner({ services: harness.services });
    await chargeCredits(ctx, owner, { amount: spend, reference: `${username}:setup`, procedure: "test.setup" });
    assert.equal((await creditState(ctx, owner)).remaining, 200 - spend);
    // withCredits reads only the owner from the principal.
    const principal = { mainAccountId: owner.ownerId, plan: owner.plan, billingAnchor: owner.billingAnchor } as unknown as Principal;
    return { user, owner, principal };
  };

  /** One flat-priced AI call through the credit step exactly as `chargesCredits` runs it. */
  const aiCall = async (principal: Principal, price: number) => {
    const ctx = createContextInner({ services: harness.services });
    try {
      await withCredits(ctx, principal, { pricing: { flat: price }, procedure: "test.concurrent", background: false }, async () => {
        // The model's turn: every call is in flight before any finishes.
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { ok: true };
      });
      return { status: 200, charged: ctx.responseHeaders.get("X-Credits-Charged"), remaining: Number(ctx.responseHeaders.get("X-Credits-Remaining")) };
    } catch (error) {
      if (error instanceof ApiError) return { status: 429, code: error.code, remaining: error.extra.credits_remaining };
      throw error;
    }
  };

  const ledger = async (ownerId: string) => {
    const [row] = await harness.services.sql<{ spent: number; ledger: number; charged: number; remaining: number }[]>`
      select p.spent, p.allowance + p.bonus - p.spent as remaining,
             coalesce((select -sum(amount) from credit_ledger l where l.owner_id = p.owner_id and l.period_start = p.period_start and entry <> 'grant'), 0)::int as ledger,
             (select count(*) from credit_ledger l where l.owner_id = p.owner_id and l.procedure = 'test.concurrent' and entry = 'charge')::int as charged
        from credit_pools p where p.owner_id = ${ownerId}`;
    return row;
  };

  test("200 concurrent calls against a pool covering 150: exactly 150 succeed, 50 get 429, the ledger equals the charges", async () => {
    const { owner, principal } = await ownerWith("credit_crowd", 50);
    const answers = await Promise.all(Array.from({ length: 200 }, () => aiCall(principal, 1)));
    const ok = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 429);
    assert.equal(ok.length, 150);
    assert.equal(refused.length, 50);
    assert.ok(
      refused.every((answer) => answer.code === "ai_credits_exhausted"),
      JSON.stringify(refused[0]),
    );
    assert.ok(ok.every((answer) => answer.charged === "1" && answer.remaining >= 0 && answer.remaining < 150));
    // Each success saw the pool just after its own charge: 149 down to 0, each once.
    assert.deepEqual(
      ok.map((answer) => Number(answer.remaining)).sort((a, b) => a - b),
      Array.from({ length: 150 }, (_, i) => i),
    );
    const row = await ledger(owner.ownerId);
    assert.equal(row.charged, 150, "one ledger charge per successful call");
    assert.equal(row.remaining, 0, "the pool is spent to zero, never below");
    assert.equal(row.spent, 200);
    assert.equal(row.ledger, row.spent, "the ledger sums to the pool's running total");
  });

  test("uneven prices never overdraw: what is kept is exactly what the ledger holds", async () => {
    const { owner, principal } = await ownerWith("credit_uneven", 50);
    const prices = Array.from({ length: 120 }, (_, i) => 1 + (i % 3));
    const answers = await Promise.all(prices.map((price) => aiCall(principal, price)));
    const kept = answers.reduce((sum, answer, i) => sum + (answer.status === 200 ? prices[i] : 0), 0);
    assert.ok(answers.every((answer) => answer.status === 200 || answer.status === 429));
    const row = await ledger(owner.ownerId);
    assert.ok(row.remaining >= 0, `the pool went negative: ${row.remaining}`);
    assert.ok(row.remaining < 3, `a refused call could still have been covered: ${row.remaining} remain`);
    assert.equal(row.spent, 50 + kept);
    assert.equal(row.ledger, row.spent);
  });

  test("credits.low is recorded exactly once when concurrent charges cross the threshold", async () => {
    const { user, owner, principal } = await ownerWith("credit_low_crowd", 0);
    await putCreditsLowThreshold(harness.services.sql, user.userId, 120, new Date());
    const answers = await Promise.all(Array.from({ length: 150 }, () => aiCall(principal, 1)));
    assert.equal(answers.filter((answer) => answer.status === 200).length, 150);
    const events = await harness.services.sql<{ data: { remaining: number; threshold: number } }[]>`
      select data from events where type = 'credits.low' and account_id = ${owner.ownerId}`;
    assert.equal(events.length, 1);
    assert.equal(events[0].data.threshold, 120);
    assert.equal(events[0].data.remaining, 119, "recorded by the charge that crossed it");
  });
});
