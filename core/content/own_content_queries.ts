/** SQL of the Content and Analytics reads: the synced tables of migration 0020, never the network. */
import type { Queryable, SqlFragment } from "../db/sql.ts";
import type { OwnPostCategory, OwnPostRow } from "./own_content_rows.ts";
import { DAY_MS } from "../time/durations.ts";

/** A stored own post with the account's handle (for its URL). */
export type OwnPostListRow = Omit<OwnPostRow, "account_id" | "is_thread_continuation" | "reply_to_user_id"> & {
  scheduled_post_id: string | null;
  username: string;
};

/** A stored received reply with the account's handle. */
export interface ReceivedReplyListRow {
  x_post_id: string;
  text: string;
  posted_at: Date;
  likes: number;
  replies: number;
  replier_x_user_id: string;
  replier_username: string;
  replier_name: string;
  replier_avatar_url: string;
  replier_followers_count: number;
  replier_verified: boolean;
  in_reply_to_x_post_id: string;
  in_reply_to_text: string | null;
  in_reply_to_posted_at: Date | null;
  username: string;
}

/** One UTC day of the analytics series. */
export interface AnalyticsDayRow {
  date: string;
  posts: number;
  replies_sent: number;
  reposts_sent: number;
  likes: number;
  replies: number;
  reposts: number;
  quotes: number;
  bookmarks: number;
  impressions: number;
  followers: number | null;
}

/** A window and page of a list. */
export interface ListWindow {
  since?: Date;
  until?: Date;
  /** Rows to fetch (the page size plus one, to tell whether more follow). */
  take: number;
  skip: number;
}

/** `and <column> >= since and <column> < until`, for the bounds the window has. */
function postedWithin(sql: Queryable, column: SqlFragment, window: ListWindow): SqlFragment {
  return sql`${window.since ? sql`and ${column} >= ${window.since}` : sql``} ${window.until ? sql`and ${column} < ${window.until}` : sql``}`;
}

/** Own posts of `categories`, in `sort` order. */
export async function listOwnPostRows(
  sql: Queryable,
  accountId: string,
  categories: readonly OwnPostCategory[],
  sort: "posted_at" | "likes" | "impressions",
  window: ListWindow,
): Promise<OwnPostListRow[]> {
  const order =
    sort === "likes"
      ? sql`o.likes desc, o.posted_at desc, o.x_post_id desc`
      : sort === "impressions"
        ? sql`o.impressions desc, o.posted_at desc, o.x_post_id desc`
        : sql`o.posted_at desc, o.x_post_id desc`;
  return sql<OwnPostListRow[]>`
    select o.x_post_id, o.category, o.is_quote, o.is_thread, o.text, o.posted_at, o.conversation_id, o.reply_to_x_post_id,
           o.reposted_x_post_id, o.scheduled_post_id::text as scheduled_post_id, o.likes, o.replies, o.reposts, o.quotes,
           o.bookmarks, o.impressions, o.synced_at, a.username
      from own_posts o join accounts a on a.id = o.account_id
     where o.account_id = ${accountId} and o.category = any(${categories as string[]}::text[])
       ${postedWithin(sql, sql`o.posted_at`, window)}
     order by ${order}
     limit ${window.take} offset ${window.skip}`;
}

/** Replies the account received (from one person, with `replierId`), newest or most liked first. */
export async function listReceivedReplyRows(
  sql: Queryable,
  accountId: string,
  sort: "recent" | "most_liked",
  window: ListWindow,
  replierId?: string,
): Promise<ReceivedReplyListRow[]> {
  const order = sort === "most_liked" ? sql`r.likes desc, r.posted_at desc, r.x_post_id desc` : sql`r.posted_at desc, r.x_post_id desc`;
  return sql<ReceivedReplyListRow[]>`
    select r.x_post_id, r.text, r.posted_at, r.likes, r.replies, r.replier_x_user_id, r.replier_username, r.replier_name,
           r.replier_avatar_url, r.replier_followers_count, r.replier_verified, r.in_reply_to_x_post_id,
           coalesce(r.in_reply_to_text, o.text) as in_reply_to_text, coalesce(r.in_reply_to_posted_at, o.posted_at) as in_reply_to_posted_at,
           a.username
      from received_replies r join accounts a on a.id = r.account_id
      left join own_posts o on o.account_id = r.account_id and o.x_post_id = r.in_reply_to_x_post_id
     where r.account_id = ${accountId}
       ${replierId === undefined ? sql`` : sql`and r.replier_x_user_id = ${replierId}`}
       ${postedWithin(sql, sql`r.posted_at`, window)}
     order by ${order}
     limit ${window.take} offset ${window.skip}`;
}

/**
 * Each UTC day from `firstDay` to `lastDay` (YYYY-MM-DD, inclusive) with the posts of
 * [since, until) counted on the day they were posted and the day's recorded followers;
 * a day with nothing is a row of zeros. Whole days come from `own_post_days`; the partial
 * days at either end are counted from the posts themselves.
 */
export async function analyticsDays(
  sql: Queryable,
  accountId: string,
  since: Date,
  until: Date,
  firstDay: string,
  lastDay: string,
): Promise<AnalyticsDayRow[]> {
  const fullStart = Math.ceil(since.getTime() / DAY_MS) * DAY_MS;
  const fullEnd = Math.floor(until.getTime() / DAY_MS) * DAY_MS;
  const whole = fullStart < fullEnd;
  const rollFrom = new Date(whole ? fullStart : 0).toISOString().slice(0, 10);
  const rollTo = new Date(whole ? fullEnd : 0).toISOString().slice(0, 10);
  const headEnd = whole ? new Date(fullStart) : until;
  const tailStart = whole ? new Date(fullEnd) : until;
  return sql<AnalyticsDayRow[]>`
    with days as (
      select d::date as day from generate_series(${firstDay}::date, ${lastDay}::date, interval '1 day') as d
    ), counted as (
      select day, posts, replies_sent, reposts_sent, likes, replies, reposts, quotes, bookmarks, impressions
        from own_post_days
       where account_id = ${accountId} and day >= ${rollFrom}::date and day < ${rollTo}::date
      union all
      select (posted_at at time zone 'UTC')::date,
             count(*) filter (where category = 'post')::int, count(*) filter (where category = 'reply')::int,
             count(*) filter (where category = 'repost')::int,
             sum(likes), sum(replies), sum(reposts), sum(quotes), sum(bookmarks), sum(impressions)
        from own_posts
       where account_id = ${accountId}
         and ((posted_at >= ${since} and posted_at < ${headEnd}) or (posted_at >= ${tailStart} and posted_at < ${until}))
       group by 1
    )
    select to_char(days.day, 'YYYY-MM-DD') as date,
           coalesce(c.posts, 0)::int as posts, coalesce(c.replies_sent, 0)::int as replies_sent, coalesce(c.reposts_sent, 0)::int as reposts_sent,
           coalesce(c.likes, 0)::float8 as likes, coalesce(c.replies, 0)::float8 as replies, coalesce(c.reposts, 0)::float8 as reposts,
           coalesce(c.quotes, 0)::float8 as quotes, coalesce(c.bookmarks, 0)::float8 as bookmarks, coalesce(c.impressions, 0)::float8 as impressions,
           s.followers_count as followers
      from days
      left join counted c on c.day = days.day
      left join account_daily_stats s on s.account_id = ${accountId} and s.day = days.day
     order by days.day`;
}

/** Followers recorded on the last day at or before `day`; null when nothing was recorded by then. */
export async function followersOn(sql: Queryable, accountId: string, day: string): Promise<number | null> {
  const [row] = await sql<{ followers_count: number }[]>`
    select followers_count from account_daily_stats where account_id = ${accountId} and day <= ${day}::date order by day desc limit 1`;
  return row?.followers_count ?? null;
}

/** A part Threadline published that the content sync has not stored yet. */
export interface PendingPartRow {
  x_post_id: string;
  part_index: number;
  published_at: Date;
  scheduled_post_id: string;
  text: string | null;
  part_count: number;
  first_x_post_id: string | null;
  previous_x_post_id: string | null;
  username: string;
}

/** Parts of the account's scheduled posts published since `since` and not among its synced posts, newest first. */
export async function pendingPublishedParts(sql: Queryable, accountId: string, since: Date): Promise<PendingPartRow[]> {
  return sql<PendingPartRow[]>`
    select pp.x_post_id, pp.part_index, pp.published_at, sp.id::text as scheduled_post_id,
           sp.parts -> pp.part_index ->> 'text' as text, jsonb_array_length(sp.parts) as part_count,
           first.x_post_id as first_x_post_id, previous.x_post_id as previous_x_post_id, a.username
      from publish_parts pp
      join scheduled_posts sp on sp.id = pp.post_id
      join accounts a on a.id = sp.account_id
      left join publish_parts first on first.post_id = pp.post_id and first.publish_version = pp.publish_version and first.part_index = 0
      left join publish_parts previous on previous.post_id = pp.post_id and previous.publish_version = pp.publish_version
                                      and previous.part_index = pp.part_index - 1
     where sp.account_id = ${accountId} and pp.state = 'published' and pp.x_post_id is not null and pp.published_at >= ${since}
       and not exists (select 1 from own_posts o where o.account_id = sp.account_id and o.x_post_id = pp.x_post_id)
     order by pp.published_at desc, pp.x_post_id desc
     limit 100`;
}
