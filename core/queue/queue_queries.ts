/** SQL of the queue: queue_settings and the queued posts a slot change or a next-slot pick reads (migration 0010). */
import type { Queryable } from "../db/sql.ts";
import type { QueueSlot } from "./queue_settings_schema.ts";
import type { StoredQueueSettings } from "./queue_defaults.ts";

/** A queued post as the queue sees it. */
export interface QueuedPostRow {
  id: number;
  scheduled_for: Date;
  publish_version: number;
  /** The publisher already wrote a part of the current version. */
  publishing: boolean;
}

/** The stored settings of an account, or undefined when it never saved any. */
export async function queueSettingsOf(sql: Queryable, accountId: string): Promise<StoredQueueSettings | undefined> {
  const [row] = await sql<StoredQueueSettings[]>`select slots, timezone from queue_settings where account_id = ${accountId}`;
  return row;
}

/**
 * The stored settings, locked for the transaction. The row is created first (all nulls:
 * the defaults) so two first writes for one account queue behind one lock instead of
 * both reading "defaults" as the old slots.
 */
export async function lockQueueSettings(sql: Queryable, accountId: string): Promise<StoredQueueSettings> {
  await sql`insert into queue_settings (account_id) values (${accountId}) on conflict (account_id) do nothing`;
  const [row] = await sql<StoredQueueSettings[]>`select slots, timezone from queue_settings where account_id = ${accountId} for update`;
  return row;
}

/** Saves both fields (`null`: back to the default). */
export async function saveQueueSettings(
  sql: Queryable,
  accountId: string,
  settings: { slots: QueueSlot[] | null; timezone: string | null },
  now: Date,
): Promise<void> {
  await sql`
    update queue_settings
       set slots = ${settings.slots === null ? null : sql.json(settings.slots)}, timezone = ${settings.timezone}, updated_at = ${now}
     where account_id = ${accountId}`;
}

/** The account's queued posts (status `scheduled`) at or after `from`, oldest first. */
export async function queuedPostsFrom(sql: Queryable, accountId: string, from: Date): Promise<QueuedPostRow[]> {
  return sql<QueuedPostRow[]>`
    select p.id, p.scheduled_for, p.publish_version,
           exists (select 1 from publish_parts pp where pp.post_id = p.id and pp.publish_version = p.publish_version) as publishing
      from scheduled_posts p
     where p.account_id = ${accountId} and p.status = 'scheduled' and p.scheduled_for >= ${from}
     order by p.scheduled_for, p.id`;
}

/** The distinct times of the account's queued posts at or after `from`. */
export async function queuedTimesFrom(sql: Queryable, accountId: string, from: Date): Promise<Date[]> {
  const rows = await sql<{ scheduled_for: Date }[]>`
    select distinct scheduled_for from scheduled_posts
     where account_id = ${accountId} and status = 'scheduled' and scheduled_for >= ${from}`;
  return rows.map((row) => row.scheduled_for);
}

/** A post as it is when locked. */
export interface LockedPostRow {
  id: number;
  status: string;
  scheduled_for: Date | null;
  publish_version: number;
}

/**
 * Locks `ids` for the transaction, skipping rows another transaction holds (the
 * publisher, a concurrent edit); answers the rows it locked as they are now.
 */
export async function lockQueuedPosts(sql: Queryable, ids: readonly number[]): Promise<LockedPostRow[]> {
  if (ids.length === 0) return [];
  return sql<LockedPostRow[]>`
    select id, status, scheduled_for, publish_version from scheduled_posts
     where id = any(${sql.array(ids as number[])}::bigint[])
     order by id
       for update skip locked`;
}

/** Moves each post to its new time in one statement. */
export async function moveQueuedPosts(sql: Queryable, moves: readonly { id: number; to: Date }[], now: Date): Promise<void> {
  if (moves.length === 0) return;
  await sql`
    update scheduled_posts p set scheduled_for = m.scheduled_for, updated_at = ${now}
      from unnest(${sql.array(moves.map((move) => move.id))}::bigint[], ${sql.array(moves.map((move) => move.to.toISOString()))}::timestamptz[]) as m (id, scheduled_for)
     where p.id = m.id`;
}
