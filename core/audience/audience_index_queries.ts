/**
 * SQL of `GET /v1/audience/{kind}`: keyset pages of the audience index (followers,
 * following) and of the engagers (contacts with replies or reposts), each on its index.
 */
import type { Queryable } from "../db/sql.ts";
import type { FollowList } from "./audience_sync_queries.ts";
import type { PersonColumns } from "../people/person_fields.ts";

/** A person of an audience list as stored. */
export interface AudienceRow extends PersonColumns {
  replies_count: number;
  reposts_count: number;
  walk_started_at: Date | null;
  walk_index: number | null;
}

/** Where a follow-list page starts: after this row in (walk_started_at desc, walk_index, x_user_id) order. */
export interface FollowKey {
  walkStartedAt: Date;
  walkIndex: number;
  xUserId: string;
}

/** Where an engager page starts: after this row in (count desc, x_user_id) order. */
export interface EngagerKey {
  count: number;
  xUserId: string;
}

/** The contact columns every audience row carries. */
function person(sql: Queryable) {
  return sql`c.x_user_id, c.username, c.name, c.avatar_url, c.location, c.followers_count, c.following_count,
             c.replies_count, c.reposts_count, c.engaged_count`;
}

/**
 * `limit` followers or following after `after`, newest walk first, then the network's
 * order (index `audience_members_by_order`). The mixed sort directions rule out a row
 * comparison, so the key is spelled out.
 */
export async function followListPage(sql: Queryable, accountId: string, kind: FollowList, after: FollowKey | undefined, limit: number): Promise<AudienceRow[]> {
  const from = after
    ? sql`and (m.walk_started_at < ${after.walkStartedAt}
           or (m.walk_started_at = ${after.walkStartedAt} and (m.walk_index, m.x_user_id) > (${after.walkIndex}, ${after.xUserId})))`
    : sql``;
  return sql<AudienceRow[]>`
    select ${person(sql)}, m.walk_started_at, m.walk_index
      from audience_members m
      join contacts c on c.account_id = m.account_id and c.x_user_id = m.x_user_id
     where m.account_id = ${accountId} and m.kind = ${kind} ${from}
     order by m.walk_started_at desc, m.walk_index, m.x_user_id
     limit ${limit}`;
}

/** `limit` repliers or reposters after `after`, most engaged first (partial indexes `contacts_by_replies` / `contacts_by_reposts`). */
export async function engagerPage(
  sql: Queryable,
  accountId: string,
  by: "replies" | "reposts",
  after: EngagerKey | undefined,
  limit: number,
): Promise<AudienceRow[]> {
  if (by === "replies") {
    const from = after ? sql`and (c.replies_count < ${after.count} or (c.replies_count = ${after.count} and c.x_user_id > ${after.xUserId}))` : sql``;
    return sql<AudienceRow[]>`
      select ${person(sql)}, null as walk_started_at, null as walk_index from contacts c
       where c.account_id = ${accountId} and c.replies_count > 0 ${from}
       order by c.replies_count desc, c.x_user_id limit ${limit}`;
  }
  const from = after ? sql`and (c.reposts_count < ${after.count} or (c.reposts_count = ${after.count} and c.x_user_id > ${after.xUserId}))` : sql``;
  return sql<AudienceRow[]>`
    select ${person(sql)}, null as walk_started_at, null as walk_index from contacts c
     where c.account_id = ${accountId} and c.reposts_count > 0 ${from}
     order by c.reposts_count desc, c.x_user_id limit ${limit}`;
}

/** How many contacts of the account replied (or reposted) in the window as last counted. */
export async function engagerCount(sql: Queryable, accountId: string, by: "replies" | "reposts"): Promise<number> {
  const [row] =
    by === "replies"
      ? await sql<{ count: number }[]>`select count(*)::int as count from contacts where account_id = ${accountId} and replies_count > 0`
      : await sql<{ count: number }[]>`select count(*)::int as count from contacts where account_id = ${accountId} and reposts_count > 0`;
  return row.count;
}
