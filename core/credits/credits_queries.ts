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

/**
 * Keeps `amount` credits in one statement: the pool's running total moves only while the
 * pool's period is current at `now` and it covers the amount (or `allowOverdraw`), and the
 * ledger row goes in with it. No explicit lock: the row is held only for the statement, so
 * an owner's calls do not queue behind each other's transactions. A charge that would take
 * the pool below an unannounced `credits.low` threshold moves nothing here (the locked path
 * records the event in the charge's transaction). Undefined when nothing moved (no current
 * pool, too few credits, or that crossing).
 */
export async function chargePool(
  sql: Queryable,
  charge: { ownerId: string; amount: number; reference: string; procedure?: string; allowOverdraw: boolean; now: Date },
): Promise<PoolRow | undefined> {
  const [row] = await sql<PoolRow[]>`
    with low as (
      select s.credits_low_threshold as threshold, s.credits_low_period_start as announced
        from event_settings s join accounts a on a.user_id = s.owner_id
       where a.id = ${charge.ownerId}
    ), moved as (
      update credit_pools set spent = spent + ${charge.amount}, updated_at = now()
       where owner_id = ${charge.ownerId} and period_end > ${charge.now}
         and (${charge.allowOverdraw}::boolean or allowance + bonus - spent >= ${charge.amount})
         -- Uncorrelated (read once, not per row version), so a charge re-checked after a
         -- concurrent one still compares the pool as it now stands with the threshold.
         and not coalesce(
           allowance + bonus - spent >= (select threshold from low)
           and allowance + bonus - spent - ${charge.amount} < (select threshold from low)
           and (select announced from low) is distinct from period_start,
           false)
      returning owner_id, period, period_start, period_end, allowance, bonus, spent
    ), ledger as (
      insert into credit_ledger (owner_id, period_start, entry, amount, reference, procedure)
      select owner_id, period_start, 'charge', ${-charge.amount}, ${charge.reference}, ${charge.procedure ?? null} from moved
    )
    select owner_id, period, period_start, period_end, allowance, bonus, spent from moved`;
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
