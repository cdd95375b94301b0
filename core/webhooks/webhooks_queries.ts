/** SQL of webhook endpoints (table `webhooks`, migration 0029). */
import type { Queryable } from "../db/sql.ts";
import type { WebhookRow } from "./webhook_schema.ts";
import { LATENCY_AVERAGE_WEIGHT, SUCCESSES_IN_ROW_MAX } from "./delivery_limits.ts";

const COLUMNS = (sql: Queryable) => sql`
  id::int as id, owner_id::int as owner_id, url, events, description, enabled, secret, previous_secret,
  previous_secret_until, cursor_seq::int as cursor_seq, consecutive_failures, failing_since, disabled_reason, latency_avg_ms,
  created_at, updated_at`;

/** Locks the user's row (so two creates cannot both pass the cap) and counts their endpoints. */
export async function lockAndCountWebhooks(tx: Queryable, ownerId: number): Promise<number> {
  await tx`select id from users where id = ${ownerId} for update`;
  const [row] = await tx<{ count: number }[]>`select count(*)::int as count from webhooks where owner_id = ${ownerId}`;
  return row.count;
}

/** The highest event sequence number given so far (a new endpoint starts after it). */
export async function currentEventSeq(sql: Queryable): Promise<number> {
  const [row] = await sql<{ seq: number }[]>`select coalesce(max(seq), 0)::int as seq from events`;
  return row.seq;
}

/** Stores an endpoint. */
export async function insertWebhook(
  tx: Queryable,
  row: { ownerId: number; url: string; events: string[]; description: string | null; enabled: boolean; secret: string; cursorSeq: number; now: Date },
): Promise<WebhookRow> {
  const [created] = await tx<WebhookRow[]>`
    insert into webhooks (owner_id, url, events, description, enabled, secret, cursor_seq, created_at, updated_at)
    values (${row.ownerId}, ${row.url}, ${row.events}, ${row.description}, ${row.enabled}, ${row.secret}, ${row.cursorSeq}, ${row.now}, ${row.now})
    returning ${COLUMNS(tx)}`;
  return created;
}

/** The user's endpoints, oldest first. */
export function webhooksOf(sql: Queryable, ownerId: number, limit: number, offset: number): Promise<WebhookRow[]> {
  return sql<WebhookRow[]>`select ${COLUMNS(sql)} from webhooks where owner_id = ${ownerId} order by id limit ${limit} offset ${offset}`;
}

/** How many endpoints the user has. */
export async function countWebhooks(sql: Queryable, ownerId: number): Promise<number> {
  const [row] = await sql<{ count: number }[]>`select count(*)::int as count from webhooks where owner_id = ${ownerId}`;
  return row.count;
}

/** The user's endpoint `id`, if any. */
export async function webhookOf(sql: Queryable, ownerId: number, id: number): Promise<WebhookRow | undefined> {
  const [row] = await sql<WebhookRow[]>`select ${COLUMNS(sql)} from webhooks where owner_id = ${ownerId} and id = ${id}`;
  return row;
}

/** An endpoint by id (the delivery job). */
export async function webhookById(sql: Queryable, id: number): Promise<WebhookRow | undefined> {
  const [row] = await sql<WebhookRow[]>`select ${COLUMNS(sql)} from webhooks where id = ${id}`;
  return row;
}

/** The endpoints of every delivery `holder` holds a lease on (a delivery run's claims). */
export function webhooksLeasedBy(sql: Queryable, holder: string): Promise<WebhookRow[]> {
  return sql<WebhookRow[]>`
    select ${COLUMNS(sql)} from webhooks
     where id in (select webhook_id from webhook_deliveries where locked_until is not null and locked_by = ${holder})`;
}

/** Changes the fields given; re-enabling clears the failure run and starts after the current events. */
export async function updateWebhook(
  sql: Queryable,
  ownerId: number,
  id: number,
  change: { url?: string; events?: string[]; description?: string | null; enabled?: boolean; now: Date; enabledCursor: number },
): Promise<WebhookRow | undefined> {
  const [row] = await sql<WebhookRow[]>`
    update webhooks set
      url = coalesce(${change.url ?? null}, url),
      events = coalesce(${change.events ?? null}::text[], events),
      description = case when ${change.description !== undefined} then ${change.description ?? null} else description end,
      -- Re-enabling a disabled endpoint: the failure run starts over, and events of the time it
      -- was off are not queued (GET /v1/events holds them).
      cursor_seq = case when ${change.enabled === true} and not enabled then ${change.enabledCursor} else cursor_seq end,
      consecutive_failures = case when ${change.enabled === true} and not enabled then 0 else consecutive_failures end,
      failing_since = case when ${change.enabled === true} and not enabled then null else failing_since end,
      disabled_reason = case when ${change.enabled !== undefined} then null else disabled_reason end,
      enabled = coalesce(${change.enabled ?? null}, enabled),
      updated_at = ${change.now}
    where owner_id = ${ownerId} and id = ${id}
    returning ${COLUMNS(sql)}`;
  return row;
}

/** Deletes the user's endpoint (its deliveries go with it); answers whether it existed. */
export async function deleteWebhook(sql: Queryable, ownerId: number, id: number): Promise<boolean> {
  const rows = await sql`delete from webhooks where owner_id = ${ownerId} and id = ${id} returning 1`;
  return rows.length > 0;
}

/** Rotates the secret: the current one keeps signing until `previousUntil`. */
export async function rotateWebhookSecret(
  sql: Queryable,
  ownerId: number,
  id: number,
  secret: string,
  previousUntil: Date,
  now: Date,
): Promise<WebhookRow | undefined> {
  const [row] = await sql<WebhookRow[]>`
    update webhooks set previous_secret = secret, previous_secret_until = ${previousUntil}, secret = ${secret}, updated_at = ${now}
    where owner_id = ${ownerId} and id = ${id}
    returning ${COLUMNS(sql)}`;
  return row;
}

/** Whether any endpoint is enabled (the fan-out is idle otherwise). */
export async function anyWebhookEnabled(sql: Queryable): Promise<boolean> {
  const [row] = await sql<{ any: boolean }[]>`select exists (select 1 from webhooks where enabled) as any`;
  return row.any;
}

/**
 * The enabled endpoints whose owner has a numbered event past the endpoint's cursor, in one
 * statement (an index probe per endpoint on `events_by_owner`): an idle endpoint costs the
 * fan-out nothing more.
 */
export function webhooksWithNewEvents(sql: Queryable): Promise<WebhookRow[]> {
  return sql<WebhookRow[]>`
    select ${COLUMNS(sql)} from webhooks w
     where w.enabled and exists (select 1 from events e where e.owner_id = w.owner_id and e.seq > w.cursor_seq)
     order by w.id`;
}

/** Moves the fan-out cursor forward, unless another fan-out already did (answers whether it moved). */
export async function advanceWebhookCursor(tx: Queryable, id: number, from: number, to: number): Promise<boolean> {
  const rows = await tx`update webhooks set cursor_seq = ${to} where id = ${id} and cursor_seq = ${from} returning 1`;
  return rows.length > 0;
}

/**
 * The next value of an endpoint's average attempt duration after one that took `latencyMs`
 * (`LATENCY_AVERAGE_WEIGHT`, core/webhooks/delivery_limits.ts): the claim caps a slow
 * endpoint's deliveries in flight by it.
 */
const latencyAverage = (sql: Queryable, latencyMs: number) =>
  sql`round(latency_avg_ms * ${1 - LATENCY_AVERAGE_WEIGHT}::float8 + ${latencyMs}::float8 * ${LATENCY_AVERAGE_WEIGHT}::float8)::int`;

/** A success ends the failure run and counts the attempt's duration in the endpoint's average. */
export async function recordWebhookSuccess(tx: Queryable, id: number, latencyMs: number): Promise<void> {
  await tx`
    update webhooks set consecutive_failures = 0, failing_since = null, latency_avg_ms = ${latencyAverage(tx, latencyMs)},
      successes_in_row = least(successes_in_row + 1, ${SUCCESSES_IN_ROW_MAX}::int)
    where id = ${id}`;
}

/** A failed attempt extends the run and counts its duration in the average; answers the endpoint after it. */
export async function recordWebhookFailure(tx: Queryable, id: number, now: Date, latencyMs: number): Promise<WebhookRow | undefined> {
  const [row] = await tx<WebhookRow[]>`
    update webhooks set consecutive_failures = consecutive_failures + 1, failing_since = coalesce(failing_since, ${now}),
      latency_avg_ms = ${latencyAverage(tx, latencyMs)}, successes_in_row = 0
    where id = ${id} returning ${COLUMNS(tx)}`;
  return row;
}

/** Disables an endpoint that kept failing; answers whether this call did it (once). */
export async function disableWebhook(tx: Queryable, id: number, reason: string, now: Date): Promise<boolean> {
  const rows = await tx`update webhooks set enabled = false, disabled_reason = ${reason}, updated_at = ${now} where id = ${id} and enabled returning 1`;
  return rows.length > 0;
}

/** The account an endpoint's events are recorded under: the owner's main account. */
export async function mainAccountOf(sql: Queryable, ownerId: number): Promise<string | undefined> {
  const [row] = await sql<{ id: string }[]>`select id from accounts where user_id = ${ownerId} and main_account_id is null`;
  return row?.id;
}

/** Forgets every secret a rotation kept signing once its 24 hours are over (it must not outlive its use). */
export async function clearExpiredSecrets(sql: Queryable, now: Date): Promise<number> {
  const rows = await sql`
    update webhooks set previous_secret = null, previous_secret_until = null
     where previous_secret is not null and previous_secret_until <= ${now}
    returning id`;
  return rows.length;
}

/** A stored secret pair, as the reseal reads it. */
export interface StoredSecrets {
  id: number;
  secret: string;
  previous_secret: string | null;
}

/** Up to `limit` endpoints whose secrets are not all sealed with the key `currentPrefix` starts. */
export function secretsToReseal(sql: Queryable, currentPrefix: string, limit: number): Promise<StoredSecrets[]> {
  const like = `${currentPrefix.replace(/[\\%_]/g, "\\$&")}%`;
  return sql<StoredSecrets[]>`
    select id::int as id, secret, previous_secret from webhooks
     where secret not like ${like} or (previous_secret is not null and previous_secret not like ${like})
     order by id limit ${limit}`;
}

/** Stores the resealed pair, only if the row still holds what was read (a rotation in between wins). */
export async function replaceSecrets(sql: Queryable, read: StoredSecrets, sealed: { secret: string; previous: string | null }): Promise<void> {
  await sql`
    update webhooks set secret = ${sealed.secret}, previous_secret = ${sealed.previous}
     where id = ${read.id} and secret = ${read.secret} and previous_secret is not distinct from ${read.previous_secret}`;
}
