/** SQL the DM events read (dm_events.ts): the settled message, and its campaign's state. */
import type { Queryable } from "../db/sql.ts";
import type { CampaignRow, MessageRow } from "./dm_queries.ts";

/** A message by id. */
export async function dmMessageById(sql: Queryable, id: number): Promise<MessageRow | undefined> {
  const [row] = await sql<MessageRow[]>`select * from dm_messages where id = ${id}`;
  return row;
}

/**
 * Locks campaign `id` and answers it, so two transactions settling its last two messages at
 * once see each other's outcome in turn (READ COMMITTED reads again after the wait) and
 * exactly one of them finds the campaign drained.
 */
export async function lockCampaign(tx: Queryable, id: number): Promise<CampaignRow | undefined> {
  const [row] = await tx<CampaignRow[]>`select * from dm_campaigns where id = ${id} for update`;
  return row;
}

/** Whether campaign `id` still has messages to send (pending or sending). */
export async function campaignHasUnsettled(sql: Queryable, id: number): Promise<boolean> {
  const [row] = await sql<{ open: boolean }[]>`
    select exists (select 1 from dm_messages where campaign_id = ${id} and status in ('pending', 'sending')) as open`;
  return row.open;
}
