/**
 * `GET /v1/datasets` and `GET /v1/datasets/{id}` (supplement: owner-scoped, no
 * `account_id`; newest first; expired ids are `404`): the user's datasets whichever of
 * their accounts built them.
 */
import type { KeyContext } from "../context.ts";
import { pageInfo } from "../schema.ts";
import { findDataset } from "./dataset_access.ts";
import type { DatasetByIdInput, ListDatasetsInput } from "./dataset_schema.ts";
import { datasetView } from "./dataset_view.ts";
import { ownedDatasets } from "./datasets_queries.ts";

/** A page of the caller's datasets, newest first. */
export async function listDatasets(ctx: KeyContext, input: ListDatasetsInput) {
  const now = new Date(ctx.services.clock.now());
  const { rows, total } = await ownedDatasets(ctx.services.sql, ctx.principal.userId, now, { limit: input.limit, offset: (input.page - 1) * input.limit });
  return { data: rows.map(datasetView), pagination: pageInfo(input.page, input.limit, total, rows.length) };
}

/** One of the caller's datasets, with its status and progress. */
export async function getDataset(ctx: KeyContext, input: DatasetByIdInput) {
  return { data: datasetView(await findDataset(ctx, input.id)) };
}
