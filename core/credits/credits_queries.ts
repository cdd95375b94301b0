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
