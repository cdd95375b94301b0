/** Refine (issue 15 scope 4). BEING BUILT: helper C replaces this file. */
import type { JobDeps } from "../jobs/job_kinds.ts";
import type { JobRow } from "../jobs/jobs_queries.ts";
import type { DatasetRow } from "./datasets_queries.ts";

/** Runs (or resumes) a background refine. */
export async function runRefine(_deps: JobDeps, _dataset: DatasetRow, _job: JobRow): Promise<void> {
  throw new Error("Refine is being built");
}
