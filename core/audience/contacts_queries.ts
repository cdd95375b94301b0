/**
 * SQL of contacts (table `contacts`, migration 0023): the people an account knows, with
 * their profile as last read and their engagement over the rolling 90 days.
 */
import type { Queryable } from "../db/sql.ts";

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
export async function contactsPage(sql: Queryable, accountId: string, sort: ContactSort, limit: number, offset: number): Promise<ContactRow[]> {
  if (sort === "replies") {
    return sql<ContactRow[]>`
      select * from contacts where account_id = ${accountId} and replies_count > 0
       order by replies_count desc, x_user_id limit ${limit} offset ${offset}`;
  }
  if (sort === "reposts") {
    return sql<ContactRow[]>`
      select * from contacts where account_id = ${accountId} and reposts_count > 0
       order by reposts_count desc, x_user_id limit ${limit} offset ${offset}`;
  }
  return sql<ContactRow[]>`
    select * from contacts where account_id = ${accountId}
     order by engaged_count desc, x_user_id limit ${limit} offset ${offset}`;
}
