/** SQL of the rolling allowances (core/limits/rolling_allowances.ts): the `allowance_usage` rows. */
import type { Queryable } from "../db/sql.ts";

/**
 * Takes the transaction-level lock of one (owner, name) and answers the charge time:
 * `at`, or the database's now(). Serialises checks of one allowance until commit.
 */
export async function lockRollingNow(tx: Queryable, key: { namespace: number; ownerId: string; name: string; at?: Date }): Promise<Date> {
  const [{ now }] = await tx<{ now: Date }[]>`
    select coalesce(${key.at ?? null}::timestamptz, now()) as now
    from (select pg_advisory_xact_lock(${key.namespace}::int, hashtext(${key.ownerId}::text || ':' || ${key.name}::text))) as locked`;
  return now;
}

/** Units used in the window ending at `now`, and the oldest use counted. */
export async function countWindow(
  tx: Queryable,
  window: { ownerId: string; name: string; now: Date; windowSeconds: number },
): Promise<{ used: number; oldest: Date | null }> {
  const [counted] = await tx<{ used: number; oldest: Date | null }[]>`
    select coalesce(sum(units), 0)::int as used, min(used_at) as oldest
    from allowance_usage
    where owner_id = ${window.ownerId} and name = ${window.name}
      and used_at > ${window.now}::timestamptz - ${window.windowSeconds}::int * interval '1 second'`;
  return counted;
}

/** Records a use of `units`. */
export async function insertUsage(tx: Queryable, use: { ownerId: string; name: string; units: number; at: Date; reference: string | null }): Promise<void> {
  await tx`
    insert into allowance_usage (owner_id, name, units, used_at, reference)
    values (${use.ownerId}, ${use.name}, ${use.units}, ${use.at}, ${use.reference})`;
}

/** Deletes the (owner, name) uses at or before `before`. */
export async function pruneOwnUsage(tx: Queryable, target: { ownerId: string; name: string; before: Date }): Promise<void> {
  await tx`
    delete from allowance_usage
    where owner_id = ${target.ownerId} and name = ${target.name} and used_at <= ${target.before}`;
}

/**
 * When enough units leave the window for a refused charge to fit: oldest first, the
 * running total of units that leave; the first row after whose departure `units` fits.
 * Undefined when `units` alone passes the limit.
 */
export async function firstFreeing(
  tx: Queryable,
  window: { ownerId: string; name: string; now: Date; windowSeconds: number; used: number; units: number; limit: number },
): Promise<{ at: Date } | undefined> {
  const { ownerId, name, now, windowSeconds } = window;
  const [frees] = await tx<{ at: Date }[]>`
    select used_at + ${windowSeconds}::int * interval '1 second' as at
    from (
      select used_at, sum(units) over (order by used_at, id) as leaving
      from allowance_usage
      where owner_id = ${ownerId} and name = ${name}
        and used_at > ${now}::timestamptz - ${windowSeconds}::int * interval '1 second'
    ) as counted
    where ${window.used}::int - leaving + ${window.units}::int <= ${window.limit}::int
    order by used_at
    limit 1`;
  return frees;
}

/** Gives back every unit charged under `reference`; answers how many. */
export async function releaseRolling(sql: Queryable, target: { ownerId: string; name: string; reference: string }): Promise<number> {
  const [row] = await sql<{ units: number }[]>`
    with released as (
      delete from allowance_usage
      where owner_id = ${target.ownerId} and name = ${target.name} and reference = ${target.reference}
      returning units
    )
    select coalesce(sum(units), 0)::int as units from released`;
  return row.units;
}

/**
 * Deletes usage older than `before` for every owner (for a periodic job; pass a time at
 * least one longest window ago). Charges already prune their own (owner, name) rows;
 * this catches owners who stopped spending. Answers how many rows went.
 */
export async function pruneRollingUsage(sql: Queryable, options: { before: Date }): Promise<number> {
  const result = await sql`delete from allowance_usage where used_at < ${options.before}`;
  return result.count;
}
