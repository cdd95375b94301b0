/**
 * SQL of contacts (table `contacts`, migration 0023): the people an account knows, with
 * their profile as last read and their engagement over the rolling 90 days.
 */
import type { Queryable } from "../db/sql.ts";
import { substringPattern } from "../contact_lists/list_members_queries.ts";

/** A stored contact. */
export interface ContactRow {
  account_id: string;
  x_user_id: string;
  username: string;
  name: string;
  avatar_url: string;
  location: string;
  bio: string;
  url: string | null;
  verified: boolean;
  verified_type: string;
  followers_count: number;
  following_count: number;
  posts_count: number;
  can_dm: boolean;
  replies_count: number;
  reposts_count: number;
  engaged_count: number;
  last_engaged_at: Date | null;
  profile_read_at: Date;
  created_at: Date;
}

/** How `GET /v1/contacts` orders (supplement: Audience). */
export type ContactSort = "engagement" | "replies" | "reposts";

/** One contact of `accountId`, or undefined when the account does not know the person. */
export async function contactOf(sql: Queryable, accountId: string, xUserId: string): Promise<ContactRow | undefined> {
  const [row] = await sql<ContactRow[]>`select * from contacts where account_id = ${accountId} and x_user_id = ${xUserId}`;
  return row;
}

/**
 * A page of the account's contacts, most engaged first (ties by id, so pages are stable).
 * `replies` and `reposts` list only people with some of that engagement (partial indexes).
 */
export async function contactsPage(sql: Queryable, accountId: string, sort: ContactSort, limit: number, offset: number, q?: string): Promise<ContactRow[]> {
  const matching = q === undefined ? sql`` : sql`and (username || E'\\n' || name) ilike ${substringPattern(q)}`;
  if (sort === "replies") {
    return sql<ContactRow[]>`
      select * from contacts where account_id = ${accountId} and replies_count > 0 ${matching}
       order by replies_count desc, x_user_id limit ${limit} offset ${offset}`;
  }
  if (sort === "reposts") {
    return sql<ContactRow[]>`
      select * from contacts where account_id = ${accountId} and reposts_count > 0 ${matching}
       order by reposts_count desc, x_user_id limit ${limit} offset ${offset}`;
  }
  return sql<ContactRow[]>`
    select * from contacts where account_id = ${accountId} ${matching}
     order by engaged_count desc, x_user_id limit ${limit} offset ${offset}`;
}

/**
 * Recounts every contact's replies and reposts to the account since `since` (the rolling
 * 90 days): replies from `received_replies` (the content sync's), reposts from
 * `audience_reposts`. People who engaged but are not yet contacts are left for the caller
 * to add first. Runs in the sync's transaction.
 */
export async function recountEngagement(sql: Queryable, accountId: string, since: Date): Promise<void> {
  await sql`
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
