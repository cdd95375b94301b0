/**
 * `POST /v1/datasets`: one route, two forms (supplement: Datasets). `source: research`
 * researches profiles (research_dataset.ts); every other source collects people or posts
 * (collect_dataset.ts). Each chooses its success status (`ctx.reply`): `201` ready, `202`
 * collecting, `200` with `data: null` when nothing came of it.
 */
import type { AccountContext } from "../context.ts";
import type { CreateDatasetInput, CreateDatasetOutput } from "./dataset_schema.ts";
import { startCollection } from "./collect_dataset.ts";
import { startResearch } from "./research_dataset.ts";

/** Creates a dataset from `input` for the account in `ctx`. */
export function createDataset(ctx: AccountContext, input: CreateDatasetInput): Promise<CreateDatasetOutput> {
  return input.source === "research" ? startResearch(ctx, input) : startCollection(ctx, input);
}
