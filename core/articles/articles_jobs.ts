/** The articles area's job kind: `publish_scheduled_article` publishes a due article. */
import type { JobDeps } from "../jobs/job_deps.ts";
import type { JobTasks } from "../jobs/job_task.ts";
import type { JobRow } from "../jobs/jobs_queries.ts";
import { runnerHolderPrefix } from "../leases/lease.ts";
import { publishArticleFromJob } from "./publish_article.ts";
import type { ArticleJobPayload } from "./article_publication.ts";

/** The articles area's job kind (assembled in jobs/task_list.ts). */
export const articlesJobs = {
  publish_scheduled_article: {
    // The job runner's id prefixes the lease holder, so graceful shutdown releases its leases.
    handler: (deps: Pick<JobDeps, "sql" | "network" | "clock">, payload: ArticleJobPayload, job: JobRow) =>
      publishArticleFromJob(deps, payload, job, { holderPrefix: job.locked_by ? runnerHolderPrefix(job.locked_by) : undefined }),
  },
} satisfies JobTasks;
