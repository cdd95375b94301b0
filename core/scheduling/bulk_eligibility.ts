/**
 * Which posts a bulk queue call acts on (supplement: Queue, "queued posts only (drafts,
 * sent and error rows are counted as skipped)"): a post of the selected account, status
 * `scheduled`, still ahead and not yet taken up by the publisher.
 */
import type { BulkPostRow } from "./bulk_queries.ts";
import type { SkipReason } from "./bulk_schema.ts";

/** Why `row` is not a queued post the bulk calls may change, or undefined when it is. */
export function notQueuedReason(row: BulkPostRow | undefined, now: Date): SkipReason | undefined {
  if (!row) return "not_found";
  if (row.status !== "scheduled") return "not_queued";
  if (row.scheduled_for === null || row.scheduled_for <= now || row.publishing) return "publishing";
  return undefined;
}

/** The distinct ids in first-seen order (the reference CLI de-duplicates too). */
export function distinctIds(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}
