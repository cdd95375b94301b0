/** SQL of notes on people (table `contact_notes`, migration 0023). */
import type { Queryable } from "../db/sql.ts";

/** A stored note. */
export interface NoteRow {
  id: number;
  account_id: string;
  x_user_id: string;
  body: string;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

/** A page of the notes on a person, newest first. */
export async function notesOf(sql: Queryable, accountId: string, xUserId: string, take: number, skip: number) {
  return sql<(NoteRow & { total: number })[]>`
    select *, count(*) over ()::int as total from contact_notes
     where account_id = ${accountId} and x_user_id = ${xUserId}
     order by created_at desc, id desc limit ${take} offset ${skip}`;
}

/** How many notes the account has on a person. */
export async function countNotes(sql: Queryable, accountId: string, xUserId: string): Promise<number> {
  const [{ count }] = await sql<{ count: number }[]>`
    select count(*)::int as count from contact_notes where account_id = ${accountId} and x_user_id = ${xUserId}`;
  return count;
}

/** Adds a note. */
export async function insertNote(sql: Queryable, note: Omit<NoteRow, "id">): Promise<NoteRow> {
  const [row] = await sql<NoteRow[]>`insert into contact_notes ${sql(note as never)} returning *`;
  return row;
}

/** Replaces a note's body; undefined when the person has no such note on this account. */
export async function replaceNote(sql: Queryable, accountId: string, xUserId: string, id: number, body: string, now: Date): Promise<NoteRow | undefined> {
  const [row] = await sql<NoteRow[]>`
    update contact_notes set body = ${body}, updated_at = ${now}
     where id = ${id} and account_id = ${accountId} and x_user_id = ${xUserId} returning *`;
  return row;
}

/** Deletes a note; false when the person has no such note on this account. */
export async function deleteNoteRow(sql: Queryable, accountId: string, xUserId: string, id: number): Promise<boolean> {
  const rows = await sql`delete from contact_notes where id = ${id} and account_id = ${accountId} and x_user_id = ${xUserId} returning id`;
  return rows.length > 0;
}
