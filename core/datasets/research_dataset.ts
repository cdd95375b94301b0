/** Research (issue 15 scope 2). BEING BUILT: helper B replaces this file. */
import type { AccountContext } from "../context.ts";
import type { JobDeps } from "../jobs/job_kinds.ts";
import type { JobRow } from "../jobs/jobs_queries.ts";
import type { CreateDatasetInput, CreateDatasetOutput } from "./dataset_schema.ts";
import type { DatasetRow } from "./datasets_queries.ts";

/** Starts a research run. */
export async function startResearch(_ctx: AccountContext, _input: CreateDatasetInput): Promise<CreateDatasetOutput> {
  throw new Error("Research is being built");
}

/** Runs (or resumes) a background research run. */
export async function runResearch(_deps: JobDeps, _dataset: DatasetRow, _job: JobRow): Promise<void> {
  throw new Error("Research is being built");
}
