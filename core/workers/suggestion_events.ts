/**
 * `suggestion.created` (docs/webhooks.md): one event per suggestion a Worker run wrote,
 * with the suggestion as `GET /v1/workers/suggestions` lists it, in the run's transaction.
 */
import type { Queryable } from "../db/sql.ts";
import { suggestionsOfRun } from "./workers_queries.ts";
import { toSuggestion } from "./worker_view.ts";
import { recordEvent } from "../events/record_event.ts";

/** Records `suggestion.created` for each suggestion of worker `workerId`'s run at `runAt`. */
export async function recordSuggestionsCreated(tx: Queryable, workerId: number, runAt: Date, now: Date): Promise<void> {
  for (const row of await suggestionsOfRun(tx, workerId, runAt)) {
    await recordEvent(tx, { accountId: row.account_id, type: "suggestion.created", objectType: "suggestion", objectId: row.id, data: toSuggestion(row), now });
  }
}
