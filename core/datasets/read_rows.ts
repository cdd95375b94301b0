/**
 * `GET /v1/datasets/{id}/rows` (supplement: "rows exactly as collected; needs `ready`";
 * spec Limits 7: page at `limit=100`): owner-scoped, in collection order.
 */
import type { KeyContext } from "../context.ts";
import { pageInfo } from "../schema.ts";
import type { DatasetRowsInput } from "./dataset_rows_schema.ts";
import { findDataset, requireReady } from "./dataset_access.ts";
import { rowsPage } from "./datasets_queries.ts";
import { rowView } from "./row_view.ts";

/** A page of a ready dataset's rows, with the total. */
export async function datasetRows(ctx: KeyContext, input: DatasetRowsInput) {
  const dataset = requireReady(await findDataset(ctx, input.id));
  const rows = await rowsPage(ctx.services.sql, dataset.id, { limit: input.limit, offset: (input.page - 1) * input.limit });
  return { data: rows.map(rowView), pagination: pageInfo(input.page, input.limit, dataset.row_count, rows.length) };
}
