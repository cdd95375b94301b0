/**
 * The `purge_expired_datasets` job (hourly): deletes datasets past their 30 days (spec rule
 * 8, Constants "Dataset retention 30 days") with their rows, in batches. Reads already
 * treat an expired id as `404` (datasets_queries.ts `ownedDataset`), so the purge only
 * frees the space; running it twice deletes nothing more.
 */
import type { Queryable } from "../db/sql.ts";
import { deleteExpiredDatasets } from "./dataset_purge_queries.ts";

/** Datasets deleted per statement. */
const BATCH = 100;

/** Deletes every dataset expired at `now`; answers how many went. */
export async function purgeExpiredDatasets(sql: Queryable, now: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteExpiredDatasets(sql, now, BATCH);
    total += deleted;
    if (deleted < BATCH) return total;
  }
}
