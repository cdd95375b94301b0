/** SQL of webhook deliveries (table `webhook_deliveries`, migrations 0029 and 0034). */
import type { Queryable, Sql } from "../db/sql.ts";
import type { Lease } from "../leases/lease.ts";
import { leasePieces } from "../leases/lease_queries.ts";
import type { DeliveryRow, WebhookRow } from "./webhook_schema.ts";
import { webhooksLeasedBy } from "./webhooks_queries.ts";
import { type DeliveryLimits, LATENCY_AVERAGE_WEIGHT, SUCCESSES_IN_ROW_MAX } from "./delivery_limits.ts";

/**
 * A delivery's lease (core/leases/): its attempts are counted when the outcome is recorded,
 * not at the take, and a job runner's shutdown does not release it (it runs out, and the
 * same delivery is posted again).
 */
const deliveryLease = leasePieces({ holder: "locked_by", until: "locked_until" });

const COLUMNS = (sql: Queryable) => sql`
  id::int as id, webhook_id::int as webhook_id, event_id, event_seq::int as event_seq, event_type, object_key, body, status, attempt,
  next_attempt_at, locked_by, locked_until, response_code, latency_ms, error, last_attempt_at, event_created_at, created_at`;

/** A delivery about to be queued. */
export interface NewDelivery {
  webhookId: number;
  eventId: string;
  eventSeq: number | null;
  eventType: string;
  objectKey: string;
  body: string;
  eventCreatedAt: Date;
}

/** Queues deliveries due at `now`; one per event and endpoint however often the fan-out runs. */
export async function insertDeliveries(tx: Queryable, deliveries: readonly NewDelivery[], now: Date): Promise<number> {
  if (deliveries.length === 0) return 0;
  const rows = await tx`
    insert into webhook_deliveries ${tx(
      deliveries.map((d) => ({
        webhook_id: d.webhookId,
        event_id: d.eventId,
        event_seq: d.eventSeq,
        event_type: d.eventType,
        object_key: d.objectKey,
        body: d.body,
        next_attempt_at: now,
        event_created_at: d.eventCreatedAt,
        created_at: now,
      })),
    )}
    on conflict (webhook_id, event_id) do nothing
    returning 1`;
  return rows.length;
}

/** Queues one delivery (a ping) and answers it. */
export async function insertDelivery(tx: Queryable, delivery: NewDelivery, now: Date): Promise<DeliveryRow> {
  const [row] = await tx<DeliveryRow[]>`
    insert into webhook_deliveries (webhook_id, event_id, event_seq, event_type, object_key, body, next_attempt_at, event_created_at, created_at)
    values (${delivery.webhookId}, ${delivery.eventId}, ${delivery.eventSeq}, ${delivery.eventType}, ${delivery.objectKey}, ${delivery.body},
            ${now}, ${delivery.eventCreatedAt}, ${now})
    returning ${COLUMNS(tx)}`;
  return row;
}

/**
 * Claims up to `limit` due deliveries for `lease`, within `limits` (docs/webhooks.md,
 * "Fairness"). A delivery is due when its time came (`next_attempt_at` against the
 * application's clock, which schedules it), no process holds a live lease on it (leases are
 * taken and judged on the database's clock, so processes whose clocks drift apart still never
 * post one attempt at once), its endpoint is enabled, and no earlier event of the same object
 * still waits for the same endpoint (events of one object arrive in order: a later event waits
 * until the earlier one succeeded or gave up).
 *
 * The caps: an endpoint takes at most its free slots (its cap, `perSlowEndpoint` once its
 * average attempt reaches `slowAfterMs`, less its deliveries under a live lease), oldest
 * first; an owner at most `perOwner` less theirs in flight. Across owners the claim takes
 * turns: every owner's first delivery comes before anyone's second, so a backlog of one owner
 * never sits in front of another's delivery. The deliveries in flight are counted from the
 * leases, in the database, so the caps hold across processes; for that the claims take turns
 * on an advisory lock, taken in its own statement, so the claim reads a snapshot in which
 * every earlier claim has committed (READ COMMITTED: each statement takes its own). SKIP LOCKED
 * still passes over a row a manual retry is taking at that moment; the lease (not the row
 * lock) is what keeps a second process from posting the same attempt while the first posts.
 *
 * Only endpoints with a pending delivery are looked at, found by skipping through the pending
 * index one endpoint at a time (a delivery in flight is pending, so every endpoint and owner
 * with deliveries in flight is counted): a thousand idle endpoints cost a claim nothing. The
 * chosen rows are taken by primary key (`= any(array(...))`), never by a join the planner
 * could turn into a scan of every delivery kept.
 */
export async function claimDueDeliveries(sql: Sql, lease: Lease, now: Date, limit: number, limits: DeliveryLimits): Promise<DeliveryRow[]> {
  // The lock and the claim are sent together (one round trip); the claim still runs, and takes
  // its snapshot, only once the lock is held.
  const [, claimed] = await sql.begin((tx) => [takeClaimLock(tx), claimStatement(tx, lease, now, limit, limits)]);
  return claimed as DeliveryRow[];
}

/** The claims' turn (see `claimDueDeliveries`), held to the end of the transaction. */
const takeClaimLock = (tx: Queryable) => tx`select pg_advisory_xact_lock(hashtextextended('webhook_delivery_claims', 0))`;

/** The claim's statement (`claimDueDeliveries`), to run after `takeClaimLock` in one transaction. */
function claimStatement(tx: Queryable, lease: Lease, now: Date, limit: number, limits: DeliveryLimits) {
  return tx<DeliveryRow[]>`
      with recursive pending_endpoints(webhook_id) as (
        (select p.webhook_id from webhook_deliveries p where p.status = 'pending' order by p.webhook_id limit 1)
        union all
        select (select p.webhook_id from webhook_deliveries p
                 where p.status = 'pending' and p.webhook_id > e.webhook_id order by p.webhook_id limit 1)
          from pending_endpoints e where e.webhook_id is not null),
      endpoints as (
        select w.id, w.owner_id,
               case when w.latency_avg_ms >= ${limits.slowAfterMs} then ${limits.perSlowEndpoint}::int
                    when w.latency_avg_ms < ${limits.quickUnderMs} and w.successes_in_row >= ${limits.quickAfter} then ${limits.perQuickEndpoint}::int
                    else ${limits.perEndpoint}::int end as cap,
               (select count(*) from webhook_deliveries f where f.webhook_id = w.id and f.locked_until >= now())::int as in_flight
          from pending_endpoints e join webhooks w on w.id = e.webhook_id
         where w.enabled),
      owners as (
        select owner_id, sum(in_flight)::int as in_flight, greatest(${limits.perOwner}::int, max(cap)) as cap from endpoints group by owner_id),
      candidates as (
        select c.id, c.next_attempt_at, e.owner_id
          from endpoints e
          cross join lateral (
            select c.id, c.next_attempt_at from webhook_deliveries c
             where c.webhook_id = e.id and c.status = 'pending' and c.next_attempt_at <= ${now}
               and ${deliveryLease.free(tx, "c")}
               and not exists (
                 select 1 from webhook_deliveries o
                  where o.webhook_id = c.webhook_id and o.object_key = c.object_key and o.status = 'pending' and o.event_seq < c.event_seq)
             order by c.next_attempt_at, c.id
             limit greatest(e.cap - e.in_flight, 0)) c),
      turns as (
        select c.id, c.next_attempt_at, o.cap - o.in_flight as owner_slots,
               row_number() over (partition by c.owner_id order by c.next_attempt_at, c.id) as turn
          from candidates c join owners o on o.owner_id = c.owner_id),
      chosen as (
        select id from turns
         where turn <= owner_slots
         order by turn, next_attempt_at, id
         limit ${limit})
      update webhook_deliveries d set ${deliveryLease.take(tx, lease)}
       where d.id = any(array(
         select c.id from webhook_deliveries c
          where c.id = any(array(select id from chosen)) and c.status = 'pending' and ${deliveryLease.free(tx, "c")}
          for update of c skip locked))
      returning ${COLUMNS(tx)}`;
}

/**
 * A delivery run's turn (core/webhooks/deliver_due.ts): records `successes` of `lease`'s holder
 * (`recordDeliverySuccesses`) and claims up to `limit` more (`claimDueDeliveries`, seeing the
 * leases just dropped) in one transaction sent as one round trip after its start, taking the
 * claims' turn first (so two runs' recordings of one endpoint never wait on each other inside
 * it); answers the claimed deliveries and the endpoints of every delivery the holder has leased.
 */
export async function recordAndClaim(
  sql: Sql,
  lease: Lease,
  successes: readonly SuccessRecord[],
  now: Date,
  limit: number,
  limits: DeliveryLimits,
): Promise<{ claimed: DeliveryRow[]; webhooks: WebhookRow[] }> {
  const answers = await sql.begin((tx) => [
    takeClaimLock(tx),
    ...(successes.length > 0 ? [successesStatement(tx, lease.holder, successes)] : []),
    claimStatement(tx, lease, now, limit, limits),
    webhooksLeasedBy(tx, lease.holder),
  ]);
  return { claimed: answers.at(-2) as DeliveryRow[], webhooks: answers.at(-1) as WebhookRow[] };
}

/** Claims one delivery of the user's endpoint (a manual retry or a ping), unless another process holds it. */
export async function claimDelivery(sql: Queryable, webhookId: number, id: number, lease: Lease): Promise<DeliveryRow | undefined> {
  const [row] = await sql<DeliveryRow[]>`
    update webhook_deliveries set ${deliveryLease.take(sql, lease)}
    where id = ${id} and webhook_id = ${webhookId} and ${deliveryLease.free(sql)}
    returning ${COLUMNS(sql)}`;
  return row;
}

/** Records an attempt's outcome, if `holder` still holds the lease; answers the row after it. */
export async function recordDeliveryAttempt(
  tx: Queryable,
  id: number,
  holder: string,
  outcome: {
    status: DeliveryRow["status"];
    attempt: number;
    nextAttemptAt: Date | null;
    responseCode: number | null;
    latencyMs: number;
    error: string | null;
    at: Date;
  },
): Promise<DeliveryRow | undefined> {
  const [row] = await tx<DeliveryRow[]>`
    update webhook_deliveries set
      status = ${outcome.status}, attempt = ${outcome.attempt}, next_attempt_at = ${outcome.nextAttemptAt},
      response_code = ${outcome.responseCode}, latency_ms = ${outcome.latencyMs}, error = ${outcome.error},
      last_attempt_at = ${outcome.at}, ${deliveryLease.drop(tx)}
    where id = ${id} and ${deliveryLease.heldBy(tx, { holder })}
    returning ${COLUMNS(tx)}`;
  return row;
}

/**
 * Records the successes of `holder`'s posts in one statement, for the deliveries whose lease
 * `holder` still holds, and for each of their endpoints ends the failure run and moves the
 * average duration as if the attempts were counted one at a time, in the order given
 * (`LATENCY_AVERAGE_WEIGHT`); answers the ids recorded.
 */
export async function recordDeliverySuccesses(sql: Queryable, holder: string, successes: readonly SuccessRecord[]): Promise<number[]> {
  const rows = await successesStatement(sql, holder, successes);
  return rows.map((row) => row.id);
}

/** What recording a success needs. */
export interface SuccessRecord {
  delivery: { id: number };
  attempt: number;
  responseCode: number | null;
  latencyMs: number;
  at: Date;
}

/** The statement of `recordDeliverySuccesses`. */
function successesStatement(sql: Queryable, holder: string, successes: readonly SuccessRecord[]) {
  const keep = 1 - LATENCY_AVERAGE_WEIGHT;
  return sql<{ id: number }[]>`
    with given as (
      select * from unnest(${sql.array(successes.map((s) => s.delivery.id))}::bigint[], ${sql.array(successes.map((s) => s.attempt))}::int[],
                           ${sql.array(successes.map((s) => s.responseCode ?? 0))}::int[], ${sql.array(successes.map((s) => s.latencyMs))}::int[],
                           ${sql.array(successes.map((s) => s.at.toISOString()))}::timestamptz[])
             with ordinality as s (id, attempt, response_code, latency_ms, at, position)),
    done as (
      update webhook_deliveries d set
        status = 'succeeded', attempt = s.attempt, next_attempt_at = null, response_code = s.response_code, latency_ms = s.latency_ms,
        error = null, last_attempt_at = s.at, ${deliveryLease.drop(sql)}
        from given s
       where d.id = s.id and ${deliveryLease.heldBy(sql, { holder })}
      returning d.id, d.webhook_id, s.latency_ms, s.position),
    ranked as (
      select webhook_id, latency_ms, row_number() over (partition by webhook_id order by position desc) - 1 as later from done),
    steps as (
      select webhook_id, count(*)::int as count, power(${keep}::float8, count(*)::float8) as keep,
             sum(${LATENCY_AVERAGE_WEIGHT}::float8 * latency_ms * power(${keep}::float8, later::float8)) as add
        from ranked group by webhook_id),
    moved as (
      update webhooks w set consecutive_failures = 0, failing_since = null, latency_avg_ms = round(w.latency_avg_ms * st.keep + st.add)::int,
             successes_in_row = least(w.successes_in_row + st.count, ${SUCCESSES_IN_ROW_MAX}::int)
        from steps st where w.id = st.webhook_id
      returning w.id)
    select id::int as id from done`;
}

/** The endpoint's deliveries, newest first. */
export function deliveriesOf(sql: Queryable, webhookId: number, limit: number, offset: number): Promise<DeliveryRow[]> {
  return sql<DeliveryRow[]>`
    select ${COLUMNS(sql)} from webhook_deliveries where webhook_id = ${webhookId} order by id desc limit ${limit} offset ${offset}`;
}

/** How many deliveries the endpoint has. */
export async function countDeliveries(sql: Queryable, webhookId: number): Promise<number> {
  const [row] = await sql<{ count: number }[]>`select count(*)::int as count from webhook_deliveries where webhook_id = ${webhookId}`;
  return row.count;
}

/** One delivery of the endpoint. */
export async function deliveryOf(sql: Queryable, webhookId: number, id: number): Promise<DeliveryRow | undefined> {
  const [row] = await sql<DeliveryRow[]>`select ${COLUMNS(sql)} from webhook_deliveries where webhook_id = ${webhookId} and id = ${id}`;
  return row;
}

/** Deletes finished deliveries created before `before`, up to `limit`; answers how many. */
export async function deleteDeliveriesBefore(sql: Queryable, before: Date, limit: number): Promise<number> {
  const rows = await sql`
    delete from webhook_deliveries where id in (
      select id from webhook_deliveries where created_at < ${before} and status <> 'pending' order by created_at limit ${limit})
    returning 1`;
  return rows.length;
}
