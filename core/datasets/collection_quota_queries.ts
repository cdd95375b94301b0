/** SQL of the daily collection allowance (collection_quota.ts). */
import type { Queryable } from "../db/sql.ts";

/** Takes the account's collection-slot lock for the rest of the transaction. */
export async function lockCollectionSlots(tx: Queryable, accountId: string): Promise<void> {
  await tx`select pg_advisory_xact_lock(hashtext(${`dataset_slots:${accountId}`}))`;
}

/** Slots the account's datasets hold on `day` (`YYYY-MM-DD`). */
export async function countSlotsTaken(tx: Queryable, accountId: string, day: string): Promise<number> {
  const [{ used }] = await tx<{ used: number }[]>`
    select count(*)::int as used from datasets where account_id = ${accountId} and quota_day = ${day}::date`;
  return used;
}

/** Gives dataset `id`'s slot back (a collection that matched nobody). */
export async function releaseCollectionSlot(tx: Queryable, id: string): Promise<void> {
  await tx`update datasets set quota_day = null where id = ${id}`;
}
