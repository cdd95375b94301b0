/** SQL of collections (collect_dataset.ts) beyond the shared dataset queries. */
import type { Queryable } from "../db/sql.ts";

/** The id of the account's background collection (or refine) still `collecting`, if any. */
export async function collectingDatasetOf(sql: Queryable, accountId: string): Promise<string | undefined> {
  const [row] = await sql<{ id: string }[]>`
    select id from datasets where account_id = ${accountId} and status = 'collecting' and source <> 'research' limit 1`;
  return row?.id;
}

/** The keys of the rows a dataset already holds (a resumed walk counts them as seen). */
export async function storedRowKeys(sql: Queryable, datasetId: string): Promise<string[]> {
  const rows = await sql<{ key: string }[]>`select key from dataset_rows where dataset_id = ${datasetId}`;
  return rows.map((row) => row.key);
}

/** Takes the dataset's row lock for the rest of the transaction (one writer per page). */
export async function lockDataset(sql: Queryable, datasetId: string): Promise<string | undefined> {
  const [row] = await sql<{ status: string }[]>`select status from datasets where id = ${datasetId} for update`;
  return row?.status;
}

/** Rows the dataset holds. */
export async function countRows(sql: Queryable, datasetId: string): Promise<number> {
  const [{ rows }] = await sql<{ rows: number }[]>`select count(*)::int as rows from dataset_rows where dataset_id = ${datasetId}`;
  return rows;
}
