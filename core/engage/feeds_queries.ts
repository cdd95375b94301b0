/** SQL of Engage feeds and the posts they showed (tables `engage_feeds`, `engage_feed_seen`, migration 0027). */
import type { Queryable } from "../db/sql.ts";

/** A stored feed, with the member count of its contact list (null for other types or a deleted list). */
export interface FeedRow {
  id: number;
  account_id: string;
  name: string;
  type: "keywords" | "x_list" | "list";
  keywords: string[] | null;
  x_list_id: string | null;
  x_list_name: string | null;
  list_id: number | null;
  list_member_count: number | null;
  active: boolean;
  rotation_offset: number;
  created_at: Date;
  updated_at: Date;
}

/** A feed's source as stored: exactly the column its type names. */
export interface FeedSourceColumns {
  type: FeedRow["type"];
  keywords: string[] | null;
  x_list_id: string | null;
  x_list_name: string | null;
  list_id: number | null;
}

const SELECT_FEED = (sql: Queryable) => sql`
  select f.id, f.account_id, f.name, f.type, f.keywords, f.x_list_id, f.x_list_name, f.list_id,
         l.member_count as list_member_count, f.active, f.rotation_offset, f.created_at, f.updated_at
    from engage_feeds f
    left join contact_lists l on l.id = f.list_id`;

/** The account's feeds, oldest first (the order "the first remaining feed" follows). */
export async function feedsOfAccount(sql: Queryable, accountId: string): Promise<FeedRow[]> {
  return sql<FeedRow[]>`${SELECT_FEED(sql)} where f.account_id = ${accountId} order by f.id`;
}

/** One feed by id, whoever owns it (access is checked by the caller). */
export async function feedById(sql: Queryable, id: number): Promise<FeedRow | undefined> {
  const [row] = await sql<FeedRow[]>`${SELECT_FEED(sql)} where f.id = ${id}`;
  return row;
}

/**
 * Locks the account's feeds for a create or delete and answers how many there are and
 * whether one is active: the account row is locked, so two creates cannot both pass the
 * cap of 8 or both become the open feed.
 */
export async function lockAccountFeeds(sql: Queryable, accountId: string): Promise<{ count: number; hasActive: boolean }> {
  await sql`select id from accounts where id = ${accountId} for update`;
  const [row] = await sql<{ count: number; has_active: boolean }[]>`
    select count(*)::int as count, coalesce(bool_or(active), false) as has_active
      from engage_feeds where account_id = ${accountId}`;
  return { count: row.count, hasActive: row.has_active };
}

/** Inserts a feed and answers its id. */
export async function insertFeed(
  sql: Queryable,
  feed: { accountId: string; name: string; active: boolean; source: FeedSourceColumns },
  now: Date,
): Promise<number> {
  const { source } = feed;
  const [row] = await sql<{ id: number }[]>`
    insert into engage_feeds (account_id, name, type, keywords, x_list_id, x_list_name, list_id, active, created_at, updated_at)
    values (${feed.accountId}, ${feed.name}, ${source.type}, ${source.keywords}::text[], ${source.x_list_id}, ${source.x_list_name},
            ${source.list_id}, ${feed.active}, ${now}, ${now})
    returning id`;
  return row.id;
}

/** Renames a feed and/or replaces its source (a new source starts its rotation over); false when it is gone. */
export async function updateFeed(sql: Queryable, id: number, change: { name?: string; source?: FeedSourceColumns }, now: Date): Promise<boolean> {
  const { source } = change;
  const rows = await sql`
    update engage_feeds set
      name = coalesce(${change.name ?? null}, name),
      type = ${source ? source.type : sql`type`},
      keywords = ${source ? sql`${source.keywords}::text[]` : sql`keywords`},
      x_list_id = ${source ? source.x_list_id : sql`x_list_id`},
      x_list_name = ${source ? source.x_list_name : sql`x_list_name`},
      list_id = ${source ? source.list_id : sql`list_id`},
      rotation_offset = ${source ? 0 : sql`rotation_offset`},
      updated_at = ${now}
    where id = ${id}
    returning id`;
  if (source) await sql`delete from engage_feed_seen where feed_id = ${id}`;
  return rows.length > 0;
}

/** Deletes a feed; answers whether it was the active one, or undefined when it was already gone. */
export async function deleteFeedRow(sql: Queryable, id: number): Promise<{ wasActive: boolean } | undefined> {
  const [row] = await sql<{ active: boolean }[]>`delete from engage_feeds where id = ${id} returning active`;
  return row && { wasActive: row.active };
}

/** Makes the account's oldest feed the active one (after the open feed was deleted); answers its id. */
export async function activateFirstFeed(sql: Queryable, accountId: string): Promise<number | null> {
  const [row] = await sql<{ id: number }[]>`
    update engage_feeds set active = true
     where id = (select id from engage_feeds where account_id = ${accountId} order by id limit 1)
    returning id`;
  return row?.id ?? null;
}

/** Moves a rotating feed's read position. */
export async function setRotationOffset(sql: Queryable, id: number, offset: number): Promise<void> {
  await sql`update engage_feeds set rotation_offset = ${offset} where id = ${id}`;
}

/** Which of `postIds` the feed already returned. */
export async function seenAmong(sql: Queryable, feedId: number, postIds: readonly string[]): Promise<Set<string>> {
  if (postIds.length === 0) return new Set();
  const rows = await sql<{ post_id: string }[]>`
    select post_id from engage_feed_seen where feed_id = ${feedId} and post_id = any(${postIds as string[]}::text[])`;
  return new Set(rows.map((row) => row.post_id));
}

/** Records that the feed returned `postIds` now. */
export async function markSeen(sql: Queryable, feedId: number, postIds: readonly string[], now: Date): Promise<void> {
  if (postIds.length === 0) return;
  const rows = postIds.map((post_id) => ({ feed_id: feedId, post_id, seen_at: now }));
  await sql`
    insert into engage_feed_seen ${sql(rows as never)}
    on conflict (feed_id, post_id) do update set seen_at = excluded.seen_at`;
}

/** The x user ids of a contact list's members, oldest first. */
export async function listMemberIds(sql: Queryable, listId: number): Promise<string[]> {
  const rows = await sql<{ x_user_id: string }[]>`
    select x_user_id from contact_list_members where list_id = ${listId} order by added_at, id`;
  return rows.map((row) => row.x_user_id);
}

/** The id of the account's feed called `name` (the demo world finds its feeds again by name). */
export async function feedIdNamed(sql: Queryable, accountId: string, name: string): Promise<number | undefined> {
  const [row] = await sql<{ id: number }[]>`select id from engage_feeds where account_id = ${accountId} and name = ${name} order by id limit 1`;
  return row?.id;
}
