/**
 * The DM reads (supplement section 5): one campaign with its counts per status and its
 * messages (`GET /v1/dm/campaigns/{id}`), and the account's queue (`GET /v1/dm/queue`)
 * with offset paging, as the real client pages it.
 */
import type { AccountContext, KeyContext } from "../context.ts";
import type { Queryable } from "../db/sql.ts";
import { type CampaignRow, campaignsPage, DM_STATUSES, type MessageRow, messagesOfCampaign, queuePage, statusCounts } from "./dm_queries.ts";
import { reachableCampaign } from "./dm_access.ts";
import type { CampaignByIdInput, DmQueueInput, ListCampaignsInput } from "./dm_schema.ts";
import { pageInfo } from "../schema.ts";

/** A message as the API shows it. */
export function messageView(row: MessageRow) {
  return {
    id: Number(row.id),
    campaign_id: Number(row.campaign_id),
    account_id: row.account_id,
    x_user_id: row.recipient_id,
    handle: row.handle,
    name: row.name,
    message: row.message,
    text: row.sent_text,
    status: row.status,
    send_after: row.send_after.toISOString(),
    sent_at: row.sent_at?.toISOString() ?? null,
    x_dm_id: row.x_dm_id,
    reason: row.reason,
    source_post_id: row.source_post_id,
    created_at: row.created_at.toISOString(),
  };
}

/** `GET /v1/dm/campaigns/{id}`. */
export async function readCampaign(ctx: KeyContext, input: CampaignByIdInput) {
  const campaign = await reachableCampaign(ctx, input.id, { accountId: input.account_id, write: false });
  return { data: await campaignView(ctx.services.sql, campaign) };
}

/** `GET /v1/dm/campaigns` (beyond the spec): the account's campaigns, newest first, with their counts per status. */
export async function listCampaigns(ctx: AccountContext, input: ListCampaignsInput) {
  const rows = await campaignsPage(ctx.services.sql, ctx.account.id, input.limit, (input.page - 1) * input.limit);
  const data = rows.slice(0, input.limit).map((row) => {
    const counts = Object.fromEntries(DM_STATUSES.map((status) => [status, row.status_counts?.[status] ?? 0])) as Record<(typeof DM_STATUSES)[number], number>;
    const { messages: _, ...summary } = campaignShape(row, counts, []);
    return summary;
  });
  return { data, pagination: pageInfo(input.page, input.limit, undefined, rows.length) };
}

/** A campaign as `GET /v1/dm/campaigns/{id}` shows it (also the `dm_campaign.completed` event's data). */
export async function campaignView(sql: Queryable, campaign: CampaignRow) {
  const counts = await statusCounts(sql, campaign.id);
  const messages = await messagesOfCampaign(sql, campaign.id);
  return campaignShape(campaign, counts, messages);
}

/** A campaign's answer from its row, its counts per status and its messages. */
function campaignShape(campaign: CampaignRow, counts: Record<(typeof DM_STATUSES)[number], number>, messages: readonly MessageRow[]) {
  const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
  return {
    id: Number(campaign.id),
    account_id: campaign.account_id,
    source: campaign.source,
    scheduled_post_id: campaign.scheduled_post_id === null ? null : Number(campaign.scheduled_post_id),
    created_at: campaign.created_at.toISOString(),
    counts: { ...counts, total },
    created: campaign.counts,
    messages: messages.map(messageView),
  };
}

/**
 * `GET /v1/dm/queue`: the account's messages, unsent ones first (soonest due first), then
 * the settled ones newest first; `pagination` carries `offset`, `limit`, `total`,
 * `has_more` and `next_offset`.
 */
export async function readQueue(ctx: AccountContext, input: DmQueueInput) {
  const page = await queuePage(ctx.services.sql, {
    accountId: ctx.account.id,
    statuses: input.status,
    campaignId: input.campaign_id,
    limit: input.limit,
    offset: input.offset,
  });
  const hasMore = input.offset + page.rows.length < page.total;
  return {
    data: page.rows.map(messageView),
    pagination: {
      limit: input.limit,
      offset: input.offset,
      total: page.total,
      has_more: hasMore,
      next_offset: hasMore ? input.offset + page.rows.length : null,
    },
  };
}
