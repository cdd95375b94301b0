/**
 * Contacts and notes as the API shows them (spec: Contact list member; supplement:
 * Audience, section 5).
 */
import { z } from "zod";
import { accountSelection, integerId, paginationInput, xUserId } from "../schema.ts";
import { personFields } from "../people/person_fields.ts";
import { listReceivedRepliesInput } from "../content/content_schema.ts";

/** A contact in a list (`GET /v1/contacts`). */
export const contact = z
  .object({
    id: z.string().meta({ description: "The person's numeric X user id" }),
    ...personFields,
    replies_count: z.number().int().meta({ description: "Replies to the account in the last 90 days" }),
    reposts_count: z.number().int().meta({ description: "Reposts of the account's posts in the last 90 days" }),
    last_engaged_at: z.string().nullable(),
    profile_read_at: z.string().meta({ description: "When the stored profile was read from the network" }),
  })
  .meta({ id: "Contact" });

/** A list a contact is in. */
const contactListEntry = z.object({
  list_id: z.number().int(),
  name: z.string(),
  kind: z.string(),
  is_system: z.boolean(),
  member_id: z.string().nullable().meta({ description: "For `DELETE /v1/contact-lists/{list_id}/members/{member_id}`; null on system lists" }),
});

/** A contact with everything the account knows about the person (`GET /v1/contacts/{id}`). */
export const contactDetail = contact
  .extend({
    bio: z.string(),
    url: z.string().nullable(),
    verified: z.boolean(),
    verified_type: z.string(),
    can_dm: z.boolean(),
    lists: z.array(contactListEntry),
    notes_count: z.number().int(),
  })
  .meta({ id: "ContactDetail" });

/** A note on a person. */
export const contactNote = z
  .object({
    id: z.number().int(),
    x_user_id: z.string(),
    body: z.string(),
    created_by: z.string().meta({ description: "The acting account's id" }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "ContactNote" });

/** A note's text: 1 to 5,000 characters. */
export const noteBody = z
  .string({ error: "must be a string of 1 to 5000 characters" })
  .trim()
  .min(1, "must not be empty")
  .max(5_000, "must be at most 5000 characters");

/** The query of `GET /v1/contacts`. */
export const listContactsInput = z
  .object({
    ...accountSelection,
    sort: z
      .enum(["engagement", "replies", "reposts"])
      .default("engagement")
      .meta({ description: "Most replies plus reposts (default), most replies, or most reposts over the rolling 90 days" }),
    q: z.string().max(100, "must be at most 100 characters").optional().meta({ description: "Substring of handle or name (beyond the spec)" }),
    ...paginationInput(20),
  })
  .prefault({});

/** The list's query, parsed. */
export type ListContactsInput = z.infer<typeof listContactsInput>;

/**
 * `{id}` of `/v1/contacts/{id}`: the person's numeric X user id. A person on the network is
 * no record of ours: every account has its own view of them (its notes, its engagement), so
 * the document marks the parameter `x-network-id` and the conformance sweep does not expect
 * another user's key to be refused on it.
 */
export const contactId = xUserId.meta({ "x-network-id": true });

/** `GET /v1/contacts/{id}`: `refresh` re-reads the profile live. */
export const getContactInput = z.object({
  id: contactId,
  refresh: z.boolean().default(false).meta({ description: "Re-read the profile live (one write and one enrichment unit)" }),
  ...accountSelection,
});

/** What a contact read sends, parsed. */
export type GetContactInput = z.infer<typeof getContactInput>;

/** `GET /v1/contacts/{id}/replies`: the person's replies, with the query of the account's received replies. */
export const contactRepliesInput = listReceivedRepliesInput.unwrap().extend({ id: contactId });

/** The replies query, parsed. */
export type ContactRepliesInput = z.infer<typeof contactRepliesInput>;

/** `GET /v1/contacts/{id}/notes`: the page. */
export const listNotesInput = z.object({ id: contactId, ...paginationInput(50), ...accountSelection });

/** The notes page's input, parsed. */
export type ListNotesInput = z.infer<typeof listNotesInput>;

/** `POST /v1/contacts/{id}/notes`. */
export const addNoteInput = z.object({ id: contactId, body: noteBody, ...accountSelection });

/** What a new note sends. */
export type AddNoteInput = z.infer<typeof addNoteInput>;

/** `PATCH /v1/contacts/{id}/notes/{noteId}`. */
export const updateNoteInput = z.object({ id: contactId, noteId: integerId, body: noteBody, ...accountSelection });

/** What a note's new body sends. */
export type UpdateNoteInput = z.infer<typeof updateNoteInput>;

/** `DELETE /v1/contacts/{id}/notes/{noteId}`. */
export const deleteNoteInput = z.object({ id: contactId, noteId: integerId, ...accountSelection });

/** What a note removal sends. */
export type DeleteNoteInput = z.infer<typeof deleteNoteInput>;

/** The types. */
export type Contact = z.infer<typeof contact>;
export type ContactDetail = z.infer<typeof contactDetail>;
export type ContactNote = z.infer<typeof contactNote>;
