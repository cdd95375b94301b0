/**
 * AI credits (spec: AI credits, Credit headers, `429 ai_credits_exhausted`, rule 9):
 * charge up front, refund in full when a call fails before output, settle a background
 * call to its real cost. Every movement moves the ledger and the pool's running total
 * atomically, so the ledger always balances: a charge against the current pool is one
 * conditional statement (no transaction, the row held only for the statement, so one
 * owner's calls run side by side); creating or renewing a pool, refunds and settlements
 * lock the owner's pool row in a transaction. A pool that cannot be read refuses the call.
 */
import { noteCreditsMovement } from "./credits_low.ts";
import type { Context } from "../context.ts";
import type { Queryable, Sql } from "../db/sql.ts";
import { ApiError } from "../errors.ts";
import type { Principal } from "../request_state/principal.ts";
import { planById } from "../plans/plans.ts";
import type { CreditOwner, CreditState } from "../request_state/credit_state.ts";
import { creditPeriodAt } from "../time/credit_period.ts";
import { chargePool, insertPool, keptForReference, poolForUpdate, poolRow, recordMovement, rollPool, expiredPools, type PoolRow } from "./credits_queries.ts";
import { remainingOf } from "./pool_remaining.ts";

/** The owner of the caller's pool. */
export function creditOwner(principal: Principal): CreditOwner {
  return { ownerId: principal.mainAccountId, plan: principal.plan, billingAnchor: principal.billingAnchor };
}

/**
 * The pool as it stands now. A current pool is read without locking it (GET /v1/me and
 * the credit headers read on every AI call); a missing or ended one is created or
 * renewed under the lock first.
 */
export async function creditState(ctx: Context, owner: CreditOwner): Promise<CreditState> {
  return stateOf(await readPool(ctx, owner, 0));
}

/** Keeps `amount` credits for `reference`; `429 ai_credits_exhausted` when the pool has fewer. */
export async function chargeCredits(
  ctx: Context,
  owner: CreditOwner,
  charge: { amount: number; reference: string; procedure?: string; allowOverdraw?: boolean },
): Promise<CreditState> {
  if (charge.amount > 0) {
    const fast = await chargeCurrentPool(ctx, owner, charge);
    if (fast) return fast;
  }
  // No current pool yet (created or renewed under the lock here), or a refund raced the refusal.
  return inPool(
    ctx,
    owner,
    async (tx, pool) => {
      const remaining = remainingOf(pool);
      if (remaining < charge.amount && !charge.allowOverdraw) throw exhausted(ctx, charge.amount, pool);
      if (charge.amount === 0) return pool;
      const after = await recordMovement(tx, pool, { entry: "charge", amount: -charge.amount, reference: charge.reference, procedure: charge.procedure });
      // docs/webhooks.md: `credits.low` when this charge crosses the user's threshold.
      await noteCreditsMovement(tx, pool, after, new Date(ctx.services.clock.now()));
      return after;
    },
    charge.amount,
  );
}

/**
 * The common charge: one statement against the current pool (`chargePool`), no transaction
 * and no explicit lock, so an owner's concurrent calls do not serialise. Answers undefined
 * when the pool must first be created or renewed, when the charge crosses the `credits.low`
 * threshold (its event is recorded in the charge's transaction), or when the pool covered the
 * charge again by the time it was re-read: the locked path then decides. `429` when it does
 * not cover it.
 */
async function chargeCurrentPool(
  ctx: Context,
  owner: CreditOwner,
  charge: { amount: number; reference: string; procedure?: string; allowOverdraw?: boolean },
): Promise<CreditState | undefined> {
  if (ctx.services.faults.has("counters")) throw unverifiable(charge.amount);
  const now = new Date(ctx.services.clock.now());
  let moved: PoolRow | undefined;
  try {
    moved = await chargePool(ctx.services.sql, { ownerId: owner.ownerId, ...charge, allowOverdraw: charge.allowOverdraw === true, now });
  } catch (error) {
    console.error("Credit ledger unavailable:", error);
    throw unverifiable(charge.amount);
  }
  if (moved) return stateOf(moved);
  const pool = await readPool(ctx, owner, charge.amount);
  if (pool.period_end > now && remainingOf(pool) < charge.amount && !charge.allowOverdraw) throw exhausted(ctx, charge.amount, pool);
  return undefined;
}

/**
 * Refuses early when the pool cannot cover `amount` (metered calls check before the model
 * runs). A check, not a movement, so it reads without the lock; the charge that follows
 * takes it.
 */
export async function assertCredits(ctx: Context, owner: CreditOwner, amount: number): Promise<CreditState> {
  const pool = await readPool(ctx, owner, amount);
  if (remainingOf(pool) < amount) throw exhausted(ctx, amount, pool);
  return stateOf(pool);
}

/** Gives back what `reference` kept (all of it, or at most `amount`): failed calls are refunded. */
export async function refundCredits(ctx: Context, owner: CreditOwner, refund: { reference: string; amount?: number }): Promise<CreditState> {
  return inPool(ctx, owner, async (tx, pool) => {
    const kept = await keptForReference(tx, owner.ownerId, refund.reference);
    const amount = Math.min(kept, refund.amount ?? kept);
    if (amount <= 0) return pool;
    return recordMovement(tx, pool, { entry: "refund", amount, reference: refund.reference });
  });
}

/** Brings what `reference` kept to `actual` (a background call learning its real cost). */
export async function settleCredits(ctx: Context, owner: CreditOwner, settle: { reference: string; actual: number }): Promise<CreditState> {
  return inPool(ctx, owner, async (tx, pool) => {
    const kept = await keptForReference(tx, owner.ownerId, settle.reference);
    if (kept === settle.actual) return pool;
    const after = await recordMovement(tx, pool, { entry: "settle", amount: kept - settle.actual, reference: settle.reference });
    await noteCreditsMovement(tx, pool, after, new Date(ctx.services.clock.now()));
    return after;
  });
}

/**
 * Gives back what `reference` kept (all of it, or at most `amount`), in the caller's
 * transaction: a job settling a background call refunds in the same commit as the state
 * change that decides it, so a retried or concurrent settlement never refunds twice (a
 * research job gives back 1 per profile it could not read). Answers the credits given back.
 */
export async function refundCreditsIn(tx: Queryable, owner: CreditOwner, refund: { reference: string; now: Date; amount?: number }): Promise<number> {
  const pool = await currentPool(tx, owner, refund.now);
  const kept = await keptForReference(tx, owner.ownerId, refund.reference);
  const amount = Math.min(kept, refund.amount ?? kept);
  if (amount > 0) await recordMovement(tx, pool, { entry: "refund", amount, reference: refund.reference });
  return Math.max(0, amount);
}

/** Adds bonus credits that outlive the period (operators; the demo world). */
export async function grantCredits(ctx: Context, owner: CreditOwner, grant: { amount: number; reference: string }): Promise<CreditState> {
  return inPool(ctx, owner, (tx, pool) => recordMovement(tx, pool, { entry: "grant", amount: grant.amount, reference: grant.reference }));
}

/** Renews every pool whose period ended; answers how many (the `reset_credit_pools` job). */
export async function renewExpiredPools(sql: Sql, now: Date, batch = 500): Promise<number> {
  let renewed = 0;
  for (const row of await expiredPools(sql, batch)) {
    await sql.begin(async (tx) => {
      const owner = { ownerId: row.owner_id, plan: planById(row.plan), billingAnchor: row.billing_anchor };
      const pool = await poolForUpdate(tx, row.owner_id);
      if (pool && pool.period_end <= now) {
        await currentPool(tx, owner, now);
        renewed += 1;
      }
    });
  }
  return renewed;
}

/** The current pool read without a lock, falling back to the locked path to create or renew it. */
async function readPool(ctx: Context, owner: CreditOwner, required: number): Promise<PoolRow> {
  if (ctx.services.faults.has("counters")) throw unverifiable(required);
  const now = new Date(ctx.services.clock.now());
  let pool: PoolRow | undefined;
  try {
    pool = await poolRow(ctx.services.sql, owner.ownerId);
  } catch (error) {
    console.error("Credit ledger unavailable:", error);
    throw unverifiable(required);
  }
  if (pool && pool.period_end > now) return pool;
  let current: PoolRow | undefined;
  await inPool(ctx, owner, async (_tx, locked) => (current = locked), required);
  return current!;
}

async function inPool(ctx: Context, owner: CreditOwner, work: (tx: Queryable, pool: PoolRow) => Promise<PoolRow>, required = 0): Promise<CreditState> {
  if (ctx.services.faults.has("counters")) throw unverifiable(required);
  const now = new Date(ctx.services.clock.now());
  let pool: PoolRow;
  try {
    pool = await ctx.services.sql.begin(async (tx) => work(tx, await currentPool(tx, owner, now)));
  } catch (error) {
    if (error instanceof ApiError) throw error;
    console.error("Credit ledger unavailable:", error);
    throw unverifiable(required);
  }
  return stateOf(pool);
}

/** The owner's pool for the period containing `now`, created or renewed as needed, locked. */
async function currentPool(tx: Queryable, owner: CreditOwner, now: Date): Promise<PoolRow> {
  const period = creditPeriodAt(owner.plan.credits, owner.billingAnchor, now);
  let pool = await poolForUpdate(tx, owner.ownerId);
  if (!pool) {
    await insertPool(tx, {
      owner_id: owner.ownerId,
      period: owner.plan.credits.period,
      period_start: period.start,
      period_end: period.end,
      allowance: owner.plan.credits.credits,
    });
    pool = (await poolForUpdate(tx, owner.ownerId))!;
  }
  // Only an ended period renews the pool; a plan change takes effect when the next period starts.
  if (pool.period_end <= now) {
    pool = await rollPool(tx, pool, { start: period.start, end: period.end, allowance: owner.plan.credits.credits, period: owner.plan.credits.period });
  }
  return pool;
}

function stateOf(pool: PoolRow): CreditState {
  return {
    remaining: Math.max(0, remainingOf(pool)),
    pool: pool.allowance,
    bonus: pool.bonus,
    spent: pool.spent,
    period: pool.period,
    periodStart: pool.period_start,
    resetAt: pool.period_end,
  };
}

function exhausted(ctx: Context, required: number, pool: PoolRow): ApiError {
  const resetAt = Math.floor(pool.period_end.getTime() / 1000);
  const retryAfter = Math.max(1, resetAt - Math.floor(ctx.services.clock.now() / 1000));
  return new ApiError(
    "ai_credits_exhausted",
    `This call needs ${required} credit${required === 1 ? "" : "s"} and ${Math.max(0, remainingOf(pool))} remain; the pool renews at ${pool.period_end.toISOString()}`,
    { credits_required: required, credits_remaining: Math.max(0, remainingOf(pool)), reset_at: resetAt, retry_after: retryAfter },
    { "Retry-After": String(retryAfter) },
  );
}

/** Rule 9: a pool that cannot be verified refuses the call; nothing is known, so the fields are null. */
function unverifiable(required: number): ApiError {
  return new ApiError("ai_credits_exhausted", "The credit balance cannot be verified right now; nothing was charged, retry shortly", {
    credits_required: required,
    credits_remaining: null,
    reset_at: null,
  });
}
