/**
 * Dataset rows and what a user does with them (docs/areas.md "Datasets"; spec rule 8, Datasets,
 * Limits 3 and 7; supplement: Datasets rows, export, refine, contacts): read rows, export as
 * CSV, refine into a new dataset, copy the people into a contact list. Rows and export are
 * owner-scoped (no `account_id`).
 */
import { inAccount, keyProcedure, router } from "../core/trpc.ts";
import { dataOf, listOf } from "../core/schema.ts";
import { fileDownload } from "../core/file_download.ts";
import { dataset, datasetRow } from "../core/datasets/dataset_schema.ts";
import { datasetContactsInput, datasetContactsResult, datasetRowsInput, exportDatasetInput, refineDatasetInput } from "../core/datasets/dataset_rows_schema.ts";
import { datasetRows } from "../core/datasets/read_rows.ts";
import { exportDataset } from "../core/datasets/export_dataset.ts";
import { copyToContactList } from "../core/datasets/dataset_contacts.ts";
import { startRefine } from "../core/datasets/refine_dataset.ts";

const tags = ["Datasets"];

const NOT_READY =
  "A dataset still `collecting` or `failed` answers `409 dataset_not_ready` with `error.dataset_status`; an unknown, " +
  "another user's or an expired id is `404 not_found`.";

export const datasetRowsRouter = router({
  rows: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/datasets/{id}/rows",
        tags,
        summary: "Read a dataset's rows",
        description:
          "Rows exactly as collected, in collection order; fields a source does not have are null, and `message` carries an outreach draft once drafted. " +
          `\`limit\` 1 to 100 (default 100: page at 100, spec Limits 7), \`page\`; \`pagination.total\` is the row count. Owner-scoped (no \`account_id\`). ${NOT_READY}`,
      },
      errors: ["not_found", "dataset_not_ready"],
    })
    .input(datasetRowsInput)
    .output(listOf(datasetRow))
    .query(({ ctx, input }) => datasetRows(ctx, input)),

  export: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/datasets/{id}/export",
        tags,
        summary: "Export a dataset as CSV",
        description:
          "A CSV file (`text/csv; charset=utf-8`, RFC 4180 quoting, header row first; a text cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'` so spreadsheets do not run it as a formula; numbers are untouched), streamed as the rows are read, named by `Content-Disposition: attachment; filename=\"superx-dataset-<title-slug>-<YYYY-MM-DD>.csv\"` (the export's UTC day; always the quoted form the real client matches). " +
          "`format=csv` is the only format (default; anything else `400`). Columns follow the source: the person (`x_user_id`, `handle`, `name`, `bio`, `location`, `website`, `followers_count`, `following_count`, `verified`, `can_dm`, `avatar_url`) for people, " +
          "the post (`post_id`, `post_text`, `post_url`, `posted_at`, `likes`, `replies`, `reposts`, `quotes`, `impressions`) for repliers, quoters and your own content, the brief (`summary`, `topics`, `tone`, `recent_themes`, `hooks`, `hook_urls`; lists joined with `; `, hooks one per line) for research, " +
          `and \`message\` once any row has an outreach draft. Owner-scoped (no \`account_id\`); one read. ${NOT_READY} Over MCP the tool answers the CSV as text, up to 1,000,000 characters of whole rows, with a note when it had to stop; the tRPC surface answers only the file name and columns.`,
      },
      errors: ["not_found", "dataset_not_ready"],
      download: "text/csv",
    })
    .input(exportDatasetInput)
    .output(fileDownload)
    .query(({ ctx, input }) => exportDataset(ctx, input)),

  contacts: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/datasets/{id}/contacts",
        tags,
        summary: "Copy a dataset's people into a contact list",
        description:
          "Adds every person of a ready dataset to a user contact list of the account (member `source` `dataset`): one write, no enrichment (spec Limits 7). De-duplicated by person: `added` counts new members, `duplicates` people already in the list, " +
          "`skipped_without_id` rows with no numeric X user id or handle; repeat rows of one person are dropped silently. Rerunning adds only who is missing. People the account does not know yet become contacts with the profile the dataset holds. " +
          `Own-content datasets (\`has_people\` false) answer \`400 invalid_parameter\`. A system list answers \`400 system_list_read_only\`, a list you cannot reach \`404 list_not_found\`. ${NOT_READY}`,
      },
      errors: ["not_found", "dataset_not_ready", "list_not_found", "system_list_read_only"],
    })
    .input(datasetContactsInput)
    .output(dataOf(datasetContactsResult))
    .mutation(({ ctx, input }) => copyToContactList(ctx, input)),

  refine: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/datasets/{id}/refine",
        tags,
        summary: "Refine a dataset by a criterion into a new dataset",
        description:
          "The model judges each row's own text against `criterion` (1 to 500 characters), 25 rows a call; `keep_matching` (default true) keeps the matches, `false` the others; " +
          "rows it cannot judge (no text, left out of its answer, or `unclear`) are kept and counted in `counts.unclear`. " +
          "Kept rows are sorted by `sort_by` (`followers`, `likes`, descending; `none` keeps the source's order) and cut to `limit` (1 to 1,000). Writes a NEW dataset of the same source (`refined_from`, `criterion`; refinable again), leaving the source untouched; " +
          "counts `kept`, `dropped`, `unclear` and `matched` (kept before `limit`). Only repliers and quoters datasets have row text: others answer `400 invalid_parameter`. " +
          "Takes one of the account's 10 daily collections (`429 collection_quota_exceeded`). Up to 100 rows with text answer `201` ready; more answer `202` collecting and finish in the background (poll `GET /v1/datasets/{id}`; one background collection per account: `409 collection_in_progress`). " +
          "Costs no enrichment and no AI credits (Threadline's choice: the daily slot bounds it). A model failure answers `502 upstream_error`, " +
          `\`503 upstream_unavailable\` or \`504 upstream_timeout\` and stores nothing. ${NOT_READY}`,
      },
      successStatus: 201,
      alsoAnswers: [202],
      errors: [
        "not_found",
        "dataset_not_ready",
        "collection_quota_exceeded",
        "collection_in_progress",
        "upstream_error",
        "upstream_unavailable",
        "upstream_timeout",
      ],
    })
    .input(refineDatasetInput)
    .use(inAccount)
    .output(dataOf(dataset))
    .mutation(({ ctx, input }) => startRefine(ctx, input)),
});
