/**
 * Audience: `GET /v1/contacts`, `GET /v1/contacts/{id}`, `GET /v1/contacts/{id}/replies` and the
 * notes on a person (supplement: Audience, section 5; Limits 3).
 */
import { z } from "zod";
import { inAccount, keyProcedure, router } from "../core/trpc.ts";
import { dataOf, listOf } from "../core/schema.ts";
import {
  addNoteInput,
  contact,
  contactDetail,
  contactRepliesInput,
  contactNote,
  deleteNoteInput,
  getContactInput,
  listContactsInput,
  listNotesInput,
  updateNoteInput,
} from "../core/audience/contact_schema.ts";
import { getContact, listContactReplies, listContacts } from "../core/audience/contacts.ts";
import { addNote, deleteNote, listNotes, updateNote } from "../core/audience/contact_notes.ts";
import { receivedReply } from "../core/content/content_schema.ts";

const tags = ["Audience"];
const KNOWN =
  "Known contacts only: the account's engagers (repliers and reposters of the last 90 days), members of its lists (system lists " +
  "included: followers and following) and scored leads; anyone else is `404 contact_not_found`.";

export const contactsRouter = router({
  list: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/contacts",
        tags,
        summary: "List the account's contacts by engagement",
        description:
          "Everyone the account knows, ranked by replies plus reposts to it over the rolling 90 days (`sort=engagement`, default), " +
          "by replies or by reposts (those two list only people with some). Counts are as of the last audience sync (engagers are recounted " +
          "hourly, and within minutes of a content sync that stores new replies or reposts).",
      },
    })
    .input(listContactsInput)
    .use(inAccount)
    .output(listOf(contact))
    .query(({ ctx, input }) => listContacts(ctx, input)),

  get: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/contacts/{id}",
        tags,
        summary: "One contact with profile, lists and notes count",
        description:
          "The stored profile (free), verified state, bio, and every list the person is in with the `member_id` for removal. " +
          "`refresh=true` re-reads the profile live first (a read key may: it is a GET): one write and one enrichment unit (Limits 3), " +
          "given back when the network read fails; a person gone from the network is `404 user_not_found`. " +
          KNOWN,
      },
      errors: ["contact_not_found", "user_not_found", "upstream_unavailable", "upstream_error", "upstream_timeout"],
    })
    .input(getContactInput)
    .use(inAccount)
    .output(dataOf(contactDetail))
    .query(({ ctx, input }) => getContact(ctx, input)),

  replies: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/contacts/{id}/replies",
        tags,
        summary: "The person's replies to the account's posts",
        description: `Newest first (\`sort=recent\`) or most liked first; the synced 90 days. ${KNOWN}`,
      },
      errors: ["contact_not_found"],
    })
    .input(contactRepliesInput)
    .use(inAccount)
    .output(listOf(receivedReply))
    .query(({ ctx, input }) => listContactReplies(ctx, input)),

  notes: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/contacts/{id}/notes",
        tags,
        summary: "The account's notes on a person, newest first",
        description: "The account's own notes, newest first. Not limited to known contacts (a person with no notes answers an empty list).",
      },
    })
    .input(listNotesInput)
    .use(inAccount)
    .output(listOf(contactNote))
    .query(({ ctx, input }) => listNotes(ctx, input)),

  addNote: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/contacts/{id}/notes",
        tags,
        summary: "Add a note on a contact",
        description: `\`body\` 1 to 5,000 characters after trimming; \`created_by\` is the acting account. ${KNOWN}`,
      },
      successStatus: 201,
      errors: ["contact_not_found"],
    })
    .input(addNoteInput)
    .use(inAccount)
    .output(dataOf(contactNote))
    .mutation(({ ctx, input }) => addNote(ctx, input)),

  updateNote: keyProcedure
    .meta({
      openapi: {
        method: "PATCH",
        path: "/v1/contacts/{id}/notes/{noteId}",
        tags,
        summary: "Replace a note's body",
        description: "`body` 1 to 5,000 characters after trimming. A note of another person or account is `404 note_not_found`.",
      },
      errors: ["note_not_found"],
    })
    .input(updateNoteInput)
    .use(inAccount)
    .output(dataOf(contactNote))
    .mutation(({ ctx, input }) => updateNote(ctx, input)),

  deleteNote: keyProcedure
    .meta({
      openapi: {
        method: "DELETE",
        path: "/v1/contacts/{id}/notes/{noteId}",
        tags,
        summary: "Delete a note",
        description: "A note of another person or account is `404 note_not_found`.",
      },
      successStatus: 204,
      errors: ["note_not_found"],
    })
    .input(deleteNoteInput)
    .use(inAccount)
    .output(z.void())
    .mutation(({ ctx, input }) => deleteNote(ctx, input)),
});
