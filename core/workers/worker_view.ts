/** Turns stored Workers and suggestions into their records (spec: Worker (list shape), Worker suggestion). */
import type { Worker, WorkerSuggestion } from "./worker_schema.ts";
import type { SuggestionRow, WorkerRow } from "./workers_queries.ts";

/** The list record of a Worker; `shape` is written last (spec: "`shape` (last key)"). */
export function toWorker(row: WorkerRow): Worker {
  const config: Worker["topic_config"] = {};
  if (row.topic_config.product_id !== undefined) config.product_id = row.topic_config.product_id;
  if (row.topic_config.topic !== undefined) config.topic = row.topic_config.topic;
  if (row.topic_config.keywords !== undefined) config.keywords = [...row.topic_config.keywords];
  return {
    id: row.id,
    account_id: row.account_id,
    name: row.name,
    active: row.active,
    voice: row.voice,
    creator: row.creator_handle,
    topic_source: row.topic_source,
    topic_config: config,
    style_mode: row.style_mode,
    batch_size: row.batch_size,
    schedule: { days: [...row.schedule_days], time: row.schedule_time },
    timezone: row.timezone,
    next_run_at: row.active ? row.next_run_at.toISOString() : null,
    shape: row.shape,
  };
}

/**
 * The suggestion record. `reference` shows only the kind of source and the fallback
 * mark: "collection and reference ids stay private" (spec: Worker suggestion).
 */
export function toSuggestion(row: SuggestionRow): WorkerSuggestion {
  return {
    id: row.id,
    worker_id: row.worker_id,
    text: row.text,
    status: row.status,
    reference: row.reference ? { source: row.reference.source, ...(row.fallback ? { fallback: true as const } : {}) } : null,
    generated_at: row.generated_at.toISOString(),
    drafted_at: row.drafted_at?.toISOString() ?? null,
    scheduled_at: row.scheduled_at?.toISOString() ?? null,
    dismissed_at: row.dismissed_at?.toISOString() ?? null,
    post_id: row.post_id === null ? null : String(row.post_id),
  };
}
