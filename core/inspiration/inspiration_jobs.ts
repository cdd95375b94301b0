/**
 * The `ingest_inspiration` job: reads a bounded window of recent public posts through the
 * network port into the inspiration corpus and measures the tier rates again
 * (core/inspiration/ingest_inspiration.ts). Idempotent upserts, so a retry or an
 * overlapping run only refreshes metrics.
 */
import type { JobTasks } from "../jobs/job_task.ts";
import { type IngestDeps, ingestInspiration } from "./ingest_inspiration.ts";

/** How often the corpus is refreshed. */
export const INGEST_INSPIRATION_EVERY_SECONDS = 30 * 60;

/** The inspiration area's job kind (assembled in jobs/task_list.ts). */
export const inspirationJobs = {
  // Every 30 minutes: the inspiration corpus follows the network's recent posts and metrics.
  // Called with the deps only: its second parameter is a bound, not the job's payload.
  ingest_inspiration: { handler: (deps: IngestDeps) => ingestInspiration(deps), everySeconds: INGEST_INSPIRATION_EVERY_SECONDS },
} satisfies JobTasks;
