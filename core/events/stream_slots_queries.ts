/** SQL of the open event streams (table `event_streams`, migration 0033), on the database's clock. */
import type { Queryable, Sql } from "../db/sql.ts";

/** How many streams the owner has open, in all and on one key. */
export interface OpenStreams {
  user: number;
  key: number;
}

/**
 * Counts the owner's open streams and, when `fits` accepts the count, takes one more for
 * `leaseSeconds`: one transaction under a lock per owner, so two processes opening at once
 * cannot both take the last slot. Answers the count before the take and the new row's id
 * (undefined when refused). Expired rows (a process that died) are cleared on the way.
 */
export function takeStreamRow(
  sql: Sql,
  stream: { ownerId: number; keyId: number; leaseSeconds: number },
  fits: (open: OpenStreams) => boolean,
): Promise<{ open: OpenStreams; id?: number }> {
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtextextended('event_streams', ${stream.ownerId}))`;
    await tx`delete from event_streams where owner_id = ${stream.ownerId} and expires_at < now()`;
    const [open] = await tx<OpenStreams[]>`
      select count(*)::int as user, (count(*) filter (where key_id = ${stream.keyId}))::int as key
      from event_streams where owner_id = ${stream.ownerId}`;
    if (!fits(open)) return { open };
    const [row] = await tx<{ id: number }[]>`
      insert into event_streams (owner_id, key_id, expires_at)
      values (${stream.ownerId}, ${stream.keyId}, now() + ${stream.leaseSeconds} * interval '1 second')
      returning id::int as id`;
    return { open, id: row.id };
  });
}

/** Extends a stream's row by `leaseSeconds` from now. */
export async function renewStreamRow(sql: Queryable, id: number, leaseSeconds: number): Promise<void> {
  await sql`update event_streams set expires_at = now() + ${leaseSeconds} * interval '1 second' where id = ${id}`;
}

/** Frees a stream's row. */
export async function deleteStreamRow(sql: Queryable, id: number): Promise<void> {
  await sql`delete from event_streams where id = ${id}`;
}
