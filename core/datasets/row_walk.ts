/**
 * Every row of a dataset in order, read in keyset batches (datasets_queries.ts `rowsAfter`),
 * so a walk over a whole dataset (export, refine, contacts) holds one batch at a time.
 */
import type { Queryable } from "../db/sql.ts";
import { rowsAfter, type StoredRow } from "./datasets_queries.ts";

/** Rows read per query. */
export const ROW_BATCH = 200;

/** The rows of `datasetId` after position `after`, in order, one batch in memory at a time. */
export async function* walkRows(sql: Queryable, datasetId: string, after = 0): AsyncGenerator<StoredRow> {
  let position = after;
  for (;;) {
    const batch = await rowsAfter(sql, datasetId, position, ROW_BATCH);
    for (const row of batch) yield row;
    if (batch.length < ROW_BATCH) return;
    position = batch[batch.length - 1].position;
  }
}
