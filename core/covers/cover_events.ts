/**
 * Events about article covers (docs/webhooks.md): `cover.done` and `cover.failed` (a failed
 * or timed-out generation), with the generation as the `covers.status` query answers it,
 * recorded in the job's committing transaction.
 */
import type { Queryable } from "../db/sql.ts";
import { lockGeneration } from "./cover_queries.ts";
import { generationView } from "./cover_view.ts";
import { recordEvent } from "../events/record_event.ts";

/** Records `type` for generation `id`, read in `tx` after it ended. */
export async function recordCoverEvent(tx: Queryable, type: "cover.done" | "cover.failed", id: number, now: Date): Promise<void> {
  const row = await lockGeneration(tx, id);
  if (!row) return;
  await recordEvent(tx, { accountId: row.account_id, type, objectType: "cover", objectId: id, data: generationView(row), now });
}
