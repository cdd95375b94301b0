/** The covers area's job kind: `generate_article_cover` (generate_article_cover.ts). */
import type { JobTasks } from "../jobs/job_task.ts";
import { generateArticleCover } from "./generate_article_cover.ts";

/** The covers area's job kind (assembled in jobs/task_list.ts). */
export const coversJobs = {
  generate_article_cover: {
    handler: generateArticleCover,
    // Covers take 60-100 s on a real image model and hold an image in memory each, so their
    // own lane keeps them from blocking the default loop, and a bounded width bounds memory
    // (bench/cover_jobs_section.ts: 100 queued at once).
    lane: { batchSize: 8, concurrency: 8 },
  },
} satisfies JobTasks;
