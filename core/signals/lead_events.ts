/**
 * `lead.found` (docs/webhooks.md): one event per lead a signal stored, with the lead as
 * `GET /v1/signals/leads` lists it (deposit state included), in the signal's commit.
 */
import type { Queryable } from "../db/sql.ts";
import { toLead } from "./leads.ts";
import { leadById } from "./leads_queries.ts";
import { recordEvent } from "../events/record_event.ts";

/** Records `lead.found` for each of `leads` (just stored, and deposited when they were), read in `tx`. */
export async function recordLeadsFound(tx: Queryable, leads: readonly { id: number }[], now: Date): Promise<void> {
  for (const { id } of leads) {
    const row = await leadById(tx, id);
    if (row) await recordEvent(tx, { accountId: row.account_id, type: "lead.found", objectType: "lead", objectId: id, data: toLead(row), now });
  }
}
