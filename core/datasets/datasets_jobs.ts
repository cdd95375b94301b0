/**
 * The datasets area's job kinds: `build_dataset` finishes a background dataset
 * (build_dataset.ts); `purge_expired_datasets` deletes datasets past their 30 days.
 */
import type { JobDeps } from "../jobs/job_deps.ts";
import type { JobTasks } from "../jobs/job_task.ts";
import { buildDataset } from "./build_dataset.ts";
import { purgeExpiredDatasets } from "./purge_expired_datasets.ts";

/** The datasets area's job kinds (assembled in jobs/task_list.ts). */
export const datasetsJobs = {
  build_dataset: { handler: buildDataset },
  // Hourly: a dataset is gone at most an hour after its 30 days (reads 404 it at once).
  purge_expired_datasets: {
    handler: (deps: Pick<JobDeps, "sql" | "clock">) => purgeExpiredDatasets(deps.sql, new Date(deps.clock.now())),
    everySeconds: 3600,
  },
} satisfies JobTasks;
