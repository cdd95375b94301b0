/** Collections (issue 15 scope 1). BEING BUILT: helper A replaces this file. */
import type { AccountContext } from "../context.ts";
import type { JobDeps } from "../jobs/job_kinds.ts";
import type { JobRow } from "../jobs/jobs_queries.ts";
import type { CreateDatasetInput, CreateDatasetOutput } from "./dataset_schema.ts";
import type { DatasetRow } from "./datasets_queries.ts";

/** Starts a collection. */
export async function startCollection(_ctx: AccountContext, _input: CreateDatasetInput): Promise<CreateDatasetOutput> {
  throw new Error("Collections are being built");
}

/** Runs (or resumes) a background collection. */
export async function runCollection(_deps: JobDeps, _dataset: DatasetRow, _job: JobRow): Promise<void> {
  throw new Error("Collections are being built");
}
