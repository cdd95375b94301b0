/**
 * Datasets: create (collect or research), list and read (`POST /v1/datasets`, `GET
 * /v1/datasets`, `GET /v1/datasets/{id}`; issue 15; spec rules 7-8, Datasets, Limits 7-8;
 * supplement: Datasets). Reads are owner-scoped (no `account_id`).
 */
import { z } from "zod";
import { inAccount, keyProcedure, router } from "../core/trpc.ts";
import { dataOf, listOf, paginationInput } from "../core/schema.ts";
import { createDatasetInput, createDatasetOutput, dataset, datasetId } from "../core/datasets/dataset_schema.ts";
import { createDataset } from "../core/datasets/create_dataset.ts";
import { getDataset, listDatasets } from "../core/datasets/read_datasets.ts";

const tags = ["Datasets"];

export const datasetsRouter = router({
  create: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/datasets",
        tags,
        summary: "Collect an audience or research profiles into a dataset",
        description: "BEING BUILT (issue 15): the full rules are written with the collection and research features.",
      },
      successStatus: 201,
      alsoAnswers: [200, 202],
      errors: ["collection_in_progress", "collection_quota_exceeded", "upstream_unavailable", "upstream_error", "upstream_timeout"],
    })
    .input(createDatasetInput)
    .use(inAccount)
    .output(createDatasetOutput)
    .mutation(({ ctx, input }) => createDataset(ctx, input)),

  list: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/datasets",
        tags,
        summary: "List your datasets",
        description: "Newest first, every dataset of yours (whichever account built it: owner-scoped, no `account_id`) that has not passed its 30 days.",
      },
    })
    .input(z.object(paginationInput(20)).prefault({}))
    .output(listOf(dataset))
    .query(({ ctx, input }) => listDatasets(ctx, input)),

  get: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/datasets/{id}",
        tags,
        summary: "Read a dataset's status, counts and coverage",
        description:
          "Poll this while a dataset is `collecting` (the real client polls every 5 s): `rows_collected` and `expected_total` show progress. " +
          "`collecting` finishes on its own; `failed` must be built again. Owner-scoped; an expired id (30 days) is `404 not_found`.",
      },
      errors: ["not_found"],
    })
    .input(z.object({ id: datasetId }))
    .output(dataOf(dataset))
    .query(({ ctx, input }) => getDataset(ctx, input)),
});
