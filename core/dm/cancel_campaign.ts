/**
 * `DELETE /v1/dm/campaigns/{id}` (spec rule 7: "Unsent queued messages can be cancelled";
 * supplement: DMs): deletes the campaign's unsent rows, due now or placed later, which
 * returns their monthly commitment (units are counted from the rows). Sent messages and
 * messages in flight (`sending`) are not recalled; the campaign stays readable with them.
 */
import type { KeyContext } from "../context.ts";
import { deleteUnsent, lockDmAccount, statusCounts } from "./dm_queries.ts";
import { reachableCampaign } from "./dm_access.ts";
import type { CampaignByIdInput } from "./dm_schema.ts";

/** Cancels the campaign's unsent messages and answers how many went and what is left. */
export async function cancelCampaign(ctx: KeyContext, input: CampaignByIdInput) {
  const campaign = await reachableCampaign(ctx, input.id, { accountId: input.account_id, write: true });
  const { sql } = ctx.services;
  const cancelled = await sql.begin(async (tx) => {
    // Under the account's DM lock, so a sender's claim and this delete never interleave.
    await lockDmAccount(tx, campaign.account_id);
    return deleteUnsent(tx, campaign.id);
  });
  const counts = await statusCounts(sql, campaign.id);
  return {
    data: {
      id: Number(campaign.id),
      cancelled,
      monthly_returned: cancelled,
      not_recalled: counts.sent + counts.sending,
      counts,
    },
  };
}
