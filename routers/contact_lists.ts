/**
 * Contact Lists: `GET/POST /v1/contact-lists`, `PATCH/DELETE /v1/contact-lists/{id}` and the
 * member routes (spec: Contact lists, Limits 3, Constants; supplement: Contact Lists).
 */
import { z } from "zod";
import { inAccount, keyProcedure, router } from "../core/trpc.ts";
import { dataOf, listOf } from "../core/schema.ts";
import {
  addMemberInput,
  bulkAddMembersInput,
  bulkDeleteMembersInput,
  contactList,
  contactListByIdInput,
  createContactListInput,
  deleteMemberInput,
  listContactListsInput,
  listMember,
  listMembersInput,
  renameContactListInput,
} from "../core/contact_lists/contact_list_schema.ts";
import { createContactList, deleteContactList, listContactLists, renameContactList } from "../core/contact_lists/contact_lists.ts";
import { addMember, bulkAddMembers, bulkDeleteMembers, deleteMember, listMembers } from "../core/contact_lists/list_members.ts";

const tags = ["Contact Lists"];
const BY_ID =
  "The list is found among every account the key reaches; `account_id`, when sent, narrows the search to that account. " +
  "Lists of accounts shared with you are read-only (`403 writes_main_account_only`).";

export const contactListsRouter = router({
  list: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/contact-lists",
        tags,
        summary: "List the account's contact lists",
        description:
          "The user's lists newest first, then the four system lists (Followers, Following, Repliers, Reposters: `is_system: true`, " +
          "index-only, members through `GET /v1/audience/{kind}`), each with `member_count` (a system list's: its index's size).",
      },
    })
    .input(listContactListsInput)
    .use(inAccount)
    .output(listOf(contactList))
    .query(({ ctx, input }) => listContactLists(ctx, input)),

  create: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/contact-lists",
        tags,
        summary: "Create a contact list",
        description: "Names are 1 to 120 characters after trimming, not unique.",
      },
      successStatus: 201,
    })
    .input(createContactListInput)
    .use(inAccount)
    .output(dataOf(contactList))
    .mutation(({ ctx, input }) => createContactList(ctx, input)),

  rename: keyProcedure
    .meta({
      openapi: { method: "PATCH", path: "/v1/contact-lists/{id}", tags, summary: "Rename a contact list", description: BY_ID },
      errors: ["list_not_found", "system_list_read_only"],
    })
    .input(renameContactListInput)
    .output(dataOf(contactList))
    .mutation(({ ctx, input }) => renameContactList(ctx, input)),

  delete: keyProcedure
    .meta({
      openapi: {
        method: "DELETE",
        path: "/v1/contact-lists/{id}",
        tags,
        summary: "Delete a contact list and its membership",
        description: `The people stay contacts. A second delete is \`404 list_not_found\`. ${BY_ID}`,
      },
      successStatus: 204,
      errors: ["list_not_found", "system_list_read_only"],
    })
    .input(contactListByIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => deleteContactList(ctx, input)),

  members: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/contact-lists/{id}/members",
        tags,
        summary: "List or search a contact list's members",
        description:
          "Newest first. `q` keeps members whose handle or name contains it (case-insensitive, a leading `@` ignored, `%` and `_` " +
          "taken literally; a trigram index serves it, so searching a large list reads only the matches). `total` is the list's size, " +
          "or the number of matches with `q`. " +
          `System lists: \`400 system_list_not_supported\`. ${BY_ID}`,
      },
      errors: ["list_not_found", "system_list_not_supported"],
    })
    .input(listMembersInput)
    .output(listOf(listMember))
    .query(({ ctx, input }) => listMembers(ctx, input)),

  addMember: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/contact-lists/{id}/members",
        tags,
        summary: "Add one person by handle or X user id",
        description:
          "Exactly one of `handle` (with or without `@`) or `x_user_id`, resolved live: one write and one enrichment unit (Limits 3), " +
          "spent even when the person is unknown (`404 user_not_found`). The person becomes a contact and is answered with " +
          "`duplicate: false`. Someone already in the list answers the existing member with `duplicate: true` and writes " +
          `nothing (still \`201\`). ${BY_ID}`,
      },
      successStatus: 201,
      units: { enrichment: 1 },
      exactlyOneOf: ["handle", "x_user_id"],
      errors: ["list_not_found", "system_list_read_only", "user_not_found", "upstream_unavailable", "upstream_error", "upstream_timeout"],
    })
    .input(addMemberInput)
    .output(dataOf(listMember.extend({ duplicate: z.boolean() })))
    .mutation(({ ctx, input }) => addMember(ctx, input)),

  bulkAdd: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/contact-lists/{id}/members/bulk",
        tags,
        summary: "Add up to 500 known people by X user id",
        description:
          "No live lookup: one write, no enrichment (Limits 3). Only people the account already knows (its contacts: engagers, members " +
          "of its lists, followers and following, leads) are added; other ids come back in `not_found`, people already in the list " +
          `are counted in \`duplicates\`. ${BY_ID}`,
      },
      errors: ["list_not_found", "system_list_read_only"],
    })
    .input(bulkAddMembersInput)
    .output(
      dataOf(
        z.object({
          added: z.number().int(),
          duplicates: z.number().int(),
          not_found: z.array(z.string()),
          total_in_list_after: z.number().int(),
        }),
      ),
    )
    .mutation(({ ctx, input }) => bulkAddMembers(ctx, input)),

  bulkDelete: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/contact-lists/{id}/members/bulk-delete",
        tags,
        summary: "Remove up to 500 members by member id",
        description: `Ids not in the list are skipped, so \`deleted\` can be lower than the count sent. One write. ${BY_ID}`,
      },
      errors: ["list_not_found", "system_list_read_only"],
    })
    .input(bulkDeleteMembersInput)
    .output(dataOf(z.object({ deleted: z.number().int(), total_in_list_after: z.number().int() })))
    .mutation(({ ctx, input }) => bulkDeleteMembers(ctx, input)),

  deleteMember: keyProcedure
    .meta({
      openapi: {
        method: "DELETE",
        path: "/v1/contact-lists/{id}/members/{memberId}",
        tags,
        summary: "Remove one member",
        description: `The person stays a contact. ${BY_ID}`,
      },
      successStatus: 204,
      errors: ["list_not_found", "system_list_read_only", "member_not_found"],
    })
    .input(deleteMemberInput)
    .output(z.void())
    .mutation(({ ctx, input }) => deleteMember(ctx, input)),
});
