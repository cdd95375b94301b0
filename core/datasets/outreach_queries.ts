/** SQL of outreach drafts: writing every row's message of a dataset at once. */
import type { Queryable } from "../db/sql.ts";

/** What one row ends a drafting run with: a message and its kind, or nothing (failed, contaminated). */
export interface RowDraft {
  position: number;
  message: string | null;
  kind: "drafted" | "generic" | null;
}

/**
 * Writes `drafts` onto the dataset's rows in one statement (spec: "Rerunning overwrites
 * every draft on the dataset"): a row with no message gets its previous one cleared
 * (spec: failed, "their previous message, if any, is cleared"), `message_at` is `now` for
 * a stored message and null otherwise. Rows are matched by position, the dataset's order.
 */
export async function writeDrafts(sql: Queryable, datasetId: string, drafts: readonly RowDraft[], now: Date): Promise<void> {
  if (drafts.length === 0) return;
  await sql`
    update dataset_rows r
    set message = d.message, message_kind = d.kind,
      message_at = case when d.message is null then null else ${now}::timestamptz end
    from jsonb_to_recordset(${sql.json(drafts as never)}) as d (position int, message text, kind text)
    where r.dataset_id = ${datasetId} and r.position = d.position`;
}
