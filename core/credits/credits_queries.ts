/** SQL for credit pools and the ledger. */
import type { Queryable } from "../db/sql.ts";

/** A pool row. */
export interface PoolRow {
  owner_id: string;
  period: "monthly" | "daily";
  period_start: Date;
  period_end: Date;
  allowance: number;
  bonus: number;
  spent: number;
}

/** The owner's pool, locked until the transaction ends (all movements of one owner serialise here). */
export async function poolForUpdate(sql: Queryable, ownerId: string): Promise<PoolRow | undefined> {
  const [row] = await sql<PoolRow[]>`
    select owner_id, period, period_start, period_end, allowance, bonus, spent
      from credit_pools where owner_id = ${ownerId} for update`;
  return row;
}

/** The owner's pool without a lock (reads that move nothing). */
export async function poolRow(sql: Queryable, ownerId: string): Promise<PoolRow | undefined> {
  const [row] = await sql<PoolRow[]>`
    select owner_id, period, period_start, period_end, allowance, bonus, spent
      from credit_pools where owner_id = ${ownerId}`;
  return row;
}

/** Creates the owner's pool (a concurrent creator wins harmlessly). */
export async function insertPool(sql: Queryable, pool: Omit<PoolRow, "spent" | "bonus">): Promise<void> {
  await sql`
    insert into credit_pools (owner_id, period, period_start, period_end, allowance)
    values (${pool.owner_id}, ${pool.period}, ${pool.period_start}, ${pool.period_end}, ${pool.allowance})
    on conflict (owner_id) do nothing`;
}

/** Moves a pool to a new period: nothing spent yet, bonus reduced by what the last period overdrew. */
export async function rollPool(
  sql: Queryable,
  pool: PoolRow,
  next: { start: Date; end: Date; allowance: number; period: PoolRow["period"] },
): Promise<PoolRow> {
  const overdrawn = Math.max(0, pool.spent - pool.allowance);
  const [row] = await sql<PoolRow[]>`
    update credit_pools
       set period = ${next.period}, period_start = ${next.start}, period_end = ${next.end}, allowance = ${next.allowance},
           bonus = greatest(0, bonus - ${overdrawn}), spent = 0, updated_at = now()
     where owner_id = ${pool.owner_id}
    returning owner_id, period, period_start, period_end, allowance, bonus, spent`;
  return row;
}

/** Appends a ledger row and moves the pool's running total with it. */
export async function recordMovement(
  sql: Queryable,
  pool: PoolRow,
  movement: { entry: "charge" | "refund" | "settle" | "grant"; amount: number; reference: string; procedure?: string },
): Promise<PoolRow> {
  await sql`
    insert into credit_ledger (owner_id, period_start, entry, amount, reference, procedure)
    values (${pool.owner_id}, ${pool.period_start}, ${movement.entry}, ${movement.amount}, ${movement.reference}, ${movement.procedure ?? null})`;
  const bonusChange = movement.entry === "grant" ? movement.amount : 0;
  const spentChange = movement.entry === "grant" ? 0 : -movement.amount;
  const [row] = await sql<PoolRow[]>`
    update credit_pools set spent = spent + ${spentChange}, bonus = bonus + ${bonusChange}, updated_at = now()
     where owner_id = ${pool.owner_id}
    returning owner_id, period, period_start, period_end, allowance, bonus, spent`;
  return row;
}

/** A pool after `chargePool`, with the `credits.low` threshold when that charge crossed it (claimed for the period). */
export interface ChargedPool extends PoolRow {
  low_threshold: number | null;
}

/**
 * Keeps `amount` credits in one statement: the pool's running total moves only while the
 * pool's period is current at `now` and it covers the amount (or `allowOverdraw`), the
 * ledger row goes in with it, and a `credits.low` threshold this charge crosses is claimed
 * for the period. No explicit lock: the row is held only for the statement, so an owner's
 * calls do not queue behind each other's transactions. Undefined when nothing moved (no
 * current pool, or too few credits).
 */
export async function chargePool(
  sql: Queryable,
  charge: { ownerId: string; amount: number; reference: string; procedure?: string; allowOverdraw: boolean; now: Date },
): Promise<ChargedPool | undefined> {
  const [row] = await sql<ChargedPool[]>`
    with moved as (
      update credit_pools set spent = spent + ${charge.amount}, updated_at = now()
       where owner_id = ${charge.ownerId} and period_end > ${charge.now}
         and (${charge.allowOverdraw}::boolean or allowance + bonus - spent >= ${charge.amount})
      returning owner_id, period, period_start, period_end, allowance, bonus, spent
    ), ledger as (
      insert into credit_ledger (owner_id, period_start, entry, amount, reference, procedure)
      select owner_id, period_start, 'charge', ${-charge.amount}, ${charge.reference}, ${charge.procedure ?? null} from moved
    ), low as (
      update event_settings s set credits_low_period_start = m.period_start
        from moved m, accounts a
       where a.id = m.owner_id and s.owner_id = a.user_id and s.credits_low_threshold is not null
         and m.allowance + m.bonus - m.spent + ${charge.amount} >= s.credits_low_threshold
         and m.allowance + m.bonus - m.spent < s.credits_low_threshold
         and s.credits_low_period_start is distinct from m.period_start
      returning s.credits_low_threshold
    )
    select m.owner_id, m.period, m.period_start, m.period_end, m.allowance, m.bonus, m.spent,
           (select credits_low_threshold from low limit 1) as low_threshold
      from moved m`;
  return row;
}

/** Credits kept so far for `reference` (charges minus refunds and settlements). */
export async function keptForReference(sql: Queryable, ownerId: string, reference: string): Promise<number> {
  const [row] = await sql<{ kept: number }[]>`
    select coalesce(-sum(amount), 0)::int as kept from credit_ledger
     where owner_id = ${ownerId} and reference = ${reference} and entry <> 'grant'`;
  return row.kept;
}

/** Pools whose period has ended (the reset job rolls them). */
export async function expiredPools(sql: Queryable, limit: number): Promise<{ owner_id: string; plan: string; billing_anchor: Date }[]> {
  return sql`
    select p.owner_id, u.plan, u.billing_anchor
      from credit_pools p join accounts a on a.id = p.owner_id join users u on u.id = a.user_id
     where p.period_end <= now() limit ${limit}`;
}
