/**
 * Finds a post by id among every account the key reaches (ARCHITECTURE: "Id-addressed
 * calls"); another user's post reads as missing (`404 not_found`), and a write obeys the
 * owning account's permission (`403 writes_main_account_only` on shared accounts). Call it
 * outside a transaction (embedded PGlite has one connection), then lock the row inside one.
 */
import type { KeyContext } from "../context.ts";
import type { Queryable } from "../db/sql.ts";
import type { AccountAccess } from "../request_state/account_access.ts";
import { ApiError } from "../errors.ts";
import { findReachable } from "../accounts/owner_access.ts";
import { postById, type ScheduledPostRow } from "./scheduled_posts_queries.ts";

/** The post `id` and how the caller reaches its account, or `404 not_found`. */
export async function reachablePost(
  ctx: KeyContext,
  sql: Queryable,
  id: number,
  options: { accountId?: string; write: boolean },
): Promise<{ row: ScheduledPostRow; access: AccountAccess }> {
  const found = await findReachable(
    ctx,
    { accountId: options.accountId, intent: { write: options.write } },
    () => postById(sql, id),
    (row) => row.account_id,
  );
  if (!found) throw new ApiError("not_found", `Cannot find scheduled post "${id}"`);
  return found;
}
