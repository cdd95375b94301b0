/** SQL of best times to post: the account's own posts grouped by weekday and hour in a time zone. */
import type { Queryable } from "../db/sql.ts";

/** One weekday and hour's posts and their summed counters. */
export interface WeekdayHourRow {
  weekday: number;
  hour: number;
  posts: number;
  impressions: number;
  engagements: number;
}

/** Originals, quotes and thread starts posted in [since, until), grouped by ISO weekday and hour in `timezone`. */
export async function postsByWeekdayHour(sql: Queryable, accountId: string, timezone: string, since: Date, until: Date): Promise<WeekdayHourRow[]> {
  return sql<WeekdayHourRow[]>`
    select extract(isodow from posted_at at time zone ${timezone})::int as weekday,
           extract(hour from posted_at at time zone ${timezone})::int as hour,
           count(*)::int as posts,
           sum(impressions)::float8 as impressions,
           sum(likes + replies + reposts + quotes + bookmarks)::float8 as engagements
      from own_posts
     where account_id = ${accountId} and category = 'post' and not is_thread_continuation
       and posted_at >= ${since} and posted_at < ${until}
     group by 1, 2
     order by 1, 2`;
}
