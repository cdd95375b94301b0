/**
 * Contact lists and their members as the API shows them (spec: Contact list member,
 * Contact lists; supplement: Contact Lists).
 */
import { z } from "zod";
import { personFields } from "../people/person_fields.ts";

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

/** The list types. */
export type ContactList = z.infer<typeof contactList>;
/** The member type. */
export type ListMember = z.infer<typeof listMember>;
