/** SQL for the inspiration media search cache (migration 0022_inspiration_media.sql). */
import type postgres from "postgres";
import type { Queryable } from "../db/sql.ts";
import type { MediaItem } from "../ports/media_item_schema.ts";

/** The items of an owner's search stored for `queryKey` and still fresh at `now`, or undefined. */
export async function cachedMediaSearch(sql: Queryable, ownerId: string, queryKey: string, now: Date): Promise<MediaItem[] | undefined> {
  const [row] = await sql<{ items: MediaItem[] }[]>`
    select items from inspiration_media_searches
     where owner_id = ${ownerId} and query_key = ${queryKey} and expires_at > ${now}`;
  return row?.items;
}

/**
 * Stores (or replaces) an owner's search until `expiresAt`, and deletes every expired
 * search, so the table holds at most the last cache period's searches.
 */
export async function storeMediaSearch(sql: Queryable, ownerId: string, queryKey: string, items: MediaItem[], now: Date, expiresAt: Date): Promise<void> {
  await sql`delete from inspiration_media_searches where expires_at <= ${now}`;
  await sql`
    insert into inspiration_media_searches (owner_id, query_key, items, expires_at)
    values (${ownerId}, ${queryKey}, ${sql.json(items as postgres.JSONValue)}, ${expiresAt})
    on conflict (owner_id, query_key) do update set items = excluded.items, expires_at = excluded.expires_at`;
}
