/** SQL of contact-list members (table `contact_list_members`, migration 0023), joined to the people's profiles. */
import type { Queryable } from "../db/sql.ts";
import type { PersonColumns } from "../people/person_fields.ts";

/** A member with its person's profile. */
export interface MemberRow extends PersonColumns {
  id: string;
  source: string;
  added_at: Date;
  icp_score: number | null;
  icp_rationale: string | null;
  feedback: "fit" | "not_fit" | null;
  feedback_at: Date | null;
}

/** A list a person is in, with their member id there. */
export interface MembershipRow {
  list_id: number;
  name: string;
  kind: string;
  member_id: string;
}

const MEMBER_COLUMNS = (sql: Queryable) => sql`
  m.id::text as id, m.x_user_id, c.username, c.name, c.avatar_url, c.location, c.followers_count, c.following_count,
  c.engaged_count, m.source, m.added_at, m.icp_score, m.icp_rationale, m.feedback, m.feedback_at`;

/** `q` as an ILIKE pattern matching it anywhere, its wildcards taken literally. */
export function substringPattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * A page of a list's members, newest first. With `q` (a substring of handle or name) the
 * trigram index on contacts finds the people (`contacts_search`), so a search of a large
 * list reads the matches, not the list; `total` then counts the matches.
 *
 * The membership is probed per match (LATERAL ... LIMIT 1, at most one row by the unique
 * (list_id, x_user_id)), which fixes the join order whatever the planner estimates. As a plain
 * join it chose by estimate, and `total` needs every match anyway: with a high estimate it
 * costed the LIMIT as if it could stop early and walked the whole list newest first (1 s for
 * `q=son` on 100,000 members), and in the generic plan of the prepared statement it hashed
 * the whole list (16 ms for a one-person `q`, where the probe takes 0.3 ms). Found by
 * `npm run bench`, section audience.
 */
export async function memberPage(sql: Queryable, listId: number, accountId: string, q: string | undefined, take: number, skip: number) {
  if (q === undefined) {
    return sql<(MemberRow & { total?: number })[]>`
      select ${MEMBER_COLUMNS(sql)}
        from contact_list_members m join contacts c on c.account_id = m.account_id and c.x_user_id = m.x_user_id
       where m.list_id = ${listId}
       order by m.added_at desc, m.id desc limit ${take} offset ${skip}`;
  }
  return sql<(MemberRow & { total?: number })[]>`
    select ${MEMBER_COLUMNS(sql)}, count(*) over ()::int as total
      from contacts c
      cross join lateral (
        select id, x_user_id, source, added_at, icp_score, icp_rationale, feedback, feedback_at from contact_list_members
         where list_id = ${listId} and x_user_id = c.x_user_id limit 1) m
     where c.account_id = ${accountId} and (c.username || E'\\n' || c.name) ilike ${substringPattern(q)}
     order by m.added_at desc, m.id desc limit ${take} offset ${skip}`;
}

/** The member rows of `xUserIds` in a list. */
export async function membersByPeople(sql: Queryable, listId: number, xUserIds: readonly string[]): Promise<MemberRow[]> {
  return sql<MemberRow[]>`
    select ${MEMBER_COLUMNS(sql)}
      from contact_list_members m join contacts c on c.account_id = m.account_id and c.x_user_id = m.x_user_id
     where m.list_id = ${listId} and m.x_user_id = any(${xUserIds as string[]}::text[])`;
}

/** Adds people (contacts of the list's account) to a list; answers the ids actually added (others were members). */
export async function insertMembers(
  sql: Queryable,
  listId: number,
  accountId: string,
  xUserIds: readonly string[],
  source: string,
  now: Date,
): Promise<string[]> {
  if (xUserIds.length === 0) return [];
  const rows = await sql<{ x_user_id: string }[]>`
    insert into contact_list_members (list_id, account_id, x_user_id, source, added_at)
    select ${listId}, ${accountId}, person, ${source}, ${now} from unnest(${xUserIds as string[]}::text[]) as person
    on conflict (list_id, x_user_id) do nothing
    returning x_user_id`;
  return rows.map((row) => row.x_user_id);
}

/** Removes the members among `memberIds` from a list; answers how many were there. */
export async function deleteMembers(sql: Queryable, listId: number, memberIds: readonly string[]): Promise<number> {
  const rows = await sql`
    delete from contact_list_members where list_id = ${listId} and id = any(${memberIds as string[]}::bigint[]) returning id`;
  return rows.length;
}

/** Every user list of the account a person is in, with the member id. */
export async function membershipsOf(sql: Queryable, accountId: string, xUserId: string): Promise<MembershipRow[]> {
  return sql<MembershipRow[]>`
    select l.id as list_id, l.name, l.kind, m.id::text as member_id
      from contact_list_members m join contact_lists l on l.id = m.list_id
     where m.account_id = ${accountId} and m.x_user_id = ${xUserId}
     order by m.added_at desc, m.id desc`;
}
