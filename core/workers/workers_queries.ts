/** SQL of Workers and their suggestions (migration 0015). */
import type postgres from "postgres";
import type { Queryable } from "../db/sql.ts";
import type { StyleMode, SuggestionStatus, TopicSource, WorkerShape, WorkerVoice } from "./worker_schema.ts";

/** What a Worker's topic is configured with. */
export interface TopicConfig {
  product_id?: number;
  topic?: string;
  keywords?: string[];
}

/** A row of `workers`. */
export interface WorkerRow {
  id: number;
  account_id: string;
  name: string;
  voice: WorkerVoice;
  creator_handle: string | null;
  topic_source: TopicSource;
  topic_config: TopicConfig;
  style_mode: StyleMode;
  batch_size: number;
  schedule_days: number[];
  schedule_time: string;
  timezone: string;
  next_run_at: Date;
  shape: WorkerShape;
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

/** The columns a new Worker sets. */
export type NewWorkerRow = Omit<WorkerRow, "id" | "created_at" | "updated_at">;

/** What a suggestion was written from, as stored (only `source` and `fallback` are shown). */
export interface StoredReference {
  source: "format" | "popular_post" | "product" | "context";
  format?: string;
  post_id?: string;
  url?: string;
  author_id?: string;
  product_id?: number;
}

/** A row of `worker_suggestions`. */
export interface SuggestionRow {
  id: number;
  worker_id: number;
  account_id: string;
  status: SuggestionStatus;
  text: string;
  reference: StoredReference | null;
  fallback: boolean;
  run_at: Date;
  run_index: number;
  post_id: number | null;
  generated_at: Date;
  drafted_at: Date | null;
  scheduled_at: Date | null;
  dismissed_at: Date | null;
}

/** A suggestion to insert. */
export interface NewSuggestion {
  text: string;
  reference: StoredReference;
  fallback: boolean;
}

/** Inserts a Worker; answers its row. */
export async function insertWorker(sql: Queryable, columns: NewWorkerRow): Promise<WorkerRow> {
  const values = { ...columns, topic_config: sql.json(columns.topic_config as postgres.JSONValue), schedule_days: sql.array(columns.schedule_days, 23) };
  const [row] = await sql<WorkerRow[]>`insert into workers ${sql(values)} returning *`;
  return row;
}

/** The Workers of an account, oldest first. */
export async function workersOfAccount(sql: Queryable, accountId: string): Promise<WorkerRow[]> {
  return sql<WorkerRow[]>`select * from workers where account_id = ${accountId} order by created_at, id`;
}

/** A Worker by id; `forUpdate` locks it for the transaction. */
export async function workerById(sql: Queryable, id: number, options: { forUpdate?: boolean } = {}): Promise<WorkerRow | undefined> {
  const [row] = await sql<WorkerRow[]>`select * from workers where id = ${id} ${options.forUpdate ? sql`for update` : sql``}`;
  return row;
}

/** A Worker of an account by name (the demo's re-runs find theirs this way). */
export async function workerByName(sql: Queryable, accountId: string, name: string): Promise<WorkerRow | undefined> {
  const [row] = await sql<WorkerRow[]>`select * from workers where account_id = ${accountId} and name = ${name} order by id limit 1`;
  return row;
}

/** Active Workers whose run is due at `now`, soonest first. */
export async function dueWorkers(sql: Queryable, now: Date, limit: number): Promise<WorkerRow[]> {
  return sql<WorkerRow[]>`select * from workers where active and next_run_at <= ${now} order by next_run_at, id limit ${limit}`;
}

/** The status of the job holding `uniqueKey` (the latest one), if any. */
export async function jobStatusByKey(sql: Queryable, uniqueKey: string): Promise<string | undefined> {
  const [row] = await sql<{ status: string }[]>`select status from jobs where unique_key = ${uniqueKey} order by id desc limit 1`;
  return row?.status;
}

/** Moves a Worker's next run. */
export async function setNextRun(sql: Queryable, id: number, nextRunAt: Date, now: Date): Promise<void> {
  await sql`update workers set next_run_at = ${nextRunAt}, updated_at = ${now} where id = ${id}`;
}

/** Writes one run's suggestions (`run_index` from 0); a batch already written for the run is left alone. */
export async function insertSuggestions(
  sql: Queryable,
  worker: { id: number; account_id: string },
  runAt: Date,
  generatedAt: Date,
  suggestions: readonly NewSuggestion[],
): Promise<number> {
  if (suggestions.length === 0) return 0;
  const rows = suggestions.map((suggestion, index) => ({
    worker_id: worker.id,
    account_id: worker.account_id,
    text: suggestion.text,
    reference: sql.json(suggestion.reference as unknown as postgres.JSONValue),
    fallback: suggestion.fallback,
    run_at: runAt,
    run_index: index,
    generated_at: generatedAt,
  }));
  const inserted = await sql`
    insert into worker_suggestions ${sql(rows)}
    on conflict (worker_id, run_at, run_index) do nothing
    returning id`;
  return inserted.length;
}

/** The suggestions of one run of a worker, in batch order (their `suggestion.created` events). */
export async function suggestionsOfRun(sql: Queryable, workerId: number, runAt: Date): Promise<SuggestionRow[]> {
  return sql<SuggestionRow[]>`select * from worker_suggestions where worker_id = ${workerId} and run_at = ${runAt} order by run_index`;
}

/** What the suggestion list filters on (spec: GET /v1/workers/suggestions). */
export interface SuggestionFilter {
  accountId: string;
  /** Absent: every status (`status=all`). */
  status?: SuggestionStatus;
  workerId?: number;
  limit: number;
  offset: number;
}

/** A page of suggestions, newest first, each with the filter's total. */
export async function listSuggestionRows(sql: Queryable, filter: SuggestionFilter): Promise<(SuggestionRow & { total: number })[]> {
  return sql<(SuggestionRow & { total: number })[]>`
    select *, count(*) over ()::int as total
      from worker_suggestions
     where account_id = ${filter.accountId}
       ${filter.status ? sql`and status = ${filter.status}` : sql``}
       ${filter.workerId !== undefined ? sql`and worker_id = ${filter.workerId}` : sql``}
     order by generated_at desc, id desc
     limit ${filter.limit} offset ${filter.offset}`;
}

/** How many suggestions match a filter (for a page past the end, where the window count has no row). */
export async function countSuggestions(sql: Queryable, filter: Omit<SuggestionFilter, "limit" | "offset">): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from worker_suggestions
     where account_id = ${filter.accountId}
       ${filter.status ? sql`and status = ${filter.status}` : sql``}
       ${filter.workerId !== undefined ? sql`and worker_id = ${filter.workerId}` : sql``}`;
  return row.n;
}

/** A suggestion by id; `forUpdate` locks it for the transaction. */
export async function suggestionById(sql: Queryable, id: number, options: { forUpdate?: boolean } = {}): Promise<SuggestionRow | undefined> {
  const [row] = await sql<SuggestionRow[]>`select * from worker_suggestions where id = ${id} ${options.forUpdate ? sql`for update` : sql``}`;
  return row;
}

/** Records that a suggestion was saved as post `postId` (`drafted` or `scheduled` at `at`). */
export async function markSaved(sql: Queryable, id: number, status: "drafted" | "scheduled", postId: number, at: Date): Promise<SuggestionRow> {
  const [row] = await sql<SuggestionRow[]>`
    update worker_suggestions
       set status = ${status}, post_id = ${postId},
           drafted_at = ${status === "drafted" ? at : null}, scheduled_at = ${status === "scheduled" ? at : null}
     where id = ${id}
    returning *`;
  return row;
}

/** Dismisses a suggestion (its saved post, if any, stays); one already dismissed keeps its time. */
export async function markDismissed(sql: Queryable, id: number, at: Date): Promise<SuggestionRow | undefined> {
  const [row] = await sql<SuggestionRow[]>`
    update worker_suggestions set status = 'dismissed', dismissed_at = coalesce(dismissed_at, ${at})
     where id = ${id}
    returning *`;
  return row;
}
