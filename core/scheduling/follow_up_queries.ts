/** SQL of the follow-ups of sent posts (core/scheduling/post_follow_ups.ts). */
import type { Queryable } from "../db/sql.ts";

/**
 * Enqueues, in one statement, a `kind` job per follow-up the settings of each of `postIds`
 * ask for, due that many hours after its `sent_at`, unless one was enqueued before
 * (finished or not).
 */
export async function insertFollowUpJobs(sql: Queryable, postIds: readonly number[], options: { kind: string; autoPlugEveryHours: number }): Promise<void> {
  await sql`
    insert into jobs (kind, payload, run_at, unique_key)
    select ${options.kind}, jsonb_build_object('postId', p.id, 'action', f.action),
           p.sent_at + make_interval(hours => f.hours), 'follow-up:' || p.id || ':' || f.action
      from scheduled_posts p
      cross join lateral (values ('repost', (p.auto_retweet->>'after_hours')::int),
                                 ('auto_delete', (p.auto_delete->>'after_hours')::int),
                                 ('auto_plug', case when p.auto_plug is not null then ${options.autoPlugEveryHours}::int end)) as f (action, hours)
     where p.id = any(${sql.array(postIds as number[])}::bigint[]) and p.status = 'sent' and p.sent_at is not null and f.hours is not null
       and not exists (select 1 from jobs j where j.unique_key = 'follow-up:' || p.id || ':' || f.action)
    on conflict (unique_key) where unique_key is not null and status in ('queued', 'running') do nothing`;
}

/** Records that a follow-up step happened (so a retried job never repeats it). */
export async function markFollowUpDone(
  sql: Queryable,
  postId: number,
  column: "auto_retweeted_at" | "auto_retweet_removed_at" | "auto_deleted_at",
  at: Date,
): Promise<void> {
  await sql`update scheduled_posts set ${sql(column)} = ${at} where id = ${postId}`;
}
