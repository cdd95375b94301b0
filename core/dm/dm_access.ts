/**
 * Finds a DM campaign by id among the accounts the key reaches (ARCHITECTURE: "Id-addressed
 * calls"; the CLI sends `account_id`, which then narrows the search): another user's
 * campaign reads as missing (`404 not_found`, the spec names no code of its own), and a
 * cancel on a shared account is `403 writes_main_account_only`.
 */
import type { KeyContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { findReachable } from "../accounts/owner_access.ts";
import { type CampaignRow, campaignById } from "./dm_queries.ts";

/** The campaign `id` as the caller reaches it, or `404 not_found`. */
export async function reachableCampaign(ctx: KeyContext, id: number, options: { accountId?: string; write: boolean }): Promise<CampaignRow> {
  const found = await findReachable(
    ctx,
    { accountId: options.accountId, intent: { write: options.write }, narrowTo: "account" },
    () => campaignById(ctx.services.sql, id),
    (row) => row.account_id,
  );
  if (!found) throw new ApiError("not_found", `Cannot find DM campaign "${id}"`);
  return found.row;
}
