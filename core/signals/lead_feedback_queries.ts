/** SQL of lead feedback: the lead's own columns and their mirror on the list row it was deposited as (migration 0024). */
import type { Queryable } from "../db/sql.ts";

/** Sets (or clears, with null) a lead's feedback; false when the lead is gone. */
export async function setLeadFeedback(sql: Queryable, leadId: number, feedback: "fit" | "not_fit" | null, at: Date | null): Promise<boolean> {
  const rows = await sql`update signal_leads set feedback = ${feedback}, feedback_at = ${at} where id = ${leadId} returning id`;
  return rows.length > 0;
}

/** Mirrors the feedback onto the person's row in the list the lead went into (none when it is no longer there). */
export async function mirrorFeedbackOnList(
  sql: Queryable,
  listId: number,
  xUserId: string,
  feedback: "fit" | "not_fit" | null,
  at: Date | null,
): Promise<void> {
  await sql`update contact_list_members set feedback = ${feedback}, feedback_at = ${at} where list_id = ${listId} and x_user_id = ${xUserId}`;
}
