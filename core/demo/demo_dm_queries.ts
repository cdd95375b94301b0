/** SQL of the demo world's DM campaign (core/demo/demo_dm.ts): finding it again on a re-run, and placing some of it later. */
import type { Queryable } from "../db/sql.ts";

/** The account's campaign with the demo's shared message, or undefined. */
export async function demoCampaignWithMessage(sql: Queryable, accountId: string, message: string): Promise<number | undefined> {
  const [row] = await sql<{ id: number }[]>`
    select id from dm_campaigns where account_id = ${accountId} and message = ${message} order by id limit 1`;
  return row?.id === undefined ? undefined : Number(row.id);
}

/** Moves the campaign's last `count` pending messages to `at` (as `spread` would have placed them). */
export async function placePendingLater(sql: Queryable, campaignId: number, count: number, at: Date): Promise<void> {
  await sql`
    update dm_messages set send_after = ${at}
     where id in (select id from dm_messages where campaign_id = ${campaignId} and status = 'pending' order by id desc limit ${count})`;
}
