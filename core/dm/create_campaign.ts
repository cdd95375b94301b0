/**
 * `POST /v1/dm/campaigns` (docs/areas.md "DM campaigns and auto DM"; spec rule 7: "DM campaign creation only
 * enqueues"; supplement: DMs): checks the plan and the account's network authorisation,
 * drops the account itself and people messaged in the last 24 hours, places the rest within
 * the month and the rolling day (core/dm/dm_limits.ts), and stores the campaign, its
 * messages and the sender's job in one transaction under the account's DM lock.
 */
import type { NetworkDmWindow } from "../network/network_records.ts";
import type { AccountContext } from "../context.ts";
import type { Queryable } from "../db/sql.ts";
import { ApiError } from "../errors.ts";
import type { DmAllowance } from "../plans/plans.ts";
import { insertCampaign, insertMessages, lockDmAccount, type NewMessage, reauthRequiredAt, recentRecipients, setCampaignCounts } from "./dm_queries.ts";
import { dmAllowanceOf, dmNotInPlan, monthStartOf, placeMessages } from "./dm_limits.ts";
import { DAY_MS } from "../time/durations.ts";
import type { CreateCampaignInput, Recipient } from "./dm_schema.ts";
import { enqueueDmSending } from "./dm_sending_jobs.ts";

/** The counts a create answers. */
export interface CampaignCounts {
  queued: number;
  queued_now: number;
  scheduled: number;
  skipped: number;
  duplicates: number;
}

/** Creates a campaign for the request's account and answers its id and counts. */
export async function createCampaign(ctx: AccountContext, input: CreateCampaignInput) {
  const { sql, clock } = ctx.services;
  const allowance = await dmAllowanceOf(sql, ctx.account.id);
  if (!allowance) throw dmNotInPlan();
  const now = clock.now();
  const created = await sql.begin((tx) =>
    enqueueCampaign(tx, {
      accountId: ctx.account.id,
      allowance,
      now,
      message: input.message ?? null,
      recipients: input.recipients,
      spread: input.spread === true,
      source: "api",
      networkWindow: ctx.services.network.info.dmWindow,
    }),
  );
  return { data: { id: created.id, campaign_id: created.id, ...created.counts } };
}

/** A campaign to enqueue (REST create or a post's auto DM). */
export interface EnqueueRequest {
  accountId: string;
  allowance: DmAllowance;
  now: number;
  message: string | null;
  recipients: readonly Recipient[];
  spread: boolean;
  source: "api" | "auto_dm";
  scheduledPostId?: number;
  /** Adds to this campaign instead of making one (a post's auto DM grows one campaign). */
  campaignId?: number;
  /** The network's own DM window (X's), which placement keeps within as well as the plan's. */
  networkWindow?: NetworkDmWindow;
}

/**
 * Enqueues a campaign inside `tx` (which it locks for the account): `409 reauth_required`
 * while the account's network authorisation is lost, `429 dm_limit_reached` when the limits
 * refuse; otherwise the campaign, its messages and the sender's job commit together.
 */
export async function enqueueCampaign(tx: Queryable, request: EnqueueRequest): Promise<{ id: number; counts: CampaignCounts }> {
  const { accountId, allowance, now } = request;
  await lockDmAccount(tx, accountId);
  if (await reauthRequiredAt(tx, accountId)) {
    throw new ApiError("reauth_required", "The account's X authorisation was lost; reconnect it in the companion app, then retry");
  }
  const at = new Date(now);
  const recent = await recentRecipients(
    tx,
    accountId,
    request.recipients.map((recipient) => recipient.x_user_id),
    new Date(now - DAY_MS),
  );
  const seen = new Set<string>();
  let duplicates = 0;
  let self = 0;
  const eligible: Recipient[] = [];
  for (const recipient of request.recipients) {
    // "The account never messages itself" (supplement: DMs).
    if (recipient.x_user_id === accountId) self++;
    else if (recent.has(recipient.x_user_id) || seen.has(recipient.x_user_id)) duplicates++;
    else eligible.push(recipient);
    seen.add(recipient.x_user_id);
  }
  const placement = await placeMessages(tx, {
    accountId,
    allowance,
    now,
    count: eligible.length,
    spread: request.spread,
    networkWindow: request.networkWindow,
  });
  const month = monthStartOf(now);
  const messages: NewMessage[] = eligible.map((recipient, i) => {
    const sendAfter = placement.sendAfter[i];
    return {
      recipient_id: recipient.x_user_id,
      handle: recipient.handle ?? null,
      name: recipient.name ?? null,
      message: recipient.message ?? (request.message as string),
      source_post_id: recipient.source_post_id ?? null,
      status: sendAfter ? "pending" : "skipped",
      send_after: sendAfter ?? at,
      month_start: month,
      reason: sendAfter ? null : "The rolling 24-hour allowance is used and this plan cannot schedule messages for later",
    };
  });
  const queued = placement.sendAfter.length;
  const counts: CampaignCounts = {
    queued,
    queued_now: placement.queuedNow,
    scheduled: queued - placement.queuedNow,
    skipped: self + placement.overflow,
    duplicates,
  };
  const id =
    request.campaignId ??
    (await insertCampaign(tx, { accountId, message: request.message, source: request.source, scheduledPostId: request.scheduledPostId, at }));
  await insertMessages(tx, { id, accountId, at }, messages);
  if (request.campaignId === undefined) await setCampaignCounts(tx, id, { ...counts });
  if (placement.queuedNow > 0) await enqueueDmSending(tx, accountId, at);
  return { id, counts };
}
