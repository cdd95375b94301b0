/** SQL of the purge of expired datasets (purge_expired_datasets.ts). */
import type { Queryable } from "../db/sql.ts";

/**
 * Deletes up to `limit` datasets past `expires_at` (their rows cascade), oldest expiry
 * first; answers how many went. Batches keep one statement's cascade (up to 1,000 rows per
 * dataset) and its locks short.
 */
export async function deleteExpiredDatasets(sql: Queryable, now: Date, limit: number): Promise<number> {
  const deleted = await sql`
    delete from datasets where id in (
      select id from datasets where expires_at <= ${now} order by expires_at limit ${limit} for update skip locked)
    returning 1`;
  return deleted.length;
}
