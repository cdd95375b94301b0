/** SQL of scheduled posts' auto DMs (migrations 0026 and 0032, `dm_auto_settings`). */
import type { Queryable } from "../db/sql.ts";

/** A row of `dm_auto_settings`. */
export interface AutoDmRow {
  post_id: number;
  account_id: string;
  message: string;
  triggers: ("reply" | "repost")[];
  max: number;
  batch_mode: boolean;
  enabled: boolean;
  slot_month: Date;
}

/** The post's auto DM, locked for the transaction. */
export async function autoDmOfPost(tx: Queryable, postId: number): Promise<AutoDmRow | undefined> {
  const [row] = await tx<AutoDmRow[]>`select * from dm_auto_settings where post_id = ${postId} for update`;
  return row;
}

/** Posts of the account holding a slot of the month starting `month`. */
export async function countSlots(tx: Queryable, accountId: string, month: Date): Promise<number> {
  const [row] = await tx<{ count: number }[]>`
    select count(*)::int as count from dm_auto_settings where account_id = ${accountId} and slot_month = ${month}`;
  return row.count;
}

/** Stores the post's auto DM (a new one, or a change keeping its slot month). */
export async function upsertAutoDm(tx: Queryable, row: AutoDmRow): Promise<void> {
  await tx`
    insert into dm_auto_settings (post_id, account_id, message, triggers, max, batch_mode, enabled, slot_month)
    values (${row.post_id}, ${row.account_id}, ${row.message}, ${tx.array(row.triggers)}, ${row.max}, ${row.batch_mode}, ${row.enabled}, ${row.slot_month})
    on conflict (post_id) do update set message = excluded.message, triggers = excluded.triggers, max = excluded.max,
                                        batch_mode = excluded.batch_mode, enabled = excluded.enabled`;
}

/** Removes the post's auto DM (its slot comes back). */
export async function deleteAutoDm(tx: Queryable, postId: number): Promise<void> {
  await tx`delete from dm_auto_settings where post_id = ${postId}`;
}

/** A sent post whose auto DM is on, with what the engagement read needs. */
export interface AutoDmDueRow extends AutoDmRow {
  first_post_id: string;
  campaign_id: number | null;
}

/**
 * Sent posts with an enabled auto DM, sent since `since`, at most `limit`; a post in batch
 * mode only once `batchStart` is past its sending and its last read.
 */
export async function sentPostsWithAutoDm(sql: Queryable, window: { since: Date; batchStart: Date; limit: number }): Promise<AutoDmDueRow[]> {
  return sql<AutoDmDueRow[]>`
    select d.*, p.x_post_ids[1] as first_post_id, c.id as campaign_id
      from dm_auto_settings d
      join scheduled_posts p on p.id = d.post_id
      left join dm_campaigns c on c.scheduled_post_id = d.post_id
     where d.enabled and p.status = 'sent' and p.sent_at >= ${window.since} and p.x_post_ids is not null
       and (not d.batch_mode or (p.sent_at <= ${window.batchStart} and (d.read_at is null or d.read_at <= ${window.batchStart})))
     order by p.sent_at desc
     limit ${window.limit}`;
}

/** Notes that the post's engagement was read at `at`. */
export async function markAutoDmRead(sql: Queryable, postId: number, at: Date): Promise<void> {
  await sql`update dm_auto_settings set read_at = ${at} where post_id = ${postId}`;
}

/** The people a post's auto DM campaign already holds (any status). */
export async function recipientsOfCampaign(sql: Queryable, campaignId: number): Promise<Set<string>> {
  const rows = await sql<{ recipient_id: string }[]>`select recipient_id from dm_messages where campaign_id = ${campaignId}`;
  return new Set(rows.map((row) => row.recipient_id));
}
