/**
 * Notes on people (supplement section 5: `GET/POST /v1/contacts/{id}/notes`,
 * `PATCH/DELETE /v1/contacts/{id}/notes/{noteId}`): per account, newest first, the body
 * replaced whole on PATCH. Reading is not limited to known contacts; adding needs one
 * (`404 contact_not_found`). A note of another person or account is `404 note_not_found`.
 */
import type { AccountContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { pageInfo } from "../schema.ts";
import { knownContact } from "./contacts.ts";
import { deleteNoteRow, insertNote, type NoteRow, notesOf, replaceNote } from "./contact_notes_queries.ts";
import type { AddNoteInput, ContactNote, DeleteNoteInput, ListNotesInput, UpdateNoteInput } from "./contact_schema.ts";

/** The notes on a person, newest first. */
export async function listNotes(ctx: AccountContext, input: ListNotesInput) {
  const rows = await notesOf(ctx.services.sql, ctx.account.id, input.id, input.limit + 1, (input.page - 1) * input.limit);
  return { data: rows.slice(0, input.limit).map(toNote), pagination: pageInfo(input.page, input.limit, rows[0]?.total, rows.length) };
}

/** Adds a note on a known contact; `created_by` is the acting account. */
export async function addNote(ctx: AccountContext, input: AddNoteInput) {
  await knownContact(ctx, input.id);
  const now = new Date(ctx.services.clock.now());
  const row = await insertNote(ctx.services.sql, {
    account_id: ctx.account.id,
    x_user_id: input.id,
    body: input.body,
    created_by: ctx.account.id,
    created_at: now,
    updated_at: now,
  });
  return { data: toNote(row) };
}

/** Replaces a note's body. */
export async function updateNote(ctx: AccountContext, input: UpdateNoteInput) {
  const row = await replaceNote(ctx.services.sql, ctx.account.id, input.id, input.noteId, input.body, new Date(ctx.services.clock.now()));
  if (!row) throw noteNotFound(input.id, input.noteId);
  return { data: toNote(row) };
}

/** Deletes a note. */
export async function deleteNote(ctx: AccountContext, input: DeleteNoteInput): Promise<void> {
  if (!(await deleteNoteRow(ctx.services.sql, ctx.account.id, input.id, input.noteId))) throw noteNotFound(input.id, input.noteId);
}

function noteNotFound(xUserId: string, noteId: number): ApiError {
  return new ApiError("note_not_found", `Contact "${xUserId}" has no note "${noteId}"`);
}

function toNote(row: NoteRow): ContactNote {
  return {
    id: row.id,
    x_user_id: row.x_user_id,
    body: row.body,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
