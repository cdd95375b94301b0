/**
 * Contacts (supplement: Audience): the people an account knows (engagers, members of its
 * lists including system lists, and scored leads), ranked by engagement over the rolling
 * 90 days. Reads answer from the database; `refresh=true` re-reads one profile live
 * (Limits 3: one write and one enrichment unit).
 */
import type { AccountContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { pageInfo } from "../schema.ts";
import { callNetwork } from "../network/call_network.ts";
import { chargeExtraUnits } from "../limits/extra_units.ts";
import { listReceivedReplies } from "../content/list_own_content.ts";
import { ensureSystemLists, systemListsOf } from "../contact_lists/contact_lists_queries.ts";
import { membershipsOf } from "../contact_lists/list_members_queries.ts";
import { countNotes } from "./contact_notes_queries.ts";
import { type ContactRow, contactOf, contactsPage } from "./contacts_queries.ts";
import { upsertContactProfiles } from "../people/contact_profiles_queries.ts";
import type { Contact, ContactDetail, ContactRepliesInput, GetContactInput, ListContactsInput } from "./contact_schema.ts";
import { personOf } from "../people/person_fields.ts";

/** Lists the account's contacts, most engaged first (or most replies, most reposts). */
export async function listContacts(ctx: AccountContext, input: ListContactsInput) {
  const rows = await contactsPage(ctx.services.sql, ctx.account.id, input.sort, input.limit + 1, (input.page - 1) * input.limit, input.q);
  return { data: rows.slice(0, input.limit).map(toContact), pagination: pageInfo(input.page, input.limit, undefined, rows.length) };
}

/**
 * One contact with verified state, bio and every list the person is in. The stored
 * profile is free; `refresh` reads it live first and stores it.
 */
export async function getContact(ctx: AccountContext, input: GetContactInput) {
  const { sql, network, clock } = ctx.services;
  let row = await knownContact(ctx, input.id);
  if (input.refresh) {
    const release = await chargeExtraUnits(ctx, ctx.principal, { writes: 1, enrichment: 1 });
    try {
      const user = await callNetwork(() => network.userById(input.id));
      await upsertContactProfiles(sql, ctx.account.id, [user], new Date(clock.now()));
    } catch (error) {
      // Nothing was read: the units go back (a live read is all or nothing, Limits 5).
      await release();
      throw error;
    }
    row = await knownContact(ctx, input.id);
  }
  await ensureSystemLists(sql, ctx.account.id, new Date(clock.now()));
  const [userLists, systemLists, notes] = await Promise.all([
    membershipsOf(sql, ctx.account.id, input.id),
    systemListsOf(sql, ctx.account.id, input.id, { replies: row.replies_count, reposts: row.reposts_count }),
    countNotes(sql, ctx.account.id, input.id),
  ]);
  const detail: ContactDetail = {
    ...toContact(row),
    bio: row.bio,
    url: row.url,
    verified: row.verified,
    verified_type: row.verified_type,
    can_dm: row.can_dm,
    lists: [...systemLists.map((list) => ({ ...list, is_system: true, member_id: null })), ...userLists.map((list) => ({ ...list, is_system: false }))],
    notes_count: notes,
  };
  return { data: detail };
}

/** The person's replies to the account's posts, newest or most liked first. */
export async function listContactReplies(ctx: AccountContext, input: ContactRepliesInput) {
  await knownContact(ctx, input.id);
  return listReceivedReplies(ctx, input, input.id);
}

/** The stored contact, or `404 contact_not_found` for someone the account does not know. */
export async function knownContact(ctx: AccountContext, xUserId: string): Promise<ContactRow> {
  const row = await contactOf(ctx.services.sql, ctx.account.id, xUserId);
  if (!row) throw new ApiError("contact_not_found", `Account "${ctx.account.id}" has no contact "${xUserId}"`);
  return row;
}

/** A stored contact in the API's list shape. */
export function toContact(row: ContactRow): Contact {
  return {
    id: row.x_user_id,
    ...personOf(row),
    replies_count: row.replies_count,
    reposts_count: row.reposts_count,
    last_engaged_at: row.last_engaged_at?.toISOString() ?? null,
    profile_read_at: row.profile_read_at.toISOString(),
  };
}
