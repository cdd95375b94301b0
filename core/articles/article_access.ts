/**
 * Finds an article by id among every account the key reaches (ARCHITECTURE: "Id-addressed
 * calls"; the real client sends no `account_id` on `/v1/articles/{id}` calls): another
 * user's article reads as missing (`404 not_found`), and a write obeys the owning account's
 * permission (`403 writes_main_account_only` on shared accounts). Call it outside a
 * transaction (embedded PGlite has one connection), then lock the row inside one.
 */
import type { KeyContext } from "../context.ts";
import type { Queryable } from "../db/sql.ts";
import type { AccountAccess } from "../request_state/account_access.ts";
import { ApiError } from "../errors.ts";
import { findReachable } from "../accounts/owner_access.ts";
import { articleById, type ArticleRow } from "./articles_queries.ts";

/** The article `id` and how the caller reaches its account, or `404 not_found`. */
export async function reachableArticle(
  ctx: KeyContext,
  sql: Queryable,
  id: number,
  options: { accountId?: string; write: boolean },
): Promise<{ row: ArticleRow; access: AccountAccess }> {
  // Articles belong to an account, not to the workspace: `account_id` narrows to that account only.
  const request = { accountId: options.accountId, intent: { write: options.write }, narrowTo: "account" as const };
  const found = await findReachable(
    ctx,
    request,
    () => articleById(sql, id),
    (row) => row.account_id,
  );
  if (!found) throw new ApiError("not_found", `Cannot find article "${id}"`);
  return found;
}
