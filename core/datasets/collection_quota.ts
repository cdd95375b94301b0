/**
 * The daily collection allowance (spec Limits 7: "10 collections per account per day ...
 * reset at midnight UTC; refine counts against the same 10; research does not ... a
 * collection matching nobody returns its slot"). Counted in PostgreSQL from the datasets
 * themselves (`datasets.quota_day`), in the transaction that stores the dataset, so a
 * background job can give a slot back (it has no request counters) and the count is never
 * out of step with the datasets that exist. The limit is the catalog's `DATASET_COLLECTIONS`.
 */
import type { Queryable } from "../db/sql.ts";
import { DATASET_COLLECTIONS } from "../limits/allowance_catalog.ts";
import { collectionQuotaError } from "../limits/allowance_errors.ts";
import { countSlotsTaken, lockCollectionSlots } from "./collection_quota_queries.ts";

/** The UTC day (`YYYY-MM-DD`) of `nowMs`: the `quota_day` a dataset made now takes. */
export function quotaDayOf(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(0, 10);
}

/**
 * Checks that the account has a slot left today, inside `tx` (which must then store the
 * dataset with `quota_day: quotaDayOf(nowMs)`); else `429 collection_quota_exceeded` with
 * `limit`, `reset_at` and `Retry-After`. Concurrent creates of one account queue on a
 * transaction-scoped advisory lock, so the eleventh never slips in beside the tenth.
 */
export async function assertCollectionSlot(tx: Queryable, accountId: string, nowMs: number): Promise<void> {
  await lockCollectionSlots(tx, accountId);
  const used = await countSlotsTaken(tx, accountId, quotaDayOf(nowMs));
  const { limit, name, scope } = DATASET_COLLECTIONS;
  if (used < limit) return;
  const resetAt = Math.floor(Date.parse(`${quotaDayOf(nowMs)}T00:00:00Z`) / 1000) + 86_400;
  const blocked = { name, scope, limit, units: 1, used, remaining: 0, resetAt };
  throw collectionQuotaError({ status: "refused", checkedAt: nowMs, allowances: [blocked], blocked });
}
