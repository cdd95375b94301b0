/**
 * Contact lists (spec: Contact lists; supplement: Contact Lists): the account's four system
 * lists and the lists the user makes (name 1 to 120 characters, not unique).
 */
import type { AccountContext, KeyContext } from "../context.ts";
import { pageInfo } from "../schema.ts";
import type { ContactList, ContactListByIdInput, CreateContactListInput, ListContactListsInput, RenameContactListInput } from "./contact_list_schema.ts";
import { type ContactListRow, deleteListRow, ensureSystemLists, insertList, listPage, renameList } from "./contact_lists_queries.ts";
import { listNotFound, reachableList } from "./list_access.ts";

/** Lists the account's contact lists: system lists first, then the user's newest first. */
export async function listContactLists(ctx: AccountContext, input: ListContactListsInput) {
  const { sql, clock } = ctx.services;
  await ensureSystemLists(sql, ctx.account.id, new Date(clock.now()));
  const rows = await listPage(sql, ctx.account.id, input.limit, (input.page - 1) * input.limit);
  return { data: rows.map(toContactList), pagination: pageInfo(input.page, input.limit, rows[0]?.total, rows.length) };
}

/** Creates a user list. */
export async function createContactList(ctx: AccountContext, input: CreateContactListInput) {
  const row = await insertList(ctx.services.sql, ctx.account.id, input.name, new Date(ctx.services.clock.now()));
  return { data: toContactList(row) };
}

/** Renames a user list (system lists: `400 system_list_read_only`). */
export async function renameContactList(ctx: KeyContext, input: RenameContactListInput) {
  await reachableList(ctx, input.id, { accountId: input.account_id, use: "edit" });
  const row = await renameList(ctx.services.sql, input.id, input.name, new Date(ctx.services.clock.now()));
  if (!row) throw listNotFound(input.id);
  return { data: toContactList(row) };
}

/**
 * Deletes a user list and its membership; the people stay contacts (spec: DELETE
 * /v1/contact-lists/{id}). A second delete is `404 list_not_found`.
 */
export async function deleteContactList(ctx: KeyContext, input: ContactListByIdInput): Promise<void> {
  await reachableList(ctx, input.id, { accountId: input.account_id, use: "edit" });
  if (!(await deleteListRow(ctx.services.sql, input.id))) throw listNotFound(input.id);
}

/** A stored list in the API's shape. */
export function toContactList(row: ContactListRow): ContactList {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    is_system: row.kind !== "custom",
    member_count: row.member_count,
    account_id: row.account_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
