/**
 * Access to an object found by id (the contract decision on id-addressed calls, spec rule
 * 6): an explicit `account_id` is resolved first, exactly as on every other endpoint (`404
 * account_not_found`; on a write `403 writes_main_account_only` for a shared account), and
 * only then is the object looked for, inside that account (or its workspace). Without one,
 * the object is looked for among every account the key reaches, and a write still obeys
 * the owning account's permission. Another user's object reads as missing, and so does an
 * object outside the named account: the caller answers its endpoint's `404`.
 */
import type { KeyContext } from "../context.ts";
import type { AccountAccess } from "../request_state/account_access.ts";
import { reachableAccounts } from "./accounts_queries.ts";
import { type AccountIntent, assertWritable, mainAccess, resolveAccount } from "./resolve_account.ts";
import { assertAccountsVerifiable } from "./verify_accounts.ts";

/** How an id-addressed call names its account, and what it means to do. */
export interface ByIdRequest {
  /** The request's `account_id`, when it sent one. */
  accountId?: string;
  intent: AccountIntent;
  /**
   * What an explicit account must match: the object's own account (`account`, for objects
   * of one account, such as articles) or also its workspace (`workspace`, the default:
   * posts, suggestions and tags are reached through any account of their workspace).
   */
  narrowTo?: "account" | "workspace";
}

/**
 * Finds an object by id for the caller: resolves `request.accountId` first, then runs
 * `find` and checks that the caller reaches `ownerOf(row)` (the account or workspace that
 * owns it). Answers the row and the access, or undefined when the caller cannot reach it.
 */
export async function findReachable<Row>(
  ctx: KeyContext,
  request: ByIdRequest,
  find: () => Promise<Row | undefined>,
  ownerOf: (row: Row) => string,
): Promise<{ row: Row; access: AccountAccess } | undefined> {
  const selected = request.accountId === undefined ? undefined : await resolveAccount(ctx, ctx.principal, request.accountId, request.intent);
  const row = await find();
  if (!row) return undefined;
  const owner = ownerOf(row);
  if (selected && selected.id !== owner && (request.narrowTo === "account" || selected.workspaceId !== owner)) return undefined;
  const access = await accessToOwner(ctx, owner, request.intent);
  return access && { row, access };
}

/** How the caller reaches `ownerAccountId`, enforcing a write's permission; undefined when it cannot. */
async function accessToOwner(ctx: KeyContext, ownerAccountId: string, intent: AccountIntent): Promise<AccountAccess | undefined> {
  const { principal } = ctx;
  let access: AccountAccess;
  if (ownerAccountId === principal.mainAccountId) {
    access = mainAccess(principal);
  } else {
    assertAccountsVerifiable(ctx);
    const [row] = await reachableAccounts(ctx.services.sql, principal.userId, ownerAccountId);
    if (!row) return undefined;
    access = { id: row.id, relation: row.relation, permission: row.permission, workspaceId: row.workspace_id };
  }
  if (intent.write) assertWritable(access, intent);
  return access;
}
