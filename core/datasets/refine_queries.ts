/** SQL of refine beyond the shared dataset queries. */
import type { Queryable } from "../db/sql.ts";

/** Rows of `datasetId` whose own text is not blank: what a refine judges (and what decides `202`). */
export async function countRowsWithText(sql: Queryable, datasetId: string): Promise<number> {
  const [{ count }] = await sql<{ count: number }[]>`
    select count(*)::int as count from dataset_rows where dataset_id = ${datasetId} and coalesce(btrim(post_text), '') <> ''`;
  return count;
}
