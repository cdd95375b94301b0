/** SQL of the content sync (tables `own_posts`, `received_replies`, `account_daily_stats`, `content_sync_state`; migrations 0020, 0035). */
import type { Queryable } from "../db/sql.ts";
import type { OwnPostRow, ReceivedReplyRow } from "./own_content_rows.ts";
import { DAY_MS } from "../time/durations.ts";

/** Where the sync of one account stands. */
export interface ContentSyncState {
  account_id: string;
  newest_posted_at: Date | null;
  backfill_cursor: string | null;
  backfill_done: boolean;
  replies_newest_at: Date | null;
  history_loaded: boolean;
  budget_day: string | null;
  pages_today: number;
  last_synced_at: Date | null;
  next_sync_at: Date | null;
}

/** A day's counters of the profile. */
export interface DailyStatsRow {
  account_id: string;
  day: string;
  followers_count: number;
  following_count: number | null;
  post_count: number | null;
  recorded_at: Date;
}

const BATCH = 500;

/** The sync state of `accountId`, or undefined before its first sync. */
export async function syncStateOf(sql: Queryable, accountId: string): Promise<ContentSyncState | undefined> {
  const [row] = await sql<ContentSyncState[]>`
    select account_id, newest_posted_at, backfill_cursor, backfill_done, replies_newest_at, history_loaded,
           to_char(budget_day, 'YYYY-MM-DD') as budget_day, pages_today, last_synced_at, next_sync_at
      from content_sync_state where account_id = ${accountId}`;
  return row;
}

/** Writes the sync state (the run's last write, in its transaction). */
export async function saveSyncState(sql: Queryable, state: ContentSyncState): Promise<void> {
  await sql`
    insert into content_sync_state ${sql(state as never)}
    on conflict (account_id) do update set
      newest_posted_at = excluded.newest_posted_at, backfill_cursor = excluded.backfill_cursor,
      backfill_done = excluded.backfill_done, replies_newest_at = excluded.replies_newest_at,
      history_loaded = excluded.history_loaded, budget_day = excluded.budget_day, pages_today = excluded.pages_today,
      last_synced_at = excluded.last_synced_at, next_sync_at = excluded.next_sync_at`;
}

/** Inserts or refreshes own posts; a post's scheduled-post link and thread flag are kept. */
export async function upsertOwnPosts(sql: Queryable, rows: readonly OwnPostRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += BATCH) {
    await sql`
      insert into own_posts ${sql(rows.slice(start, start + BATCH) as never)}
      on conflict (account_id, x_post_id) do update set
        text = excluded.text, likes = excluded.likes, replies = excluded.replies, reposts = excluded.reposts,
        quotes = excluded.quotes, bookmarks = excluded.bookmarks, impressions = excluded.impressions,
        is_thread = own_posts.is_thread or excluded.is_thread, synced_at = excluded.synced_at`;
  }
}

/**
 * Marks the first post of each thread continued by `postIds` (a thread's first post has no
 * flag of its own on the network: its author's continuation reveals it).
 */
export async function markThreadStarts(sql: Queryable, accountId: string, postIds: readonly string[]): Promise<void> {
  if (postIds.length === 0) return;
  await sql`
    update own_posts set is_thread = true
     where account_id = ${accountId} and not is_thread
       and x_post_id in (select conversation_id from own_posts
                          where account_id = ${accountId} and is_thread_continuation and x_post_id = any(${postIds as string[]}::text[]))`;
}

/** Links posts Threadline published to their scheduled post (the publisher recorded the network ids). */
export async function linkScheduledPosts(sql: Queryable, accountId: string, postIds: readonly string[]): Promise<void> {
  if (postIds.length === 0) return;
  await sql`
    update own_posts o set scheduled_post_id = sp.id
      from scheduled_posts sp
     where o.account_id = ${accountId} and o.scheduled_post_id is null and o.x_post_id = any(${postIds as string[]}::text[])
       and sp.account_id = ${accountId} and sp.x_post_ids is not null and o.x_post_id = any(sp.x_post_ids)`;
}

/** Deletes own posts in [since, until) that a complete read of that window no longer found (deleted on the network); answers their UTC days. */
export async function deleteUnseenOwnPosts(sql: Queryable, accountId: string, since: Date, until: Date, seen: readonly string[]): Promise<string[]> {
  const rows = await sql<{ day: string }[]>`
    delete from own_posts
     where account_id = ${accountId} and posted_at >= ${since} and posted_at < ${until}
       and not (x_post_id = any(${seen as string[]}::text[]))
    returning to_char(posted_at at time zone 'UTC', 'YYYY-MM-DD') as day`;
  return rows.map((row) => row.day);
}

/** Recounts the `own_post_days` rows of `days` (YYYY-MM-DD) from the account's stored posts. */
export async function refreshPostDays(sql: Queryable, accountId: string, days: readonly string[]): Promise<void> {
  if (days.length === 0) return;
  const list = [...new Set(days)].sort();
  const from = new Date(`${list[0]}T00:00:00Z`);
  const to = new Date(Date.parse(`${list.at(-1)}T00:00:00Z`) + DAY_MS);
  await sql`delete from own_post_days where account_id = ${accountId} and day = any(${list}::date[])`;
  await sql`
    insert into own_post_days (account_id, day, posts, replies_sent, reposts_sent, likes, replies, reposts, quotes, bookmarks, impressions)
    select ${accountId}, (posted_at at time zone 'UTC')::date,
           count(*) filter (where category = 'post'), count(*) filter (where category = 'reply'), count(*) filter (where category = 'repost'),
           sum(likes), sum(replies), sum(reposts), sum(quotes), sum(bookmarks), sum(impressions)
      from own_posts
     where account_id = ${accountId} and posted_at >= ${from} and posted_at < ${to}
       and (posted_at at time zone 'UTC')::date = any(${list}::date[])
     group by 2`;
}

/** Texts and times of stored own posts among `postIds`. */
export async function ownPostTexts(sql: Queryable, accountId: string, postIds: readonly string[]): Promise<Map<string, { text: string; postedAt: Date }>> {
  if (postIds.length === 0) return new Map();
  const rows = await sql<{ x_post_id: string; text: string; posted_at: Date }[]>`
    select x_post_id, text, posted_at from own_posts where account_id = ${accountId} and x_post_id = any(${postIds as string[]}::text[])`;
  return new Map(rows.map((row) => [row.x_post_id, { text: row.text, postedAt: row.posted_at }]));
}

/**
 * Whether a run brings engagement not stored yet: a received reply among `replyIds` that is
 * not stored, or an own post among `posts` whose repost counter differs from the stored one
 * (a new post with reposts included). Read in the run's transaction, before its writes.
 */
export async function bringsNewEngagement(
  sql: Queryable,
  accountId: string,
  replyIds: readonly string[],
  posts: readonly Pick<OwnPostRow, "x_post_id" | "reposts">[],
): Promise<boolean> {
  const [row] = await sql<{ replies: boolean; reposts: boolean }[]>`
    select exists (
             select 1 from unnest(${replyIds as string[]}::text[]) as seen(x_post_id)
              where not exists (select 1 from received_replies r where r.account_id = ${accountId} and r.x_post_id = seen.x_post_id)
           ) as replies,
           exists (
             select 1 from unnest(${posts.map((post) => post.x_post_id)}::text[], ${posts.map((post) => post.reposts)}::int[]) as seen(x_post_id, reposts)
               left join own_posts o on o.account_id = ${accountId} and o.x_post_id = seen.x_post_id
              where (o.x_post_id is null and seen.reposts > 0) or o.reposts <> seen.reposts
           ) as reposts`;
  return row.replies || row.reposts;
}

/**
 * Records that a commit stored new engagement (`bringsNewEngagement`): the audience sync's
 * engagers are due while this version is ahead of the one they counted from. An increment in
 * place, after `saveSyncState` (which leaves the column alone), so two runs of one account
 * committing side by side both count.
 */
export async function bumpEngagementVersion(sql: Queryable, accountId: string): Promise<void> {
  await sql`update content_sync_state set engagement_version = engagement_version + 1 where account_id = ${accountId}`;
}

/** Inserts or refreshes received replies (likes move; the replier's profile is re-read). */
export async function upsertReceivedReplies(sql: Queryable, rows: readonly ReceivedReplyRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += BATCH) {
    await sql`
      insert into received_replies ${sql(rows.slice(start, start + BATCH) as never)}
      on conflict (account_id, x_post_id) do update set
        text = excluded.text, likes = excluded.likes, replies = excluded.replies,
        replier_username = excluded.replier_username, replier_name = excluded.replier_name,
        replier_avatar_url = excluded.replier_avatar_url, replier_followers_count = excluded.replier_followers_count,
        replier_verified = excluded.replier_verified,
        in_reply_to_text = coalesce(excluded.in_reply_to_text, received_replies.in_reply_to_text),
        in_reply_to_posted_at = coalesce(excluded.in_reply_to_posted_at, received_replies.in_reply_to_posted_at),
        synced_at = excluded.synced_at`;
  }
}

/** Records days of profile counters; a day already recorded keeps its richer row unless this one is today's. */
export async function upsertDailyStats(sql: Queryable, rows: readonly DailyStatsRow[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    insert into account_daily_stats ${sql(rows as never)}
    on conflict (account_id, day) do update set
      followers_count = excluded.followers_count,
      following_count = coalesce(excluded.following_count, account_daily_stats.following_count),
      post_count = coalesce(excluded.post_count, account_daily_stats.post_count),
      recorded_at = excluded.recorded_at
     where excluded.following_count is not null or account_daily_stats.following_count is null`;
}

/** Accounts whose sync is due (never synced first), oldest due first. */
export async function accountsDueForSync(sql: Queryable, now: Date, limit: number): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    select a.id from accounts a left join content_sync_state s on s.account_id = a.id
     where s.next_sync_at is null or s.next_sync_at <= ${now}
     order by s.next_sync_at nulls first, a.id
     limit ${limit}`;
  return rows.map((row) => row.id);
}
