/**
 * Events about datasets (docs/webhooks.md): `dataset.ready` and `dataset.failed`, with the
 * dataset as `GET /v1/datasets/{id}` answers it, recorded in the transaction that ends it:
 * a background job's last commit (`finishDatasetRecorded`) or a synchronous create that
 * stores it ready (`recordDatasetEvent` after the insert).
 */
import type { Queryable, Sql } from "../db/sql.ts";
import { datasetById, finishDataset } from "./datasets_queries.ts";
import { datasetView } from "./dataset_view.ts";
import { recordEvent } from "../events/record_event.ts";

/** Records `dataset.ready` or `dataset.failed` (by its status) for dataset `id`, read in `tx`. */
export async function recordDatasetEvent(tx: Queryable, id: string, now: Date): Promise<void> {
  const row = await datasetById(tx, id);
  if (!row || (row.status !== "ready" && row.status !== "failed")) return;
  const type = row.status === "ready" ? "dataset.ready" : "dataset.failed";
  await recordEvent(tx, { accountId: row.account_id, type, objectType: "dataset", objectId: id, data: datasetView(row), now });
}

/**
 * `finishDataset` with its event, in one transaction: the caller's (`sql` is a transaction
 * handle) or a new one (`sql` is the pool). Answers whether this call ended the dataset.
 */
export async function finishDatasetRecorded(sql: Queryable, id: string, end: Parameters<typeof finishDataset>[2]): Promise<boolean> {
  const run = async (tx: Queryable) => {
    const ended = await finishDataset(tx, id, end);
    if (ended) await recordDatasetEvent(tx, id, end.now);
    return ended;
  };
  return "begin" in sql ? (sql as Sql).begin(run) : run(sql);
}
