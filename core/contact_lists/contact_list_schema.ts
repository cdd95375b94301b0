/**
 * Contact lists and their members as the API shows them (spec: Contact list member,
 * Contact lists; supplement: Contact Lists).
 */
import { z } from "zod";
import { personFields } from "../people/person_fields.ts";
import { accountSelection, integerId, paginationInput, xHandle, xUserIdInput } from "../schema.ts";

/** The four system lists, in the order they are listed (supplement: Contact Lists). */
export const SYSTEM_LIST_KINDS = ["followers", "following", "repliers", "reposters"] as const;

/** A system list's kind. */
export type SystemListKind = (typeof SYSTEM_LIST_KINDS)[number];

/** A list's kind: a system list's, or `custom` for lists the user made. */
export type ListKind = SystemListKind | "custom";

/** A list name: trimmed, 1 to 120 characters, not unique (supplement). */
export const listName = z
  .string({ error: "must be a string of 1 to 120 characters" })
  .trim()
  .min(1, "must not be empty")
  .max(120, "must be at most 120 characters");

/** A contact list as returned. */
export const contactList = z
  .object({
    id: z.number().int(),
    name: z.string(),
    kind: z.enum(["custom", ...SYSTEM_LIST_KINDS]).meta({ description: "`custom` for lists the user made; a system list's kind otherwise" }),
    is_system: z.boolean().meta({ description: "System lists are index-only and read-only (their members: `GET /v1/audience/{kind}`)" }),
    member_count: z.number().int(),
    account_id: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "ContactList" });

/** A member of a contact list (spec: Contact list member). */
export const listMember = z
  .object({
    id: z.string().meta({ description: "Member id (for removal)" }),
    ...personFields,
    source: z.string().meta({ description: "How the person was added: `manual`, `bulk`, `dataset` or `signal`" }),
    added_at: z.string(),
    // A lead deposited by a signal agent carries its score and the feedback given on it (docs/areas.md "Signals").
    icp_score: z.number().int().nullable().meta({ description: "A deposited lead's fit with the agent's ICP (0 to 100); null otherwise" }),
    icp_rationale: z.string().nullable().meta({ description: "Why the agent judged it so; null unless deposited by an agent" }),
    feedback: z.enum(["fit", "not_fit"]).nullable().meta({ description: "Feedback given on the lead, mirrored here" }),
    feedback_at: z.string().nullable(),
  })
  .meta({ id: "ContactListMember" });

const MEMBER_ID_MESSAGE = "must be a member id (decimal text)";

/** A member id in a path: the decimal text the API answers. */
export const memberIdPath = z
  .string()
  .regex(/^[1-9][0-9]{0,15}$/, MEMBER_ID_MESSAGE)
  .meta({ description: "Member id" });

/** A member id in a body: the decimal text, or the same number as a JSON integer. */
export const memberIdInput = z.union([memberIdPath, z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).transform(String)], { error: MEMBER_ID_MESSAGE });

/** `GET /v1/contact-lists`: the page. */
export const listContactListsInput = z.object({ ...accountSelection, ...paginationInput(100) }).prefault({});

/** The list's page, parsed. */
export type ListContactListsInput = z.infer<typeof listContactListsInput>;

/** `POST /v1/contact-lists`. */
export const createContactListInput = z.object({ name: listName, ...accountSelection });

/** What a create sends. */
export type CreateContactListInput = z.infer<typeof createContactListInput>;

/** `PATCH /v1/contact-lists/{id}`. */
export const renameContactListInput = z.object({ id: integerId, name: listName, ...accountSelection });

/** What a rename sends. */
export type RenameContactListInput = z.infer<typeof renameContactListInput>;

/** `DELETE /v1/contact-lists/{id}` (`account_id` narrows the search). */
export const contactListByIdInput = z.object({ id: integerId, ...accountSelection });

/** An id-addressed call's input. */
export type ContactListByIdInput = z.infer<typeof contactListByIdInput>;

/** `GET /v1/contact-lists/{id}/members`: an optional search and the page. */
export const listMembersInput = z.object({
  id: integerId,
  q: z.string().max(100, "must be at most 100 characters").optional().meta({ description: "Substring of handle or name" }),
  ...paginationInput(50),
  ...accountSelection,
});

/** The members page's input, parsed. */
export type ListMembersInput = z.infer<typeof listMembersInput>;

/** `POST /v1/contact-lists/{id}/members`: exactly one of `handle` or `x_user_id`. */
export const addMemberInput = z.object({
  id: integerId,
  handle: xHandle.optional().meta({ description: "With or without `@`" }),
  x_user_id: xUserIdInput.optional(),
  ...accountSelection,
});

/** What an add sends. */
export type AddMemberInput = z.infer<typeof addMemberInput>;

/** `POST /v1/contact-lists/{id}/members/bulk`: 1 to 500 X user ids. */
export const bulkAddMembersInput = z.object({
  id: integerId,
  x_user_ids: z.array(xUserIdInput).min(1, "must hold 1 to 500 ids").max(500, "must hold 1 to 500 ids"),
  ...accountSelection,
});

/** What a bulk add sends. */
export type BulkAddMembersInput = z.infer<typeof bulkAddMembersInput>;

/** `POST /v1/contact-lists/{id}/members/bulk-delete`: 1 to 500 member ids. */
export const bulkDeleteMembersInput = z.object({
  id: integerId,
  member_ids: z.array(memberIdInput).min(1, "must hold 1 to 500 member ids").max(500, "must hold 1 to 500 member ids"),
  ...accountSelection,
});

/** What a bulk delete sends, the member ids as text. */
export type BulkDeleteMembersInput = z.infer<typeof bulkDeleteMembersInput>;

/** `DELETE /v1/contact-lists/{id}/members/{memberId}`. */
export const deleteMemberInput = z.object({ id: integerId, memberId: memberIdPath, ...accountSelection });

/** What a member removal sends. */
export type DeleteMemberInput = z.infer<typeof deleteMemberInput>;

/** The list types. */
export type ContactList = z.infer<typeof contactList>;
/** The member type. */
export type ListMember = z.infer<typeof listMember>;
