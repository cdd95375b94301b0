/**
 * SQL of the engagement counts of an account's contacts (`replies_count`, `reposts_count`,
 * `engaged_count` of table `contacts`): replies the content sync stores and reposts the
 * audience sync reads, recounted over the rolling window by whichever stored something.
 */
import type { Queryable } from "../db/sql.ts";

/** The engagement window (spec: Contact list member, `engaged_count`: the last 90 days). */
export const ENGAGEMENT_WINDOW_DAYS = 90;

/** The advisory-lock namespace of the recount (ASCII "tlen"), apart from other areas' locks. */
const LOCK_NAMESPACE = 0x746c656e;

/**
 * Recounts every contact's replies and reposts to the account since `since` (the rolling
 * 90 days): replies from `received_replies` (the content sync's), reposts from
 * `audience_reposts`. People who engaged but are not yet contacts are left for the caller
 * to add first. Runs in the caller's transaction (the content sync's, which stores the
 * replies, and the audience sync's, which stores the reposts), under a lock per account: the
 * second of two concurrent recounts waits, then counts what the first committed, so counts
 * never go back to a snapshot without the other's rows.
 */
export async function recountEngagement(tx: Queryable, accountId: string, since: Date): Promise<void> {
  await tx`select pg_advisory_xact_lock(${LOCK_NAMESPACE}::int, hashtext(${accountId}::text))`;
  await tx`
    with replies as (
      select replier_x_user_id as x_user_id, count(*)::int as n, max(posted_at) as last_at
        from received_replies where account_id = ${accountId} and posted_at >= ${since}
       group by replier_x_user_id
    ), reposts as (
      select x_user_id, count(*)::int as n, max(engaged_at) as last_at
        from audience_reposts where account_id = ${accountId} and engaged_at >= ${since}
       group by x_user_id
    ), counts as (
      select coalesce(r.x_user_id, p.x_user_id) as x_user_id, coalesce(r.n, 0) as replies, coalesce(p.n, 0) as reposts,
             greatest(r.last_at, p.last_at) as last_at
        from replies r full join reposts p on p.x_user_id = r.x_user_id
    ), changed as (
      -- Everyone counted now, and everyone counted before who no longer engages.
      select c.x_user_id, coalesce(counts.replies, 0) as replies, coalesce(counts.reposts, 0) as reposts, counts.last_at
        from contacts c left join counts on counts.x_user_id = c.x_user_id
       where c.account_id = ${accountId} and (c.engaged_count > 0 or counts.x_user_id is not null)
    )
    update contacts c
       set replies_count = changed.replies, reposts_count = changed.reposts,
           last_engaged_at = coalesce(changed.last_at, c.last_engaged_at)
      from changed
     where c.account_id = ${accountId} and c.x_user_id = changed.x_user_id`;
}
