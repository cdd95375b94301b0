/**
 * Rolling allowances: at most `limit` units in any `windowSeconds` ending now, such as
 * the DM "rolling 24-hour bulk allowance" (spec DM limits). Fixed windows cannot say
 * that, so these are counted exactly in PostgreSQL (`allowance_usage`, migration 0005):
 * each charge is a row, and a check sums the rows still inside the window.
 *
 * Being in the database, a charge can share a transaction with the caller's own writes
 * (pass the `tx` of `sql.begin`): the campaign rows and the units they spend commit
 * together or not at all. A database that cannot answer makes these functions throw,
 * which never allows the call (spec rule 9).
 *
 * @example
 * const outcome = await consumeRolling(ctx.services.sql, { ownerId, name: "dm_daily_bulk", limit: 500,
 *   windowSeconds: 86_400, units: recipients.length, reference: campaignId, at: new Date(ctx.services.clock.now()) });
 * if (outcome.status !== "allowed") throw dmLimitError(outcome, { scope: "day" });
 */
import type { Queryable, Sql } from "../db/sql.ts";
import type { AllowanceOutcome, AllowanceState } from "./allowance_outcome.ts";
import { countWindow, firstFreeing, insertUsage, lockRollingNow, pruneOwnUsage } from "./rolling_usage_queries.ts";

export { pruneRollingUsage, releaseRolling } from "./rolling_usage_queries.ts";

/** One charge against a rolling allowance. */
export interface RollingCharge {
  /** Who the units are counted for: the owner's main account id. */
  ownerId: string;
  /** Stable name, `[a-z0-9_]+`. */
  name: string;
  /** Units allowed in any window. */
  limit: number;
  /** Window length in seconds (86 400 for "rolling 24-hour"). */
  windowSeconds: number;
  /** Whole units; 0 only reads the allowance. */
  units: number;
  /** What the units are spent on, so `releaseRolling` can give them back. */
  reference?: string;
  /** The time of the charge; default the database's `now()`. Pass the services clock so tests control time. */
  at?: Date;
}

/**
 * The advisory-lock namespace of rolling allowances (ASCII "tlar"). The two-key form
 * `pg_advisory_xact_lock(int, int)` lives apart from one-key `bigint` locks (the
 * migrator's), so a hash can never collide with another area's lock.
 */
const LOCK_NAMESPACE = 0x746c6172;

const NAME = /^[a-z0-9_]+$/;

/**
 * Takes `units` when the window still has room, else nothing (all or nothing), and
 * answers the allowance's state; `resetAt` is when the oldest counted units leave the
 * window (on a refusal: when enough have left for this charge, the `Retry-After`).
 * Runs in its own transaction on a pool, or inside the caller's on a transaction handle.
 */
export async function consumeRolling(sql: Queryable, charge: RollingCharge): Promise<AllowanceOutcome> {
  validate(charge);
  const run = (tx: Queryable) => consumeIn(tx, charge);
  // Embedded PGlite is one session: inside `begin` only `tx` may be used, never the pool.
  return isPool(sql) ? ((await sql.begin(run)) as AllowanceOutcome) : run(sql);
}

async function consumeIn(tx: Queryable, charge: RollingCharge): Promise<AllowanceOutcome> {
  const { ownerId, name, limit, windowSeconds, units } = charge;
  // Serialises checks of one (owner, name) until commit: without it two transactions
  // could both read 4 of 5 used and both insert. A hash collision only serialises two
  // unrelated allowances, never miscounts them.
  const now = await lockRollingNow(tx, { namespace: LOCK_NAMESPACE, ownerId, name, at: charge.at });
  const counted = await countWindow(tx, { ownerId, name, now, windowSeconds });
  const state = (used: number, freesAt: Date): AllowanceState => ({
    name,
    scope: "account",
    limit,
    units,
    used,
    remaining: Math.max(0, limit - used),
    resetAt: Math.ceil(freesAt.getTime() / 1000),
  });
  const windowMs = windowSeconds * 1000;
  const checkedAt = now.getTime();

  if (counted.used + units <= limit) {
    if (units > 0) {
      await insertUsage(tx, { ownerId, name, units, at: now, reference: charge.reference ?? null });
      // Rows a window older than any window that could still count them; the margin
      // keeps a process whose clock lags a little from losing rows it still counts.
      await pruneOwnUsage(tx, { ownerId, name, before: new Date(now.getTime() - 2 * windowSeconds * 1000) });
    }
    const oldest = counted.oldest && counted.oldest.getTime() < checkedAt ? counted.oldest : now;
    const allowance = state(counted.used + units, new Date(oldest.getTime() + windowMs));
    return { status: "allowed", checkedAt, allowances: [allowance] };
  }

  // Oldest first, the running total of units that leave the window: the first row after
  // whose departure this charge fits is when to retry.
  const frees = await firstFreeing(tx, { ownerId, name, now, windowSeconds, used: counted.used, units, limit });
  // No such row only when `units` alone passes the limit: it never fits, so name the end
  // of a full window rather than a time that would invite a doomed retry sooner.
  const blocked = state(counted.used, frees?.at ?? new Date(checkedAt + windowMs));
  return { status: "refused", checkedAt, allowances: [blocked], blocked };
}

function isPool(sql: Queryable): sql is Sql {
  // A transaction handle has no `begin` (postgres.js `TransactionSql`).
  return typeof (sql as Partial<Sql>).begin === "function";
}

function validate(charge: RollingCharge): void {
  const { ownerId, name, limit, windowSeconds, units } = charge;
  if (!ownerId) throw new Error(`Rolling allowance "${name}" needs an owner id`);
  if (!NAME.test(name)) throw new Error(`Rolling allowance name "${name}" must match ${NAME}`);
  if (!Number.isSafeInteger(limit) || limit < 0) throw new Error(`Rolling allowance "${name}" has an invalid limit "${limit}"`);
  if (!Number.isSafeInteger(windowSeconds) || windowSeconds <= 0) throw new Error(`Rolling allowance "${name}" has an invalid window "${windowSeconds}"`);
  if (!Number.isSafeInteger(units) || units < 0) throw new Error(`Rolling allowance "${name}" was charged an invalid number of units "${units}"`);
}
