/**
 * How a refine judges and keeps rows (docs/areas.md "Datasets"; supplement: refine): each row's own
 * text (`post_text`) goes to the model task `dataset_refine` in batches of
 * `REFINE_BATCH`; a row with no text, a row the model leaves out and a row it answers
 * `unclear` are kept and counted `unclear` ("Unjudgeable rows are kept and counted as
 * `unclear`"). The kept rows are then sorted (descending, ties in the source's order) and
 * cut to `limit`.
 */
import type { Queryable } from "../db/sql.ts";
import type { CallOptions, Model } from "../model/model.ts";
import { parseTaskOutput } from "../model/task_output.ts";
import type { DatasetParams, NewDatasetRow, StoredRow } from "./datasets_queries.ts";
import { walkRows } from "./row_walk.ts";

/** Rows per model call: a short, reliable JSON answer. */
export const REFINE_BATCH = 25;

/** A verdict as stored in a background refine's cursor: match, no match, unclear. */
export type Verdict = "m" | "n" | "u";

/** Verdicts by row position. */
export type Verdicts = Record<string, Verdict>;

const CODES = { match: "m", no_match: "n", unclear: "u" } as const;

/** The text a refine judges: the row's own post text, trimmed ("" when none). */
export function textOf(row: Pick<StoredRow, "post_text">): string {
  return row.post_text?.trim() ?? "";
}

/** Judges one batch of rows with text; answers a verdict per position the model named and the calls' cost. */
export async function judgeBatch(
  model: Model,
  criterion: string,
  rows: readonly StoredRow[],
  options: CallOptions = {},
): Promise<{ verdicts: Verdicts; costCredits: number }> {
  const result = await model.generate({
    task: "dataset_refine",
    input: { criterion, rows: rows.map((row) => ({ id: String(row.position), text: textOf(row) })) },
    signal: options.signal,
    timeoutMs: options.timeoutMs,
  });
  const asked = new Set(rows.map((row) => String(row.position)));
  const verdicts: Verdicts = {};
  // An id the batch did not ask about is ignored; a repeated id keeps its first verdict.
  for (const row of parseTaskOutput("dataset_refine", result.text).rows) {
    if (asked.has(row.id) && !(row.id in verdicts)) verdicts[row.id] = CODES[row.verdict];
  }
  return { verdicts, costCredits: result.costCredits };
}

/** Judges every row with text of `datasetId` (a synchronous refine: at most 100 such rows). */
export async function judgeAll(sql: Queryable, model: Model, datasetId: string, criterion: string, options: CallOptions = {}): Promise<Verdicts> {
  const verdicts: Verdicts = {};
  let batch: StoredRow[] = [];
  const flush = async () => {
    if (batch.length > 0) Object.assign(verdicts, (await judgeBatch(model, criterion, batch, options)).verdicts);
    batch = [];
  };
  for await (const row of walkRows(sql, datasetId)) {
    if (textOf(row) === "") continue;
    batch.push(row);
    if (batch.length === REFINE_BATCH) await flush();
  }
  await flush();
  return verdicts;
}

/** The rows a refine keeps, in their new order, and its counts. */
export async function refinedRows(
  sql: Queryable,
  sourceId: string,
  verdicts: Verdicts,
  params: Required<Pick<DatasetParams, "keep_matching" | "sort_by">> & { limit?: number | null },
): Promise<{ rows: NewDatasetRow[]; counts: { kept: number; dropped: number; unclear: number; matched: number } }> {
  const kept: StoredRow[] = [];
  let dropped = 0;
  let unclear = 0;
  for await (const row of walkRows(sql, sourceId)) {
    const verdict = textOf(row) === "" ? "u" : (verdicts[String(row.position)] ?? "u");
    if (verdict === "u") unclear += 1;
    if (verdict === "u" || (verdict === "m") === params.keep_matching) kept.push(row);
    else dropped += 1;
  }
  const by = params.sort_by === "followers" ? (row: StoredRow) => row.followers_count : params.sort_by === "likes" ? (row: StoredRow) => row.likes : undefined;
  // Array.prototype.sort is stable: ties keep the source's order; unknown values go last.
  if (by) kept.sort((a, b) => (by(b) ?? -1) - (by(a) ?? -1));
  const limited = params.limit ? kept.slice(0, params.limit) : kept;
  return {
    rows: limited.map(copyOf),
    counts: { kept: limited.length, dropped, unclear, matched: kept.length },
  };
}

/** A stored row as a new dataset's row (same key and columns; no message: drafts belong to research datasets). */
function copyOf(row: StoredRow): NewDatasetRow {
  const { dataset_id: _dataset, position: _position, message: _message, message_kind: _kind, message_at: _at, ...columns } = row;
  return columns;
}
