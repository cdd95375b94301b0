/**
 * Events about DMs (docs/webhooks.md): `dm.sent` and `dm.failed` with the message as the
 * campaign and queue reads show it, and `dm_campaign.completed` (with the campaign as
 * `GET /v1/dm/campaigns/{id}` answers it) when a settled message was its campaign's last
 * one to send. All in the sender's committing transaction.
 */
import type { Queryable, Sql } from "../db/sql.ts";
import { campaignView, messageView } from "./read_campaigns.ts";
import { campaignHasUnsettled, dmMessageById, lockCampaign } from "./dm_event_queries.ts";
import { recordEvent } from "../events/record_event.ts";

/**
 * Runs `settle` (which ends message `messageId` `sent` or `failed` and answers whether it
 * did) and, when it did, records the message's event and, if nothing is left to send, the
 * campaign's, in one transaction. Answers what `settle` answered.
 */
export function settleDmRecorded(sql: Sql, messageId: number, now: Date, settle: (tx: Queryable) => Promise<boolean>): Promise<boolean> {
  return sql.begin(async (tx) => {
    const settled = await settle(tx);
    if (!settled) return false;
    const message = await dmMessageById(tx, messageId);
    if (!message || (message.status !== "sent" && message.status !== "failed")) return true;
    const type = message.status === "sent" ? "dm.sent" : "dm.failed";
    await recordEvent(tx, { accountId: message.account_id, type, objectType: "dm", objectId: message.id, data: messageView(message), now });
    const campaign = await lockCampaign(tx, message.campaign_id);
    if (campaign && !(await campaignHasUnsettled(tx, campaign.id))) {
      const data = await campaignView(tx, campaign);
      await recordEvent(tx, { accountId: campaign.account_id, type: "dm_campaign.completed", objectType: "dm_campaign", objectId: campaign.id, data, now });
    }
    return true;
  });
}
