/**
 * The `build_dataset` job (docs/areas.md "Datasets"): finishes a dataset that answered `202 collecting`. A
 * refine (params.criterion) judges its source's rows; a research run reads its profiles;
 * every other source walks the network. Each runner resumes from what the dataset already
 * holds and ends it `ready` or `failed` itself (on its job's last attempt); a dataset that
 * is no longer collecting (finished, or purged) is left alone.
 */
import type { JobDeps } from "../jobs/job_deps.ts";
import type { JobRow } from "../jobs/jobs_queries.ts";
import type { BuildDatasetPayload } from "./dataset_job.ts";
import { datasetById } from "./datasets_queries.ts";
import { runCollection } from "./collect_dataset.ts";
import { runResearch } from "./research_dataset.ts";
import { runRefine } from "./refine_dataset.ts";

/** Runs one background dataset. */
export async function buildDataset(deps: JobDeps, payload: BuildDatasetPayload, job: JobRow): Promise<void> {
  const dataset = await datasetById(deps.sql, payload.datasetId);
  if (dataset?.status !== "collecting") return;
  if (dataset.params.criterion) return runRefine(deps, dataset, job);
  if (dataset.source === "research") return runResearch(deps, dataset, job);
  return runCollection(deps, dataset, job);
}
