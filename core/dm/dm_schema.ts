/**
 * Shapes of the DM endpoints (supplement: DMs and section 5; spec: DM limits): the create
 * body's bounds, the counts it answers, a queued message, a campaign, the limits.
 */
import { z } from "zod";
import { crossFieldRule } from "../cross_field_rule.ts";
import { accountSelection, commaListOf, integerId, paginationInput, xHandle, xUserId, xUserIdInput } from "../schema.ts";
import { DM_STATUSES } from "./dm_queries.ts";

/** Recipients per campaign (supplement Limits: "DM campaign size: up to 100 recipients"). */
export const MAX_RECIPIENTS = 100;

/** A DM's text bound (supplement: "shared text 1-1000"). */
export const MAX_DM_CHARS = 1000;

/** A message template: 1 to 1,000 characters, tokens `[name]`, `[first]`, `[handle]` allowed. */
export const dmMessage = z
  .string()
  .trim()
  .min(1, `must be 1 to ${MAX_DM_CHARS} characters`)
  .max(MAX_DM_CHARS, `must be 1 to ${MAX_DM_CHARS} characters`)
  .meta({ description: "1 to 1,000 characters; `[name]`, `[first]` and `[handle]` are filled per recipient when the message is sent" });

/** One recipient of a create. */
export const recipientInput = z.object({
  x_user_id: xUserIdInput,
  handle: xHandle.optional().meta({ description: "The person's handle (fills `[handle]`)" }),
  name: z.string().trim().max(100, "must be at most 100 characters").optional().meta({ description: "The person's display name (fills `[name]`, `[first]`)" }),
  message: dmMessage.optional().meta({ description: "This person's own message; overrides the shared `message`" }),
  source_post_id: z
    .string()
    .regex(/^[0-9]{1,25}$/, "must be a numeric X post id")
    .optional()
    .meta({ description: "The post that brought the person (kept with the message)" }),
});

/** One recipient as a campaign takes it (the REST create or a post's auto DM). */
export type Recipient = z.infer<typeof recipientInput>;

/** `POST /v1/dm/campaigns`: every recipient needs its own `message` or the shared one. */
export const createCampaignInput = z
  .object({
    recipients: z
      .array(recipientInput)
      .min(1, `must hold 1 to ${MAX_RECIPIENTS} recipients`)
      .max(MAX_RECIPIENTS, `must hold 1 to ${MAX_RECIPIENTS} recipients`),
    message: dmMessage.optional(),
    spread: z.literal(true, { error: "must be true when sent" }).optional().meta({ description: "Place what today cannot hold over the coming days" }),
    ...accountSelection,
  })
  .check(
    // The first recipient without a message is named, alone, as the handler named it.
    crossFieldRule((input, fail) => {
      if (input.message) return;
      const i = input.recipients.findIndex((recipient) => !recipient.message);
      if (i >= 0) fail(["recipients", i, "message"], 'send a shared "message" or one per recipient');
    }),
  );

/** The create body. */
export type CreateCampaignInput = z.infer<typeof createCampaignInput>;

/** What a create answers (supplement: "Response counts"). */
export const createdCampaign = z.object({
  id: z.number().int().meta({ description: "The campaign id, for `GET`/`DELETE /v1/dm/campaigns/{id}`" }),
  campaign_id: z.number().int().meta({ description: "The same id, under the name some clients read" }),
  queued: z.number().int().meta({ description: "Messages queued: `queued_now` plus `scheduled`" }),
  queued_now: z.number().int().meta({ description: "Messages that go out within the current rolling 24 hours" }),
  scheduled: z.number().int().meta({ description: "Messages placed over the coming days by `spread`" }),
  skipped: z.number().int().meta({ description: "Recipients not queued: the account itself, and overflow on a plan without scheduling" }),
  duplicates: z.number().int().meta({ description: "Recipients messaged in the last 24 hours or already queued (and repeats in the request)" }),
});

/** A queued, sent or settled message. */
export const dmMessageView = z
  .object({
    id: z.number().int(),
    campaign_id: z.number().int(),
    account_id: z.string(),
    x_user_id: xUserId,
    handle: z.string().nullable(),
    name: z.string().nullable(),
    message: z.string().meta({ description: "The template as queued (tokens unfilled)" }),
    text: z.string().nullable().meta({ description: "The text sent, tokens filled (null until sending)" }),
    status: z.enum(DM_STATUSES),
    send_after: z.string().meta({ description: "When the message may go out (later ones were placed by `spread`)" }),
    sent_at: z.string().nullable(),
    x_dm_id: z.string().nullable(),
    reason: z.string().nullable().meta({ description: "Why a message failed or was skipped" }),
    source_post_id: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: "DmMessage" });

const statusCounts = z.object(Object.fromEntries(DM_STATUSES.map((status) => [status, z.number().int()])) as Record<(typeof DM_STATUSES)[number], z.ZodNumber>);

/** A campaign with its counts per status and its messages. */
export const dmCampaignView = z.object({
  id: z.number().int(),
  account_id: z.string(),
  source: z.enum(["api", "auto_dm"]).meta({ description: "`auto_dm`: made by a scheduled post's auto DM" }),
  scheduled_post_id: z.number().int().nullable(),
  created_at: z.string(),
  counts: statusCounts.extend({ total: z.number().int() }).meta({ description: "Messages per status now" }),
  created: createdCampaign.omit({ id: true, campaign_id: true }).partial().meta({ description: "What the create answered" }),
  messages: z.array(dmMessageView),
});

/** A campaign as listed: its counts, without its messages (`GET /v1/dm/campaigns`). */
export const dmCampaignSummary = dmCampaignView.omit({ messages: true });

/** `GET /v1/dm/campaigns`: the account's campaigns, newest first. */
export const listCampaignsInput = z.object({ ...accountSelection, ...paginationInput(20) }).prefault({});
export type ListCampaignsInput = z.infer<typeof listCampaignsInput>;

/** The queue's offset pagination (supplement section 5: "offset paging, not page"). */
export const offsetPagination = z.object({
  limit: z.number().int(),
  offset: z.number().int(),
  total: z.number().int(),
  has_more: z.boolean(),
  next_offset: z.number().int().nullable().meta({ description: "The `offset` of the next page, null on the last" }),
});

/** `GET /v1/dm/limits`. */
export const dmLimitsView = z.object({
  monthly: z.object({
    max: z.number().int(),
    committed: z.number().int().meta({ description: "Sent plus queued unsent messages this UTC month" }),
    remaining: z.number().int(),
    resets_at: z.string(),
  }),
  daily_bulk: z.object({
    max: z.number().int().meta({ description: "Messages in any rolling 24 hours" }),
    used: z.number().int().meta({ description: "Sent or in flight in the last 24 hours, plus queued messages due within the next 24" }),
    remaining: z.number().int(),
    window_hours: z.literal(24),
  }),
  per_post_max: z.number().int().meta({ description: "People one post's `auto_dm` may message" }),
  posts_with_auto_dm: z.number().int().meta({ description: "Scheduled posts per UTC month that may carry `auto_dm`" }),
  scheduling_enabled: z.boolean().meta({ description: "Whether `spread` may place overflow over coming days" }),
  network_window: z
    .object({
      max: z.number().int().meta({ description: "DMs one account may send per window (X: 15)" }),
      window_minutes: z.number().int().meta({ description: "The window's length (X: 15 minutes)" }),
      used: z.number().int().meta({ description: "Sent or in flight in the last `window_minutes`" }),
      remaining: z.number().int(),
      resets_at: z.string().nullable().meta({ description: "When a unit comes back, while the window is full; else null" }),
      daily_max: z.number().int().meta({ description: "DMs one account may send per 24 hours (X: 1,440); caps `daily_bulk.max` when lower" }),
    })
    .nullable()
    .meta({
      description:
        "Beyond the spec: the network's own DM window, null on the simulated network. With the X API, X allows one account 15 DMs " +
        "per 15 minutes and 1,440 per 24 hours (X's rate limits page); campaigns are placed within it and the sender waits for it",
    }),
});

const queueLimit = z
  .number({ error: "must be an integer from 1 to 200" })
  .int("must be an integer from 1 to 200")
  .min(1, "must be an integer from 1 to 200")
  .max(200, "must be an integer from 1 to 200")
  .default(50)
  .meta({ description: "Page size, 1 to 200 (default 50)" });
const queueOffset = z
  .number({ error: "must be an integer of at least 0" })
  .int("must be an integer of at least 0")
  .min(0, "must be an integer of at least 0")
  .max(1_000_000, "must be at most 1000000")
  .default(0)
  .meta({ description: "Messages to skip (default 0)" });

/** `GET /v1/dm/queue`: offset paging, as the real client pages it, and two filters. */
export const dmQueueInput = z
  .object({
    limit: queueLimit,
    offset: queueOffset,
    status: commaListOf(DM_STATUSES).optional(),
    campaign_id: integerId.optional().meta({ description: "Only this campaign's messages" }),
    ...accountSelection,
  })
  .prefault({});

/** The queue's query. */
export type DmQueueInput = z.infer<typeof dmQueueInput>;

/** `GET` and `DELETE /v1/dm/campaigns/{id}` (`account_id` narrows the search). */
export const campaignByIdInput = z.object({ id: integerId, ...accountSelection });

/** An id-addressed call's input. */
export type CampaignByIdInput = z.infer<typeof campaignByIdInput>;

/** `GET /v1/dm/limits`: only the account. */
export const dmLimitsInput = z.object({ ...accountSelection }).prefault({});
