/**
 * Lead feedback (docs/areas.md "Signals"; supplement section 5: POST /v1/signals/leads/{leadId}/feedback):
 * `fit`, `not_fit`, or null to clear, stamped with `feedback_at` and mirrored onto the list
 * row the lead was deposited as, in one transaction. The runner reads it to shift later scoring.
 */
import type { KeyContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { findReachable } from "../accounts/owner_access.ts";
import { mirrorFeedbackOnList, setLeadFeedback } from "./lead_feedback_queries.ts";
import type { LeadFeedbackInput } from "./agent_schema.ts";
import { leadById } from "./leads_queries.ts";
import { toLead } from "./leads.ts";

/** Records the caller's verdict on a lead (found among the accounts the key reaches) and answers the lead. */
export async function giveLeadFeedback(ctx: KeyContext, input: LeadFeedbackInput) {
  const { sql, clock } = ctx.services;
  const found = await findReachable(
    ctx,
    { accountId: input.account_id, intent: { write: true }, narrowTo: "account" },
    () => leadById(sql, input.id),
    (row) => row.account_id,
  );
  if (!found) throw leadNotFound(input.id);
  const lead = found.row;
  const at = input.feedback === null ? null : new Date(clock.now());
  await sql.begin(async (tx) => {
    if (!(await setLeadFeedback(tx, lead.id, input.feedback, at))) throw leadNotFound(input.id);
    if (lead.deposited_list_id !== null) await mirrorFeedbackOnList(tx, lead.deposited_list_id, lead.x_user_id, input.feedback, at);
  });
  const row = await leadById(sql, lead.id);
  if (!row) throw leadNotFound(input.id);
  return { data: toLead(row) };
}

/** `404 lead_not_found` for `id`. */
function leadNotFound(id: number): ApiError {
  return new ApiError("lead_not_found", `Cannot find lead "${id}"`);
}
