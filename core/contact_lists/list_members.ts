/**
 * Members of user contact lists (spec: Contact lists, Limits 3, Constants; supplement:
 * Contact Lists): search, add one (resolved live), bulk add known people, bulk and single
 * removal. Every member write locks the list, so its `member_count` moves with its rows.
 * The list is found and the network read before the transaction opens (embedded PGlite
 * runs one transaction at a time).
 */
import type { KeyContext } from "../context.ts";
import type { Queryable } from "../db/sql.ts";
import { ApiError } from "../errors.ts";
import { pageInfo } from "../schema.ts";
import { callNetwork } from "../network/call_network.ts";
import { knownContactIds, upsertContactProfiles } from "../people/contact_profiles_queries.ts";
import { personOf } from "../people/person_fields.ts";
import type { AddMemberInput, BulkAddMembersInput, BulkDeleteMembersInput, DeleteMemberInput, ListMember, ListMembersInput } from "./contact_list_schema.ts";
import { addToMemberCount, type ContactListRow, lockList } from "./contact_lists_queries.ts";
import { listNotFound, reachableList } from "./list_access.ts";
import { deleteMembers, insertMembers, memberPage, type MemberRow, membersByPeople } from "./list_members_queries.ts";

/** Lists a user list's members newest first; `q` keeps those whose handle or name contains it. */
export async function listMembers(ctx: KeyContext, input: ListMembersInput) {
  const { list } = await reachableList(ctx, input.id, { accountId: input.account_id, use: "read_members" });
  const q = input.q?.trim().replace(/^@/, "") || undefined;
  const skip = (input.page - 1) * input.limit;
  const rows = await memberPage(ctx.services.sql, list.id, list.account_id, q, input.limit + 1, skip);
  const total = q === undefined ? list.member_count : rows[0]?.total;
  return { data: rows.slice(0, input.limit).map(toMember), pagination: pageInfo(input.page, input.limit, total, rows.length) };
}

/**
 * Adds one person by handle or X user id, resolved live (Limits 3: one write and one
 * enrichment unit, spent by the request path). The person becomes a contact with the
 * profile just read. Someone already in the list comes back with `duplicate: true` and
 * nothing is written.
 */
export async function addMember(ctx: KeyContext, input: AddMemberInput) {
  const { list } = await reachableList(ctx, input.id, { accountId: input.account_id, use: "edit" });
  const { network, sql, clock } = ctx.services;
  const user = await callNetwork(() => (input.handle !== undefined ? network.userByUsername(input.handle) : network.userById(input.x_user_id ?? "")));
  const now = new Date(clock.now());
  return sql.begin(async (tx) => {
    const locked = await lockedList(tx, list.id);
    const [existing] = await membersByPeople(tx, locked.id, [user.id]);
    if (existing) return { data: { ...toMember(existing), duplicate: true } };
    await upsertContactProfiles(tx, locked.account_id, [user], now);
    await insertMembers(tx, locked.id, locked.account_id, [user.id], "manual", now);
    await addToMemberCount(tx, locked.id, 1, now);
    const [member] = await membersByPeople(tx, locked.id, [user.id]);
    return { data: { ...toMember(member), duplicate: false } };
  });
}

/**
 * Adds up to 500 people the account already knows, without a live lookup (Limits 3: one
 * write, no enrichment). Ids the account has never seen come back in `not_found`; people
 * already in the list are counted in `duplicates`.
 */
export async function bulkAddMembers(ctx: KeyContext, input: BulkAddMembersInput) {
  const { list } = await reachableList(ctx, input.id, { accountId: input.account_id, use: "edit" });
  const ids = [...new Set(input.x_user_ids)];
  const now = new Date(ctx.services.clock.now());
  return ctx.services.sql.begin(async (tx) => {
    const locked = await lockedList(tx, list.id);
    const known = await knownContactIds(tx, locked.account_id, ids);
    const added = await insertMembers(
      tx,
      locked.id,
      locked.account_id,
      ids.filter((id) => known.has(id)),
      "bulk",
      now,
    );
    const total = added.length > 0 ? await addToMemberCount(tx, locked.id, added.length, now) : locked.member_count;
    return {
      data: {
        added: added.length,
        duplicates: known.size - added.length,
        not_found: ids.filter((id) => !known.has(id)),
        total_in_list_after: total,
      },
    };
  });
}

/** Removes up to 500 members by member id; ids not in the list are skipped (spec: bulk-delete). */
export async function bulkDeleteMembers(ctx: KeyContext, input: BulkDeleteMembersInput) {
  const { list } = await reachableList(ctx, input.id, { accountId: input.account_id, use: "edit" });
  const now = new Date(ctx.services.clock.now());
  return ctx.services.sql.begin(async (tx) => {
    const locked = await lockedList(tx, list.id);
    const deleted = await deleteMembers(tx, locked.id, [...new Set(input.member_ids)]);
    const total = deleted > 0 ? await addToMemberCount(tx, locked.id, -deleted, now) : locked.member_count;
    return { data: { deleted, total_in_list_after: total } };
  });
}

/** Removes one member (`404 member_not_found` when it is not in the list). */
export async function deleteMember(ctx: KeyContext, input: DeleteMemberInput): Promise<void> {
  const { list } = await reachableList(ctx, input.id, { accountId: input.account_id, use: "edit" });
  const now = new Date(ctx.services.clock.now());
  await ctx.services.sql.begin(async (tx) => {
    const locked = await lockedList(tx, list.id);
    if ((await deleteMembers(tx, locked.id, [input.memberId])) === 0) {
      throw new ApiError("member_not_found", `Cannot find member "${input.memberId}" in contact list "${input.id}"`);
    }
    await addToMemberCount(tx, locked.id, -1, now);
  });
}

/** The list locked for a member write; `404 list_not_found` when it was deleted meanwhile. */
async function lockedList(tx: Queryable, id: number): Promise<ContactListRow> {
  const locked = await lockList(tx, id);
  if (!locked) throw listNotFound(id);
  return locked;
}

/** A member row in the API's shape. */
export function toMember(row: MemberRow): ListMember {
  return {
    id: row.id,
    ...personOf(row),
    source: row.source,
    added_at: row.added_at.toISOString(),
    icp_score: row.icp_score,
    icp_rationale: row.icp_rationale,
    feedback: row.feedback,
    feedback_at: row.feedback_at?.toISOString() ?? null,
  };
}
