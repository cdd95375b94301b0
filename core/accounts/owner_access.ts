/**
 * Access to an object found by id (ARCHITECTURE, "Id-addressed calls"): the object is
 * looked for among every account the key reaches; an `account_id` narrows the search;
 * a write still obeys the owning account's permission. Another user's object reads as
 * missing.
 */
import type { Context } from "../context.ts";
import type { Principal } from "../auth/principal.ts";
import type { AccountAccess } from "./account_access.ts";
import { reachableAccounts } from "./accounts_queries.ts";
import { type AccountIntent, assertWritable, mainAccess, resolveAccount } from "./resolve_account.ts";
import { assertAccountsVerifiable } from "./verify_accounts.ts";

/**
 * How the caller reaches `ownerAccountId` (the account or workspace that owns an
 * object), or undefined when it cannot (the caller answers its `404`).
 */
export async function accessToOwner(
  ctx: Context,
  principal: Principal,
  ownerAccountId: string,
  options: { accountId?: string; intent: AccountIntent },
): Promise<AccountAccess | undefined> {
  if (options.accountId !== undefined) {
    const selected = await resolveAccount(ctx, principal, options.accountId, { ...options.intent, write: false });
    if (selected.id !== ownerAccountId && selected.workspaceId !== ownerAccountId) return undefined;
  }
  let access: AccountAccess;
  if (ownerAccountId === principal.mainAccountId) {
    access = mainAccess(principal);
  } else {
    assertAccountsVerifiable(ctx);
    const [row] = await reachableAccounts(ctx.services.sql, principal.userId, ownerAccountId);
    if (!row) return undefined;
    access = { id: row.id, relation: row.relation, permission: row.permission, workspaceId: row.workspace_id };
  }
  if (options.intent.write) assertWritable(access, options.intent);
  return access;
}
