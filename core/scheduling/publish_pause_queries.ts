/**
 * The publish jobs of an account that waits to be connected again (docs/x.md, "Publishing
 * while an account needs reconnecting"): they are deferred, and made due at once when the
 * account is connected.
 */
import type { Queryable } from "../db/sql.ts";
import { PUBLISH_JOB_KIND } from "./schedule_publication.ts";

/**
 * Makes the queued publish jobs of `accountId`'s scheduled posts due at `now` (those due later
 * only: a post scheduled for next week keeps its time). A job deferred while the account
 * needed reconnecting runs at once; the post's own `scheduled_for` still decides whether it
 * is due. Answers how many jobs were made due.
 */
export async function wakePublishJobsOf(sql: Queryable, accountId: string, now: Date): Promise<number> {
  const rows = await sql<{ id: number }[]>`
    update jobs set run_at = ${now}
     where kind = ${PUBLISH_JOB_KIND} and status = 'queued' and run_at > ${now}
       and (payload ->> 'postId')::bigint in (
         select id from scheduled_posts
          where account_id = ${accountId} and status = 'scheduled' and scheduled_for <= ${now})
    returning id`;
  return rows.length;
}
