/**
 * DMs: campaigns that enqueue messages, the queue, cancel, and the plan's DM limits
 * (`/v1/dm/...`; docs/areas.md "DM campaigns and auto DM"; spec rule 7, DM limits, Errors `dm_limit_reached`, Idempotency;
 * supplement: DMs and section 5).
 */
import { z } from "zod";
import { inAccount, keyProcedure, router } from "../core/trpc.ts";
import { dataOf, listOf } from "../core/schema.ts";
import {
  campaignByIdInput,
  createCampaignInput,
  createdCampaign,
  dmCampaignSummary,
  dmCampaignView,
  dmLimitsInput,
  dmLimitsView,
  dmMessageView,
  dmQueueInput,
  listCampaignsInput,
  MAX_RECIPIENTS,
  offsetPagination,
} from "../core/dm/dm_schema.ts";
import { createCampaign } from "../core/dm/create_campaign.ts";
import { listCampaigns, readCampaign, readQueue } from "../core/dm/read_campaigns.ts";
import { cancelCampaign } from "../core/dm/cancel_campaign.ts";
import { readDmLimits } from "../core/dm/dm_limits.ts";

const tags = ["DMs"];
const BY_ID =
  "The campaign is found among every account the key reaches; `account_id`, when sent, narrows the search to that account (another user's campaign is `404 not_found`).";

export const dmRouter = router({
  createCampaign: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/dm/campaigns",
        tags,
        summary: "Queue a DM campaign",
        description:
          `Only enqueues (spec rule 7): the sender job sends each message once, within the plan's limits. \`recipients\`: 1 to ${MAX_RECIPIENTS}; ` +
          "each needs its own `message` or the shared one (1 to 1,000 characters); `[name]`, `[first]` and `[handle]` are filled per recipient " +
          'when the message is sent (from the row, else the person\'s profile, else "there"). The account itself is never messaged (counted in `skipped`); people messaged in the last 24 hours, ' +
          "already queued, or repeated in the request are counted in `duplicates` and not queued. Limits (`GET /v1/dm/limits`): a campaign " +
          "the UTC month cannot hold is `429 dm_limit_reached` with `scope: month` (units are counted against the month the campaign is " +
          "made in); what the rolling 24 hours cannot hold is `429 dm_limit_reached` with `scope: day`, unless `spread: true` places it " +
          "at the start of each following 24 hours with room (`scheduled`), never beyond the month's units. On a plan without scheduling, `spread` is ignored and the overflow is counted in " +
          "`skipped` (still `scope: day` when nothing fits today). Refusals carry `Retry-After` (to the next month, or until the " +
          "oldest send leaves the window). A plan without DMs answers " +
          "`403 dm_not_in_plan`; an account whose X authorisation was lost `409 reauth_required`. Answers `id` (also as `campaign_id`) " +
          "and the counts. Supports `Idempotency-Key`. No AI credits. Beyond the spec, through the X API a day's messages are placed at " +
          "most 15 to each 15 minutes and 1,440 to each 24 hours (X's per-account DM windows), and the sender waits for X's window.",
      },
      successStatus: 201,
      idempotent: true,
      errors: ["dm_limit_reached", "dm_not_in_plan", "reauth_required"],
    })
    .input(createCampaignInput)
    .use(inAccount)
    .output(dataOf(createdCampaign))
    .mutation(({ ctx, input }) => createCampaign(ctx, input)),

  listCampaigns: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/dm/campaigns",
        tags,
        summary: "List DM campaigns",
        description:
          "The account's campaigns (from the API and from auto DMs), newest first, each with its counts per status (`pending`, `sending`, `sent`, `failed`, `skipped`, `total`) and without its messages (`GET /v1/dm/campaigns/{id}` has them).",
      },
      beyondSpec: "The spec reads one campaign by id; a console needs the account's campaigns to show their progress.",
    })
    .input(listCampaignsInput)
    .use(inAccount)
    .output(listOf(dmCampaignSummary))
    .query(({ ctx, input }) => listCampaigns(ctx, input)),

  getCampaign: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/dm/campaigns/{id}",
        tags,
        summary: "Read a DM campaign",
        description: `Counts per status (\`pending\`, \`sending\`, \`sent\`, \`failed\`, \`skipped\`) and every message. ${BY_ID}`,
      },
      errors: ["not_found"],
    })
    .input(campaignByIdInput)
    .output(dataOf(dmCampaignView))
    .query(({ ctx, input }) => readCampaign(ctx, input)),

  cancelCampaign: keyProcedure
    .meta({
      openapi: {
        method: "DELETE",
        path: "/v1/dm/campaigns/{id}",
        tags,
        summary: "Cancel a campaign's unsent messages",
        description:
          "Deletes the campaign's unsent messages (due now or placed later) and returns their monthly units (`cancelled`, " +
          "`monthly_returned`); sent messages and messages being sent are not recalled (`not_recalled`). Cancelling again cancels " +
          `nothing more. ${BY_ID} A campaign of an account shared with you is read-only (\`403 writes_main_account_only\`).`,
      },
      errors: ["not_found"],
    })
    .input(campaignByIdInput)
    .output(
      dataOf(
        z.object({
          id: z.number().int(),
          cancelled: z.number().int(),
          monthly_returned: z.number().int(),
          not_recalled: z.number().int(),
          counts: dmCampaignView.shape.counts.omit({ total: true }),
        }),
      ),
    )
    .mutation(({ ctx, input }) => cancelCampaign(ctx, input)),

  queue: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/dm/queue",
        tags,
        summary: "The account's DM queue",
        description:
          "Unsent messages first (soonest due first), then sent and settled ones, newest first. Offset paging, as the real client " +
          "pages it (not `page`): `limit` 1 to 200 (default 50) and `offset`; `pagination` answers `limit`, `offset`, `total`, " +
          "`has_more` and `next_offset` (null on the last page). Filters: `status` (comma list) and `campaign_id`.",
      },
    })
    .input(dmQueueInput)
    .use(inAccount)
    .output(z.object({ data: z.array(dmMessageView), pagination: offsetPagination }))
    .query(({ ctx, input }) => readQueue(ctx, input)),

  limits: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/dm/limits",
        tags,
        summary: "The account's DM limits",
        description:
          "The plan's DM limits and their use (spec: DM limits): `monthly.max` per UTC month and `monthly.committed` (sent plus " +
          "queued unsent messages), `daily_bulk.max` over any rolling 24 hours, `per_post_max` (people one post's `auto_dm` may " +
          "message), `posts_with_auto_dm` (scheduled posts per month that may carry one) and `scheduling_enabled` (whether `spread` " +
          "works). `daily_bulk.used` counts messages sent or in flight in the last 24 hours plus queued ones due within the next " +
          "24. Counts come from the message rows themselves, so a failed, skipped or cancelled message gives its unit back the moment " +
          "its row changes. Per account, by the owner's plan; monthly / rolling 24 hours / `per_post_max` / `posts_with_auto_dm` / " +
          "`scheduling_enabled`: basic 300 / 50 / 25 / 5 / no; pro 2,000 / 200 / 100 / 30 / yes; advanced 6,000 / 500 / 100 / 100 / " +
          "yes; ultra 20,000 / 1,000 / 100 / 300 / yes; enterprise 1,000,000 / 100,000 / 100 / 10,000 / yes. A plan without DMs " +
          "(trial) answers `403 dm_not_in_plan`. Beyond the spec, `network_window` shows the network's own DM window when Threadline " +
          "sends through the X API (X allows one account 15 DMs per 15 minutes and 1,440 per 24 hours): its use in the last 15 " +
          "minutes, and `daily_max`, which caps `daily_bulk.max` when lower; campaigns are placed within it. Null on the simulated network.",
      },
      errors: ["dm_not_in_plan"],
    })
    .input(dmLimitsInput)
    .use(inAccount)
    .output(dataOf(dmLimitsView))
    .query(({ ctx, input: _input }) => readDmLimits(ctx)),
});
