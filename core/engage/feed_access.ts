/**
 * Finds a feed by id among the accounts the key reaches (ARCHITECTURE: "Id-addressed calls";
 * the real client sends no `account_id` on PATCH, DELETE or posts): another user's feed reads
 * as missing (`404 feed_not_found`, supplement error table), an `account_id` narrows the search
 * to that account, and a write on a shared account is `403 writes_main_account_only`.
 */
import type { KeyContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { findReachable } from "../accounts/owner_access.ts";
import { type FeedRow, feedById } from "./feeds_queries.ts";

/** The feed `id` as the caller reaches it, or `404 feed_not_found`. */
export async function reachableFeed(ctx: KeyContext, id: number, options: { accountId?: string; write: boolean }): Promise<FeedRow> {
  const found = await findReachable(
    ctx,
    { accountId: options.accountId, intent: { write: options.write }, narrowTo: "account" },
    () => feedById(ctx.services.sql, id),
    (row) => row.account_id,
  );
  if (!found) throw feedNotFound(id);
  return found.row;
}

/** `404 feed_not_found` for `id`. */
export function feedNotFound(id: number): ApiError {
  return new ApiError("feed_not_found", `Cannot find Engage feed "${id}"`);
}
