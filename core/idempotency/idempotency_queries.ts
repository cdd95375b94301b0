/** SQL for idempotency keys. */
import type { Queryable } from "../db/sql.ts";

/** A stored key. */
export interface IdempotencyRow {
  owner_id: string;
  key: string;
  fingerprint: string;
  procedure: string;
  state: "running" | "done";
  locked_until: Date | null;
  recovery_point: string;
  phase_data: Record<string, unknown>;
  response_status: number | null;
  response_body: unknown;
  response_headers: Record<string, string> | null;
  created_at: Date;
  /** Seconds the lease still runs (negative when expired), from the database clock. */
  lease_left: number;
}

/** Hours a key is kept (spec: Idempotency, "Keys are retained 24 hours"). */
export const RETENTION_HOURS = 24;

/**
 * Reserves the key for a first request; answers false when a live row exists. A row
 * past retention is gone as far as clients are concerned, even before the purge job
 * runs, so the insert takes its place (one statement: the benchmark measured each
 * round trip of this path).
 */
export async function reserveKey(
  sql: Queryable,
  row: { ownerId: string; key: string; fingerprint: string; procedure: string; leaseSeconds: number },
): Promise<boolean> {
  const inserted = await sql`
    insert into idempotency_keys (owner_id, key, fingerprint, procedure, state, locked_until)
    values (${row.ownerId}, ${row.key}, ${row.fingerprint}, ${row.procedure}, 'running', now() + make_interval(secs => ${row.leaseSeconds}))
    on conflict (owner_id, key) do update
       set fingerprint = excluded.fingerprint, procedure = excluded.procedure, state = 'running',
           locked_until = excluded.locked_until, recovery_point = 'started', phase_data = '{}'::jsonb,
           response_status = null, response_body = null, response_headers = null, created_at = now()
     where idempotency_keys.created_at < now() - make_interval(hours => ${RETENTION_HOURS})
    returning key`;
  return inserted.length === 1;
}

/** The row for a key. */
export async function keyRow(sql: Queryable, ownerId: string, key: string): Promise<IdempotencyRow | undefined> {
  const [row] = await sql<IdempotencyRow[]>`
    select *, extract(epoch from (locked_until - now()))::float8 as lease_left
      from idempotency_keys where owner_id = ${ownerId} and key = ${key}`;
  return row;
}

/** Takes over a running key whose lease expired (its first request died); false if someone else has it. */
export async function takeOverExpired(sql: Queryable, ownerId: string, key: string, leaseSeconds: number): Promise<boolean> {
  const rows = await sql`
    update idempotency_keys set locked_until = now() + make_interval(secs => ${leaseSeconds})
     where owner_id = ${ownerId} and key = ${key} and state = 'running' and locked_until <= now()
    returning key`;
  return rows.length === 1;
}

/** Stores the answer of a finished request. */
export async function storeAnswer(
  sql: Queryable,
  ownerId: string,
  key: string,
  answer: { status: number; body: unknown; headers: Record<string, string> },
): Promise<void> {
  await sql`
    update idempotency_keys
       set state = 'done', locked_until = null, response_status = ${answer.status},
           response_body = ${sql.json(answer.body as never)}, response_headers = ${sql.json(answer.headers)}
     where owner_id = ${ownerId} and key = ${key}`;
}

/** Records a committed phase (call inside the phase's own transaction). */
export async function recordPhase(sql: Queryable, ownerId: string, key: string, point: string, data: Record<string, unknown>): Promise<void> {
  await sql`
    update idempotency_keys set recovery_point = ${point}, phase_data = phase_data || ${sql.json(data as never)}
     where owner_id = ${ownerId} and key = ${key} and state = 'running'`;
}

/** Forgets a key whose request failed, so a retry runs again. */
export async function releaseKey(sql: Queryable, ownerId: string, key: string): Promise<void> {
  await sql`delete from idempotency_keys where owner_id = ${ownerId} and key = ${key} and state = 'running'`;
}

/** Deletes keys past retention; answers how many. */
export async function purgeExpiredKeys(sql: Queryable): Promise<number> {
  const rows = await sql`delete from idempotency_keys where created_at < now() - make_interval(hours => ${RETENTION_HOURS}) returning key`;
  return rows.length;
}
