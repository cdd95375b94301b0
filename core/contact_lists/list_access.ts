/**
 * Finds a contact list by id among the accounts the key reaches (ARCHITECTURE: "Id-addressed
 * calls"; the real client sends no `account_id` when adding or removing one member): another
 * user's list reads as missing (`404 list_not_found`), an `account_id` narrows the search to
 * that account, and a write obeys the owning account's permission (shared accounts are
 * read-only). System lists are index-only: their members are read through
 * `GET /v1/audience/{kind}` (`400 system_list_not_supported`) and never edited
 * (`400 system_list_read_only`).
 */
import type { KeyContext } from "../context.ts";
import type { AccountAccess } from "../request_state/account_access.ts";
import { ApiError } from "../errors.ts";
import { findReachable } from "../accounts/owner_access.ts";
import { type ContactListRow, listById } from "./contact_lists_queries.ts";

/** What the caller means to do with the list. */
export type ListUse = "read" | "read_members" | "edit";

/** The list `id` and how the caller reaches its account; refuses a system list for `read_members` and `edit`. */
export async function reachableList(
  ctx: KeyContext,
  id: number,
  options: { accountId?: string; use: ListUse },
): Promise<{ list: ContactListRow; access: AccountAccess }> {
  const write = options.use === "edit";
  const found = await findReachable(
    ctx,
    { accountId: options.accountId, intent: { write }, narrowTo: "account" },
    () => listById(ctx.services.sql, id),
    (row) => row.account_id,
  );
  if (!found) throw listNotFound(id);
  const list = found.row;
  if (list.kind !== "custom" && options.use === "edit") {
    throw new ApiError("system_list_read_only", `List "${id}" is the system list ${list.name}: it follows the audience index and cannot be edited`);
  }
  if (list.kind !== "custom" && options.use === "read_members") {
    throw new ApiError("system_list_not_supported", `List "${id}" is the system list ${list.name}: read its members with GET /v1/audience/${list.kind}`);
  }
  return { list, access: found.access };
}

/** `404 list_not_found` for `id`. */
export function listNotFound(id: number): ApiError {
  return new ApiError("list_not_found", `Cannot find contact list "${id}"`);
}
