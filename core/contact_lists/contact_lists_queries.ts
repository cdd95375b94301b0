/** SQL of contact lists (table `contact_lists`, migration 0023). */
import type { Queryable } from "../db/sql.ts";
import type { ListKind, SystemListKind } from "./contact_list_schema.ts";

/** A stored list. */
export interface ContactListRow {
  id: number;
  account_id: string;
  name: string;
  kind: ListKind;
  member_count: number;
  created_at: Date;
  updated_at: Date;
}

/** The names system lists carry (supplement: Contact Lists). */
const SYSTEM_LIST_NAMES: Record<SystemListKind, string> = {
  followers: "Followers",
  following: "Following",
  repliers: "Repliers",
  reposters: "Reposters",
};

/** Creates the account's four system lists unless they exist (one of each kind per account). */
export async function ensureSystemLists(sql: Queryable, accountId: string, now: Date): Promise<void> {
  const rows = Object.entries(SYSTEM_LIST_NAMES).map(([kind, name]) => ({ account_id: accountId, name, kind, created_at: now, updated_at: now }));
  await sql`
    insert into contact_lists ${sql(rows as never)}
    on conflict (account_id, kind) where kind <> 'custom' do nothing`;
}

/**
 * A page of the account's lists: the user's own newest first (the lists people work in),
 * then the four system lists in their fixed order. A system list's `member_count` is its index's size: follow lists
 * as the audience sync last counted them, engager lists the people with such engagement.
 */
export async function listPage(sql: Queryable, accountId: string, limit: number, offset: number) {
  return sql<(ContactListRow & { total: number })[]>`
    select l.id, l.account_id, l.name, l.kind, l.created_at, l.updated_at, count(*) over ()::int as total,
           (case l.kind
              when 'custom' then l.member_count
              when 'repliers' then (select count(*) from contacts c where c.account_id = l.account_id and c.replies_count > 0)
              when 'reposters' then (select count(*) from contacts c where c.account_id = l.account_id and c.reposts_count > 0)
              else coalesce((select s.synced_count from audience_sync_state s where s.account_id = l.account_id and s.kind = l.kind), 0)
            end)::int as member_count
      from contact_lists l
     where l.account_id = ${accountId}
     order by l.kind <> 'custom', array_position(array['followers', 'following', 'repliers', 'reposters'], l.kind), l.created_at desc, l.id desc
     limit ${limit} offset ${offset}`;
}

/** One list by id, or undefined. */
export async function listById(sql: Queryable, id: number): Promise<ContactListRow | undefined> {
  const [row] = await sql<ContactListRow[]>`select * from contact_lists where id = ${id}`;
  return row;
}

/** Locks a list for a member write (the count and the members change together), or undefined when it is gone. */
export async function lockList(sql: Queryable, id: number): Promise<ContactListRow | undefined> {
  const [row] = await sql<ContactListRow[]>`select * from contact_lists where id = ${id} for update`;
  return row;
}

/** Creates a user list. */
export async function insertList(sql: Queryable, accountId: string, name: string, now: Date): Promise<ContactListRow> {
  const [row] = await sql<ContactListRow[]>`
    insert into contact_lists (account_id, name, kind, created_at, updated_at)
    values (${accountId}, ${name}, 'custom', ${now}, ${now}) returning *`;
  return row;
}

/** Renames a list; undefined when it is gone. */
export async function renameList(sql: Queryable, id: number, name: string, now: Date): Promise<ContactListRow | undefined> {
  const [row] = await sql<ContactListRow[]>`update contact_lists set name = ${name}, updated_at = ${now} where id = ${id} returning *`;
  return row;
}

/** Deletes a list and its membership; false when it was already gone. */
export async function deleteListRow(sql: Queryable, id: number): Promise<boolean> {
  const rows = await sql`delete from contact_lists where id = ${id} returning id`;
  return rows.length > 0;
}

/** Moves a list's member count by `delta` and answers the new count. */
export async function addToMemberCount(sql: Queryable, id: number, delta: number, now: Date): Promise<number> {
  const [row] = await sql<{ member_count: number }[]>`
    update contact_lists set member_count = member_count + ${delta}, updated_at = ${now} where id = ${id} returning member_count`;
  return row.member_count;
}

/** The account's system lists the person is in (the audience index and the engagement counts say so). */
export async function systemListsOf(sql: Queryable, accountId: string, xUserId: string, engaged: { replies: number; reposts: number }) {
  return sql<{ list_id: number; name: string; kind: string }[]>`
    select l.id as list_id, l.name, l.kind from contact_lists l
     where l.account_id = ${accountId}
       and ((l.kind in ('followers', 'following')
             and exists (select 1 from audience_members a where a.account_id = l.account_id and a.kind = l.kind and a.x_user_id = ${xUserId}))
         or (l.kind = 'repliers' and ${engaged.replies} > 0)
         or (l.kind = 'reposters' and ${engaged.reposts} > 0))
     order by array_position(array['followers', 'following', 'repliers', 'reposters'], l.kind)`;
}

/** The account's oldest user list named `name`, or undefined. */
export async function userListNamed(sql: Queryable, accountId: string, name: string): Promise<ContactListRow | undefined> {
  const [row] = await sql<ContactListRow[]>`
    select * from contact_lists where account_id = ${accountId} and kind = 'custom' and name = ${name} order by id limit 1`;
  return row;
}

/** The id of the account's system list of `kind` (after `ensureSystemLists`). */
export async function systemListId(sql: Queryable, accountId: string, kind: SystemListKind): Promise<number> {
  const [row] = await sql<{ id: number }[]>`select id from contact_lists where account_id = ${accountId} and kind = ${kind}`;
  return row.id;
}
