/**
 * The soak's audit: from the database (Threadline's tables and the simulated network's) and
 * from what the webhook receiver and the SSE readers recorded, that nothing was lost or done
 * twice. Each check answers its counts and its failures (a few examples each, for the report).
 */
import type postgres from "postgres";
import type { ReceivedDelivery, SseRecord } from "./soak_observers.ts";
import type { SoakUser } from "./soak_load.ts";

/** One check's outcome. */
export interface AuditCheck {
  name: string;
  counts: Record<string, number>;
  /** Empty when the check passed. */
  failures: string[];
}

/** What the audit reads besides the database. */
export interface AuditInput {
  users: SoakUser[];
  /** Events with a seq above this were made during the soak (webhooks and readers cover them). */
  baselineSeq: number;
  deliveries: ReceivedDelivery[];
  /** The receiver path of each user's webhook. */
  hookPaths: Map<number, string>;
  readers: Map<number, SseRecord>;
  creditsCharged: Record<string, number>;
}

/** Runs every check. */
export async function auditSoak(sql: postgres.Sql, input: AuditInput): Promise<AuditCheck[]> {
  const accounts = input.users.map((user) => user.ownerId);
  const owners = input.users.map((user) => user.userId);
  return [
    await auditPosts(sql, accounts),
    await auditDms(sql, accounts),
    await auditWebhooks(sql, owners, input),
    await auditStreams(sql, owners, input),
    await auditCredits(sql, accounts, input.creditsCharged),
    await auditJobs(sql),
    await auditDatasets(sql, accounts),
  ];
}

/** Every post is sent, each of its parts on the network exactly once; nothing of the soak's is on the network twice. */
async function auditPosts(sql: postgres.Sql, accounts: string[]): Promise<AuditCheck> {
  const posts = await sql<{ id: string; status: string; parts: number; ids: number; error: string | null }[]>`
    select id::text, status, jsonb_array_length(parts) as parts, coalesce(cardinality(x_post_ids), 0) as ids, error
      from scheduled_posts where account_id in ${sql(accounts)}`;
  const failures: string[] = [];
  for (const post of posts) {
    if (post.status !== "sent") failures.push(`post ${post.id} is ${post.status}${post.error ? ` (${post.error})` : ""}`);
    else if (post.ids !== post.parts) failures.push(`post ${post.id} has ${post.parts} parts but ${post.ids} network ids`);
  }
  // Each part's text (unique per part: the load puts a random marker in it) against the network.
  const parts = await sql<{ id: string; part: number; copies: number }[]>`
    select p.id::text, t.part::int,
           (select count(*)::int from network_posts n where n.author_id = p.account_id and n.text = t.part_json->>'text') as copies
      from scheduled_posts p, jsonb_array_elements(p.parts) with ordinality as t(part_json, part)
     where p.account_id in ${sql(accounts)} and p.status = 'sent'`;
  let doubled = 0;
  let missing = 0;
  for (const part of parts) {
    if (part.copies === 0) missing++;
    if (part.copies > 1) doubled++;
    if (part.copies !== 1) failures.push(`post ${part.id} part ${part.part} is on the network ${part.copies} times`);
  }
  const [late] = await sql<{ p50: number | null; p99: number | null; max: number | null }[]>`
    select percentile_cont(0.5) within group (order by ms) as p50, percentile_cont(0.99) within group (order by ms) as p99, max(ms) as max
      from (select extract(epoch from sent_at - scheduled_for) * 1000 as ms from scheduled_posts
             where account_id in ${sql(accounts)} and status = 'sent') lateness`;
  return {
    name: "due posts sent exactly once",
    counts: {
      posts: posts.length,
      sent: posts.filter((post) => post.status === "sent").length,
      parts: parts.length,
      missing_on_network: missing,
      doubled_on_network: doubled,
      lateness_p50_ms: Math.round(late.p50 ?? 0),
      lateness_p99_ms: Math.round(late.p99 ?? 0),
      lateness_max_ms: Math.round(late.max ?? 0),
    },
    failures,
  };
}

/** Every queued DM is sent, and is on the network exactly once; no DM of the soak's accounts is there twice. */
async function auditDms(sql: postgres.Sql, accounts: string[]): Promise<AuditCheck> {
  const messages = await sql<{ id: string; status: string; reason: string | null; copies: number }[]>`
    select m.id::text, m.status, m.reason,
           (select count(*)::int from network_dms d
             where d.sender_id = m.account_id and d.recipient_id = m.recipient_id and d.text = m.sent_text) as copies
      from dm_messages m where m.account_id in ${sql(accounts)}`;
  const [{ extra }] = await sql<{ extra: number }[]>`
    select count(*)::int as extra from network_dms d
     where d.sender_id in ${sql(accounts)}
       and not exists (select 1 from dm_messages m where m.account_id = d.sender_id and m.recipient_id = d.recipient_id and m.status = 'sent')`;
  const failures: string[] = [];
  for (const message of messages) {
    if (message.status !== "sent") failures.push(`DM ${message.id} is ${message.status}${message.reason ? ` (${message.reason})` : ""}`);
    else if (message.copies !== 1) failures.push(`DM ${message.id} is on the network ${message.copies} times`);
  }
  if (extra > 0) failures.push(`${extra} DMs on the network match no sent message`);
  return {
    name: "DMs sent exactly once",
    counts: {
      messages: messages.length,
      sent: messages.filter((message) => message.status === "sent").length,
      doubled_on_network: messages.filter((message) => message.copies > 1).length,
      unmatched_on_network: extra,
    },
    failures,
  };
}

/** Every event of the soak reached its user's webhook at least once, under one webhook-id, in order per object. */
async function auditWebhooks(sql: postgres.Sql, owners: number[], input: AuditInput): Promise<AuditCheck> {
  const events = await sql<{ owner_id: number; seq: number; object_key: string }[]>`
    select owner_id::int, seq::int, object_type || ':' || object_id as object_key from events
     where owner_id in ${sql(owners)} and seq > ${input.baselineSeq} order by seq`;
  const failures: string[] = [];
  let redelivered = 0;
  let outOfOrder = 0;
  let checked = 0;
  for (const owner of owners) {
    const path = input.hookPaths.get(owner)!;
    const received = input.deliveries.filter((delivery) => delivery.path === path);
    const byEvent = new Map<number, ReceivedDelivery[]>();
    for (const delivery of received) {
      const seq = Number(/^evt_(\d+)$/.exec(delivery.eventId)?.[1] ?? -1);
      byEvent.set(seq, [...(byEvent.get(seq) ?? []), delivery]);
    }
    const lastFirstArrival = new Map<string, { seq: number; order: number }>();
    for (const event of events.filter((row) => row.owner_id === owner)) {
      checked++;
      const copies = byEvent.get(event.seq) ?? [];
      const accepted = copies.filter((copy) => copy.accepted);
      if (accepted.length === 0) {
        failures.push(`evt_${event.seq} (${event.object_key}) never reached user ${owner}'s webhook (${copies.length} refused attempts)`);
        continue;
      }
      if (copies.length > 1) redelivered++;
      const ids = new Set(copies.map((copy) => copy.webhookId));
      if (ids.size !== 1) failures.push(`evt_${event.seq} arrived under ${ids.size} webhook-ids: ${[...ids].join(", ")}`);
      // In order: an object's events are taken (2xx) in their stream order, a refused one's retry before the next.
      const first = accepted[0].order;
      const previous = lastFirstArrival.get(event.object_key);
      if (previous && previous.order > first) {
        outOfOrder++;
        failures.push(`evt_${event.seq} of ${event.object_key} arrived before evt_${previous.seq}`);
      }
      lastFirstArrival.set(event.object_key, { seq: event.seq, order: first });
    }
  }
  // Every event is checked against its owner's receiver path (a type mismatch once made this vacuous).
  if (checked !== events.length) failures.push(`only ${checked} of ${events.length} events were checked against a receiver`);
  const [{ pending }] = await sql<{ pending: number }[]>`
    select count(*)::int as pending from webhook_deliveries d join webhooks w on w.id = d.webhook_id
     where w.owner_id in ${sql(owners)} and d.status <> 'delivered' and d.status <> 'succeeded' and d.status <> 'done'`;
  return {
    name: "webhooks: every event at least once, one webhook-id, in order per object",
    counts: {
      events: events.length,
      received: input.deliveries.length,
      refused_first_attempts: input.deliveries.filter((delivery) => !delivery.accepted).length,
      redelivered_events: redelivered,
      out_of_order: outOfOrder,
      undelivered_rows: pending,
    },
    failures,
  };
}

/** Every SSE reader saw every event of its user exactly once across its reconnects. */
async function auditStreams(sql: postgres.Sql, owners: number[], input: AuditInput): Promise<AuditCheck> {
  const failures: string[] = [];
  let expectedTotal = 0;
  let seenTotal = 0;
  let connects = 0;
  let drops = 0;
  const dropReasons: Record<string, number> = {};
  for (const owner of owners) {
    const reader = input.readers.get(owner)!;
    connects += reader.connects;
    drops += reader.drops;
    for (const [reason, count] of Object.entries(reader.dropReasons)) dropReasons[reason] = (dropReasons[reason] ?? 0) + count;
    const expected = (
      await sql<{ seq: number }[]>`
      select seq::int from events where owner_id = ${owner} and seq > ${input.baselineSeq} order by seq`
    ).map((row) => row.seq);
    expectedTotal += expected.length;
    seenTotal += reader.seen.length;
    const counts = new Map<number, number>();
    for (const seq of reader.seen) counts.set(seq, (counts.get(seq) ?? 0) + 1);
    const missing = expected.filter((seq) => !counts.has(seq));
    const doubled = [...counts].filter(([, count]) => count > 1).map(([seq]) => seq);
    const expectedSet = new Set(expected);
    const foreign = [...counts.keys()].filter((seq) => !expectedSet.has(seq));
    if (missing.length) failures.push(`${reader.label}: ${missing.length} events never seen (e.g. evt_${missing.slice(0, 5).join(", evt_")})`);
    if (doubled.length) failures.push(`${reader.label}: ${doubled.length} events seen twice (e.g. evt_${doubled.slice(0, 5).join(", evt_")})`);
    if (foreign.length) failures.push(`${reader.label}: ${foreign.length} events not its user's (e.g. evt_${foreign.slice(0, 5).join(", evt_")})`);
  }
  console.log(`SSE connections dropped or refused, by reason: ${JSON.stringify(dropReasons)}`);
  return { name: "SSE readers saw every event once", counts: { expected: expectedTotal, seen: seenTotal, connects, drops }, failures };
}

/** Each pool's spent equals its ledger; none overdrawn; the answers' charges are within what the ledger kept. */
async function auditCredits(sql: postgres.Sql, accounts: string[], charged: Record<string, number>): Promise<AuditCheck> {
  const pools = await sql<{ owner_id: string; allowance: number; bonus: number; spent: number; ledger: number; entries: number }[]>`
    select p.owner_id, p.allowance, p.bonus, p.spent,
           coalesce((select -sum(l.amount) from credit_ledger l where l.owner_id = p.owner_id and l.period_start = p.period_start and l.entry <> 'grant'), 0)::int as ledger,
           (select count(*)::int from credit_ledger l where l.owner_id = p.owner_id) as entries
      from credit_pools p where p.owner_id in ${sql(accounts)}`;
  const failures: string[] = [];
  for (const pool of pools) {
    if (pool.spent !== pool.ledger) failures.push(`pool ${pool.owner_id}: spent ${pool.spent} but the ledger keeps ${pool.ledger}`);
    if (pool.allowance + pool.bonus - pool.spent < 0) failures.push(`pool ${pool.owner_id} is negative: ${pool.allowance} + ${pool.bonus} - ${pool.spent}`);
    const answered = charged[pool.owner_id] ?? 0;
    if (answered > pool.ledger) failures.push(`pool ${pool.owner_id}: answers charged ${answered} but the ledger keeps ${pool.ledger}`);
  }
  return {
    name: "credit ledger equals the charges, no pool negative",
    counts: {
      pools: pools.length,
      ledger_entries: pools.reduce((sum, pool) => sum + pool.entries, 0),
      spent: pools.reduce((sum, pool) => sum + pool.spent, 0),
      charged_in_answers: Object.values(charged).reduce((sum, value) => sum + value, 0),
    },
    failures,
  };
}

/** No job stuck: none overdue and unclaimed, none held past its lease, every retry with its reason. */
async function auditJobs(sql: postgres.Sql): Promise<AuditCheck> {
  const rows = await sql<{ status: string; count: number }[]>`select status, count(*)::int as count from jobs group by status`;
  const stuck = await sql<{ id: string; kind: string; status: string; attempts: number; last_error: string | null; why: string }[]>`
    select id::text, kind, status, attempts, last_error,
           case when status = 'running' then 'held past its lease'
                when attempts > 0 and last_error is null then 'retrying without a reason'
                else 'overdue and unclaimed' end as why
      from jobs
     where (status = 'running' and locked_until < now() - interval '30 seconds')
        or (status = 'queued' and run_at < now() - interval '60 seconds')
        or (status = 'queued' and attempts > 0 and last_error is null)`;
  const failed = await sql<{ kind: string; last_error: string | null; count: number }[]>`
    select kind, last_error, count(*)::int as count from jobs where status = 'failed' group by kind, last_error`;
  const counts: Record<string, number> = Object.fromEntries(rows.map((row) => [row.status, row.count]));
  counts.retrying = (await sql<{ count: number }[]>`select count(*)::int as count from jobs where status = 'queued' and attempts > 0`)[0].count;
  return {
    name: "no job stuck",
    counts,
    failures: [
      ...stuck.map((job) => `job ${job.id} (${job.kind}, ${job.status}, ${job.attempts} attempts): ${job.why}${job.last_error ? `: ${job.last_error}` : ""}`),
      ...failed.map((group) => `${group.count} ${group.kind} jobs failed: ${group.last_error ?? "no reason"}`),
    ],
  };
}

/** Every dataset collection finished. */
async function auditDatasets(sql: postgres.Sql, accounts: string[]): Promise<AuditCheck> {
  const rows = await sql<{ status: string; count: number }[]>`
    select status, count(*)::int as count from datasets where account_id in ${sql(accounts)} group by status`;
  const counts = Object.fromEntries(rows.map((row) => [row.status, row.count]));
  const failures = rows.filter((row) => row.status !== "ready").map((row) => `${row.count} datasets are ${row.status}`);
  return { name: "dataset collections finished", counts, failures };
}
