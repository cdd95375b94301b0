/**
 * SQL of DM campaigns (migration 0026_dm.sql): campaigns, their messages, the counts the
 * limits are made of, and the reads. The sender's claim and outcomes are in
 * dm_send_queries.ts.
 */
import type postgres from "postgres";
import type { Queryable } from "../db/sql.ts";

/** What a message's status may be (supplement section 5: GET /v1/dm/queue `status`). */
export const DM_STATUSES = ["pending", "sending", "sent", "failed", "skipped"] as const;

/** One of `DM_STATUSES`. */
export type DmStatus = (typeof DM_STATUSES)[number];

/** A row of `dm_campaigns`. */
export interface CampaignRow {
  id: number;
  account_id: string;
  source: "api" | "auto_dm";
  scheduled_post_id: number | null;
  message: string | null;
  counts: Record<string, number>;
  created_at: Date;
}

/** A row of `dm_messages`. */
export interface MessageRow {
  id: number;
  campaign_id: number;
  account_id: string;
  recipient_id: string;
  handle: string | null;
  name: string | null;
  message: string;
  source_post_id: string | null;
  status: DmStatus;
  send_after: Date;
  month_start: Date;
  publish_attempts: number;
  outcome_unknown: boolean;
  sent_text: string | null;
  x_dm_id: string | null;
  sent_at: Date | null;
  reason: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A message to insert. */
export interface NewMessage {
  recipient_id: string;
  handle: string | null;
  name: string | null;
  message: string;
  source_post_id: string | null;
  status: "pending" | "skipped";
  send_after: Date;
  month_start: Date;
  reason: string | null;
}

/**
 * Serialises the DM writes of one account until commit (creates, and the sender's claims),
 * so two concurrent creates cannot both see room for the same units and two senders cannot
 * both send the last message the rolling day allows. Namespace "tldm" keeps it apart from
 * other advisory locks.
 */
export async function lockDmAccount(tx: Queryable, accountId: string): Promise<void> {
  await tx`select pg_advisory_xact_lock(${0x746c646d}::int, hashtext(${accountId}::text))`;
}

/** The plan id of the user owning `accountId` (DM limits follow the owner's plan). */
export async function planIdOfAccount(sql: Queryable, accountId: string): Promise<string | undefined> {
  const [row] = await sql<{ plan: string }[]>`
    select u.plan from accounts a join users u on u.id = a.user_id where a.id = ${accountId}`;
  return row?.plan;
}

/** Messages holding a unit of the month starting `monthStart` (pending, sending, sent). */
export async function countCommitted(sql: Queryable, accountId: string, monthStart: Date): Promise<number> {
  const [row] = await sql<{ count: number }[]>`
    select count(*)::int as count from dm_messages
    where account_id = ${accountId} and month_start = ${monthStart} and status in ('pending', 'sending', 'sent')`;
  return row.count;
}

/**
 * Messages of the account placed in [from, to): sent or in flight by their send time,
 * pending by the time they are due. What a rolling day already holds.
 */
export async function countPlaced(sql: Queryable, accountId: string, from: Date, to: Date): Promise<number> {
  const [row] = await sql<{ count: number }[]>`
    select count(*)::int as count from dm_messages
    where account_id = ${accountId}
      and ((status in ('sent', 'sending') and coalesce(sent_at, send_after) >= ${from} and coalesce(sent_at, send_after) < ${to})
        or (status = 'pending' and send_after >= ${from} and send_after < ${to}))`;
  return row.count;
}

/** Pending messages due before `to` (any time in the past included). */
export async function countPendingBefore(sql: Queryable, accountId: string, to: Date): Promise<number> {
  const [row] = await sql<{ count: number }[]>`
    select count(*)::int as count from dm_messages
    where account_id = ${accountId} and status = 'pending' and send_after < ${to}`;
  return row.count;
}

/**
 * Of `recipientIds`, the people this account messaged since `since` or still has queued
 * (pending or sending): a second message would be a duplicate (supplement: `duplicates`).
 */
export async function recentRecipients(sql: Queryable, accountId: string, recipientIds: readonly string[], since: Date): Promise<Set<string>> {
  if (recipientIds.length === 0) return new Set();
  const rows = await sql<{ recipient_id: string }[]>`
    select distinct recipient_id from dm_messages
    where account_id = ${accountId} and recipient_id in ${sql(recipientIds as string[])}
      and (status in ('pending', 'sending') or (status = 'sent' and sent_at > ${since}))`;
  return new Set(rows.map((row) => row.recipient_id));
}

/** Inserts a campaign and answers its id. */
export async function insertCampaign(
  tx: Queryable,
  campaign: { accountId: string; message: string | null; source: "api" | "auto_dm"; scheduledPostId?: number | null; at: Date },
): Promise<number> {
  const [row] = await tx<{ id: number }[]>`
    insert into dm_campaigns (account_id, source, scheduled_post_id, message, created_at)
    values (${campaign.accountId}, ${campaign.source}, ${campaign.scheduledPostId ?? null}, ${campaign.message}, ${campaign.at})
    returning id`;
  return row.id;
}

/** Stores the counts the create answered. */
export async function setCampaignCounts(tx: Queryable, id: number, counts: Record<string, number>): Promise<void> {
  await tx`update dm_campaigns set counts = ${tx.json(counts as postgres.JSONValue)} where id = ${id}`;
}

/** Inserts a campaign's messages in one statement. */
export async function insertMessages(tx: Queryable, campaign: { id: number; accountId: string; at: Date }, messages: readonly NewMessage[]): Promise<void> {
  if (messages.length === 0) return;
  const rows = messages.map((message) => ({
    campaign_id: campaign.id,
    account_id: campaign.accountId,
    ...message,
    created_at: campaign.at,
    updated_at: campaign.at,
  }));
  await tx`insert into dm_messages ${tx(rows)}`;
}

/** A campaign by id. */
export async function campaignById(sql: Queryable, id: number): Promise<CampaignRow | undefined> {
  const [row] = await sql<CampaignRow[]>`select * from dm_campaigns where id = ${id}`;
  return row;
}

/** A page of the account's campaigns, newest first, with their message counts per status (`limit` + 1 rows read). */
export async function campaignsPage(
  sql: Queryable,
  accountId: string,
  limit: number,
  offset: number,
): Promise<(CampaignRow & { status_counts: Record<string, number> | null })[]> {
  return sql<(CampaignRow & { status_counts: Record<string, number> | null })[]>`
    select c.*, (select jsonb_object_agg(status, n) from (select status, count(*)::int as n from dm_messages where campaign_id = c.id group by status) s) as status_counts
      from dm_campaigns c
     where c.account_id = ${accountId}
     order by c.id desc limit ${limit + 1} offset ${offset}`;
}

/** A campaign's messages, oldest first. */
export async function messagesOfCampaign(sql: Queryable, campaignId: number): Promise<MessageRow[]> {
  return sql<MessageRow[]>`select * from dm_messages where campaign_id = ${campaignId} order by id`;
}

/** A campaign's message counts per status. */
export async function statusCounts(sql: Queryable, campaignId: number): Promise<Record<DmStatus, number>> {
  const rows = await sql<{ status: DmStatus; count: number }[]>`
    select status, count(*)::int as count from dm_messages where campaign_id = ${campaignId} group by status`;
  const counts = Object.fromEntries(DM_STATUSES.map((status) => [status, 0])) as Record<DmStatus, number>;
  for (const row of rows) counts[row.status] = row.count;
  return counts;
}

/** A filter of the queue. */
export interface QueueFilter {
  accountId: string;
  statuses?: readonly DmStatus[];
  campaignId?: number;
  limit: number;
  offset: number;
}

/** The account's messages, soonest due first among unsent and newest first among the rest, with the total. */
export async function queuePage(sql: Queryable, filter: QueueFilter): Promise<{ rows: MessageRow[]; total: number }> {
  const where = sql`account_id = ${filter.accountId}
    ${filter.statuses?.length ? sql`and status in ${sql(filter.statuses as DmStatus[])}` : sql``}
    ${filter.campaignId === undefined ? sql`` : sql`and campaign_id = ${filter.campaignId}`}`;
  const rows = await sql<MessageRow[]>`
    select * from dm_messages where ${where}
    order by (status in ('pending', 'sending')) desc, case when status in ('pending', 'sending') then send_after end asc,
             coalesce(sent_at, updated_at) desc, id desc
    limit ${filter.limit} offset ${filter.offset}`;
  const [{ total }] = await sql<{ total: number }[]>`select count(*)::int as total from dm_messages where ${where}`;
  return { rows, total };
}

/**
 * Deletes the campaign's unsent rows (pending, whether due now or later) and answers how
 * many: their monthly units are free again because committed units are counted from the
 * rows. A message being sent (`sending`) stays: it may already have landed.
 */
export async function deleteUnsent(tx: Queryable, campaignId: number): Promise<number> {
  const rows = await tx`delete from dm_messages where campaign_id = ${campaignId} and status = 'pending' returning id`;
  return rows.length;
}

/** Whether the account must reconnect to the network before DMs go out (`reauth_required`). */
export async function reauthRequiredAt(sql: Queryable, accountId: string): Promise<Date | undefined> {
  const [row] = await sql<{ reauth_required_at: Date | null }[]>`
    select reauth_required_at from dm_account_states where account_id = ${accountId}`;
  return row?.reauth_required_at ?? undefined;
}

/** Records (a time) or clears (null) that the account's network authorisation was lost. */
export async function setReauthRequired(sql: Queryable, accountId: string, at: Date | null): Promise<void> {
  await sql`
    insert into dm_account_states (account_id, reauth_required_at) values (${accountId}, ${at})
    on conflict (account_id) do update set reauth_required_at = excluded.reauth_required_at`;
}
