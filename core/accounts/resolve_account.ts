/**
 * Account selection (spec: rule 6, rule 9, Authentication 8): `account_id` defaults
 * to the main account; anything else must be among the key's accounts, and linked or
 * shared accounts must be verifiable, else `503 accounts_unavailable` (never stale).
 */
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import type { Principal } from "../request_state/principal.ts";
import { type AccountAccess, isSharedAccess } from "../request_state/account_access.ts";
import { reachableAccounts } from "./accounts_queries.ts";
import { assertAccountsVerifiable } from "./verify_accounts.ts";

/** What a procedure may do with the account it resolves. */
export interface AccountIntent {
  /** A write (any non-GET / tRPC mutation). */
  write: boolean;
  /** Writes exempt from `writes_main_account_only` (`/v1/context`, `/v1/queue-settings`). */
  sharedWrites?: boolean;
  /** Context writes refuse accounts shared with editor permission (Authentication 8). */
  editorRestricted?: boolean;
}

/** The caller's main account, which needs no verification. */
export function mainAccess(principal: Principal): AccountAccess {
  return { id: principal.mainAccountId, relation: "main", permission: "owner", workspaceId: principal.mainAccountId };
}

/** Resolves `accountId` (or the main account) for `principal`, enforcing write permission. */
export async function resolveAccount(ctx: Context, principal: Principal, accountId: string | undefined, intent: AccountIntent): Promise<AccountAccess> {
  if (accountId === undefined || accountId === principal.mainAccountId) return mainAccess(principal);
  assertAccountsVerifiable(ctx);
  const [row] = await reachableAccounts(ctx.services.sql, principal.userId, accountId);
  if (!row) throw new ApiError("account_not_found", `Cannot find account "${accountId}" among this key's accounts`);
  const access: AccountAccess = { id: row.id, relation: row.relation, permission: row.permission, workspaceId: row.workspace_id };
  if (intent.write) assertWritable(access, intent);
  return access;
}

/** Refuses a write the account's relation does not allow. */
export function assertWritable(access: AccountAccess, intent: AccountIntent): void {
  if (!isSharedAccess(access)) return;
  if (!intent.sharedWrites) {
    throw new ApiError("writes_main_account_only", `Account "${access.id}" is shared with you read-only; writes go to your main or linked accounts`);
  }
  if (intent.editorRestricted && access.permission === "editor") {
    throw new ApiError("editor_restricted", `Account "${access.id}" is shared with editor permission, which cannot change its context`);
  }
}
