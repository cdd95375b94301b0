/**
 * Finds a suggestion by id among every account the key reaches (ARCHITECTURE: "Id-addressed
 * calls"): another account's id reads as missing (`404 suggestion_not_found`; supplement:
 * "another account's id is a 404"), and a write obeys the owning account's permission
 * (`403 writes_main_account_only` on shared accounts).
 */
import type { KeyContext } from "../context.ts";
import type { AccountAccess } from "../request_state/account_access.ts";
import { ApiError } from "../errors.ts";
import { findReachable } from "../accounts/owner_access.ts";
import { suggestionById, type SuggestionRow } from "./workers_queries.ts";

/** The suggestion `id` and how the caller reaches its account, or `404 suggestion_not_found`. */
export async function reachableSuggestion(
  ctx: KeyContext,
  id: number,
  options: { accountId?: string; write: boolean },
): Promise<{ row: SuggestionRow; access: AccountAccess }> {
  const found = await findReachable(
    ctx,
    { accountId: options.accountId, intent: { write: options.write } },
    () => suggestionById(ctx.services.sql, id),
    (row) => row.account_id,
  );
  if (!found) throw suggestionNotFound(id);
  return found;
}

/** The `404 suggestion_not_found` of `id`. */
export function suggestionNotFound(id: number): ApiError {
  return new ApiError("suggestion_not_found", `Cannot find suggestion "${id}"`);
}
