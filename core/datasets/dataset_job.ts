/**
 * The `build_dataset` job as the request path enqueues it: one job per background dataset
 * (a large collection, a research run of more than 5 profiles, a refine of more than 100
 * rows), keyed by the dataset, so a replayed enqueue never makes a second job. The job
 * (build_dataset.ts) resumes from the dataset's saved cursor on a retry.
 */
import type { Queryable } from "../db/sql.ts";
import { enqueueJob } from "../jobs/jobs_queries.ts";

/** Attempts before a background dataset ends `failed` (each resumes where the last stopped). */
export const DATASET_JOB_ATTEMPTS = 5;

/** The payload of `build_dataset`. */
export interface BuildDatasetPayload {
  datasetId: string;
}

/** Enqueues the job of dataset `datasetId` in the caller's transaction. */
export async function enqueueDatasetJob(sql: Queryable, datasetId: string): Promise<number> {
  return enqueueJob(sql, {
    kind: "build_dataset",
    payload: { datasetId } satisfies BuildDatasetPayload,
    uniqueKey: `build_dataset:${datasetId}`,
    maxAttempts: DATASET_JOB_ATTEMPTS,
  });
}
