/**
 * The shapes of the dataset row endpoints (docs/areas.md "Datasets"; supplement: Datasets rows,
 * export, refine, contacts): reading rows, the CSV export, copying people into a contact list
 * and refining by a criterion.
 */
import { z } from "zod";
import { accountSelection, paginationInput, recordId } from "../schema.ts";
import { type datasetCounts, datasetId } from "./dataset_schema.ts";

/** Rows a refine keeps at most (`limit`), the largest dataset there is (supplement: `max_rows` up to 1,000). */
export const MAX_REFINE_LIMIT = 1_000;

/** Rows with text a refine judges in the request; more answer `202` (supplement: "Over 100 rows with text: 202"). */
export const SYNC_REFINE_ROWS = 100;

/** `GET /v1/datasets/{id}/rows`: `limit` 1 to 100 (default 100, spec Limits 7 "page at limit=100"), `page`. */
export const datasetRowsInput = z.object({ id: datasetId, ...paginationInput(100) });

/** The rows page's input, parsed. */
export type DatasetRowsInput = z.infer<typeof datasetRowsInput>;

/** `GET /v1/datasets/{id}/export`: CSV only (supplement: "XLSX stays in app"). */
export const exportDatasetInput = z.object({
  id: datasetId,
  format: z.enum(["csv"], { error: "must be csv (the only export format)" }).default("csv").meta({ description: "`csv`, the only format" }),
});

/** What an export asks for, parsed. */
export type ExportDatasetInput = z.infer<typeof exportDatasetInput>;

/** The body of `POST /v1/datasets/{id}/contacts`. */
export const datasetContactsInput = z.object({
  id: datasetId,
  list_id: recordId.meta({ description: "A user contact list of the account (system lists are read-only)" }),
  ...accountSelection,
});

/** What a copy into a contact list sends. */
export type DatasetContactsInput = z.infer<typeof datasetContactsInput>;

/** `data` of `POST /v1/datasets/{id}/contacts`. */
export const datasetContactsResult = z
  .object({
    dataset_id: z.string(),
    list_id: z.string(),
    added: z.number().int().meta({ description: "People added to the list" }),
    duplicates: z.number().int().meta({ description: "People already in the list (left as they were)" }),
    skipped_without_id: z.number().int().meta({ description: "Rows with no usable X user id or handle" }),
    total_in_list_after: z.number().int(),
  })
  .meta({ id: "DatasetContactsResult" });

/** The body of `POST /v1/datasets/{id}/refine`. */
export const refineDatasetInput = z.object({
  id: datasetId,
  criterion: z.string().trim().min(1, "must be 1 to 500 characters").max(500, "must be 1 to 500 characters").meta({
    description: "What a row's own text must say, judged by the model (e.g. `asks about pricing`)",
  }),
  keep_matching: z.boolean().default(true).meta({ description: "Keep rows that match (default); `false` keeps rows that do not" }),
  sort_by: z.enum(["followers", "likes", "none"]).default("none").meta({ description: "Order of the kept rows, descending (`none`: the source's order)" }),
  limit: z.number().int().min(1).max(MAX_REFINE_LIMIT).optional().meta({ description: "Kept rows at most, after sorting (1 to 1,000; default all)" }),
  title: z.string().trim().min(1).max(300).optional().meta({ description: "Default: the source's title and the criterion" }),
  ...accountSelection,
});

/** The parsed body of a refine. */
export type RefineDatasetInput = z.infer<typeof refineDatasetInput>;

/** Refine counts as the new dataset shows them. */
export type RefineCounts = Pick<z.infer<typeof datasetCounts>, "kept" | "dropped" | "unclear" | "matched">;
