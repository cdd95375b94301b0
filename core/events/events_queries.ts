/** SQL of the event outbox (table `events`, migration 0028). */
import type { Queryable, Sql } from "../db/sql.ts";
import type { EventType } from "./event_types.ts";

/** A stored event. */
export interface EventRow {
  id: number;
  seq: number | null;
  owner_id: number;
  account_id: string;
  type: EventType;
  object_type: string;
  object_id: string;
  data: unknown;
  created_at: Date;
}

/** An event about to be stored. */
export interface NewEvent {
  accountId: string;
  type: EventType;
  objectType: string;
  objectId: string | number;
  data: unknown;
  now: Date;
}

/** Stores `event` for the account's user, in the caller's transaction; answers its id. */
export async function insertEvent(tx: Queryable, event: NewEvent): Promise<number> {
  const [row] = await tx<{ id: number }[]>`
    insert into events (owner_id, account_id, type, object_type, object_id, data, created_at)
    select a.user_id, a.id, ${event.type}, ${event.objectType}, ${String(event.objectId)}, ${tx.json(event.data as never)}, ${event.now}
    from accounts a where a.id = ${event.accountId}
    returning id::int as id`;
  return row?.id ?? 0;
}

/** Stores `events` (in order) in one statement, in the caller's transaction. */
export async function insertEvents(tx: Queryable, events: readonly NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map((event, n) => ({
    n,
    account_id: event.accountId,
    type: event.type,
    object_type: event.objectType,
    object_id: String(event.objectId),
    data: event.data,
    created_at: event.now.toISOString(),
  }));
  await tx`
    insert into events (owner_id, account_id, type, object_type, object_id, data, created_at)
    select a.user_id, a.id, e.type, e.object_type, e.object_id, e.data, e.created_at
      from jsonb_to_recordset(${tx.json(rows as never)}::jsonb)
             as e (n int, account_id text, type text, object_type text, object_id text, data jsonb, created_at timestamptz)
      join accounts a on a.id = e.account_id
     order by e.n`;
}

/**
 * Whether a committed event still waits for its `seq` (the `events_unsequenced` index). An
 * event being numbered by a sequencer that has not committed yet still reads as waiting, so
 * a `false` here never hides one: every numbered event visible is all there is to read.
 */
export async function hasUnsequencedEvents(sql: Queryable): Promise<boolean> {
  const [row] = await sql<{ waiting: boolean }[]>`select exists (select 1 from events where seq is null) as waiting`;
  return row.waiting;
}

/**
 * Gives the next `seq` numbers, in `id` order, to committed events that have none (see the
 * migration: readers page by `seq`, so a late commit is never skipped). One sequencer at a
 * time: the advisory lock is taken in its own statement, so the update that follows reads a
 * snapshot taken after the previous sequencer committed (READ COMMITTED), and every row it
 * finds without a `seq` is one no one else numbers. The rows are then updated by primary key
 * only: a second `seq is null` test on the updated side let the planner, when the table's
 * statistics were taken while it held few waiting events, scan the whole waiting index once
 * per event numbered (three seconds for a thousand in the webhooks bench). Answers how many
 * were sequenced.
 */
export async function sequenceEvents(sql: Sql, limit: number): Promise<number> {
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(7415093099)`;
    const rows = await tx`
      update events e set seq = n.seq
      from (
        -- nextval runs as the ordered rows are projected, so seq follows id.
        select id, nextval('events_seq') as seq
        from (select id from events where seq is null order by id limit ${limit}) pending
      ) n
      where e.id = n.id
      returning e.id`;
    return rows.length;
  });
}

/** Narrowing of an owner's events beyond the types. */
export interface EventFilter {
  accountId?: string;
  /** Only events created at or after this time. */
  since?: Date;
}

/** Events of the owner after `afterSeq`, oldest first. */
export async function eventsAfter(
  sql: Queryable,
  ownerId: number,
  afterSeq: number,
  limit: number,
  types?: readonly string[],
  filter: EventFilter = {},
): Promise<EventRow[]> {
  return sql<EventRow[]>`
    select id::int as id, seq::int as seq, owner_id::int as owner_id, account_id, type, object_type, object_id, data, created_at
    from events
    where owner_id = ${ownerId} and seq > ${afterSeq}
      ${types && types.length > 0 ? sql`and type in ${sql(types as string[])}` : sql``}
      ${filter.accountId === undefined ? sql`` : sql`and account_id = ${filter.accountId}`}
      ${filter.since === undefined ? sql`` : sql`and created_at >= ${filter.since}`}
    order by seq limit ${limit}`;
}

/** The last stream position given so far (0 when none): where a stream that starts "now" begins. */
export async function lastSequenced(sql: Queryable): Promise<number> {
  const [row] = await sql<{ seq: number | null }[]>`select max(seq)::int as seq from events`;
  return row?.seq ?? 0;
}

/** Deletes events older than `before`, up to `limit`; answers how many. */
export async function deleteEventsBefore(sql: Queryable, before: Date, limit: number): Promise<number> {
  const rows = await sql`
    delete from events where id in (select id from events where created_at < ${before} order by id limit ${limit}) returning 1`;
  return rows.length;
}

/** The owners with events past `afterSeq`, each with its highest position: what the event feed wakes. */
export function ownersWithEventsAfter(sql: Queryable, afterSeq: number): Promise<{ owner_id: number; seq: number }[]> {
  return sql<{ owner_id: number; seq: number }[]>`
    select owner_id::int as owner_id, max(seq)::int as seq from events where seq > ${afterSeq} group by owner_id`;
}
