/**
 * SQL of datasets and their rows (tables `datasets`, `dataset_rows`, migration 0025) that
 * every dataset feature shares: the record, its rows in order, progress and the end state.
 * Feature-specific SQL (the walk, research, refine, drafts) lives beside its feature.
 */
import type { Queryable } from "../db/sql.ts";
import type { DatasetSource } from "./dataset_schema.ts";

/** The columns of `datasets`. */
export interface DatasetRecord {
  id: string;
  owner_id: number;
  account_id: string;
  source: DatasetSource;
  title: string;
  status: "collecting" | "ready" | "failed";
  target: string | null;
  target_id: string | null;
  /** The normalised request (max_rows, filters, focus, criterion, research source, ...). */
  params: DatasetParams;
  parent_id: string | null;
  rows_collected: number;
  expected_total: number | null;
  counts: Record<string, number>;
  cursor: unknown;
  charges: Record<string, unknown>;
  /** The UTC day (`YYYY-MM-DD`) whose collection slot this dataset holds, or null. */
  quota_day: string | null;
  note: string | null;
  error: string | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
  expires_at: Date;
}

/** What a dataset was asked for (stored as `params`). */
export interface DatasetParams {
  max_rows: number;
  filters?: Record<string, unknown> | null;
  focus?: string | null;
  /** Refine: the criterion and how rows were kept and ordered. */
  criterion?: string | null;
  keep_matching?: boolean;
  sort_by?: "followers" | "likes" | "none";
  limit?: number | null;
  /** Research: what it read people from. */
  research?: { handles?: string[]; list_id?: number; agent_id?: number; dataset_id?: string };
}

/** A dataset record with its stored row count and whether any row has a message. */
export interface DatasetRow extends DatasetRecord {
  row_count: number;
  has_messages: boolean;
}

/** The columns of `dataset_rows`. */
export interface StoredRow {
  dataset_id: string;
  position: number;
  key: string;
  x_user_id: string | null;
  handle: string | null;
  name: string | null;
  bio: string | null;
  location: string | null;
  website: string | null;
  avatar_url: string | null;
  followers_count: number | null;
  following_count: number | null;
  verified: boolean | null;
  can_dm: boolean | null;
  post_id: string | null;
  post_text: string | null;
  post_url: string | null;
  posted_at: Date | null;
  likes: number | null;
  replies: number | null;
  reposts: number | null;
  quotes: number | null;
  impressions: number | null;
  brief: { summary: string; topics: string[]; tone: string; recent_themes: string[] } | null;
  hooks: { quote: string; post_id: string; post_url: string; posted_at: string | null }[] | null;
  message: string | null;
  message_kind: "drafted" | "generic" | null;
  message_at: Date | null;
}

/** A row about to be stored: its key and the columns its source has. */
export type NewDatasetRow = Pick<StoredRow, "key"> & Partial<Omit<StoredRow, "dataset_id" | "position" | "key" | "message" | "message_kind" | "message_at">>;

/** A dataset about to be stored. */
export type NewDataset = Pick<DatasetRecord, "id" | "owner_id" | "account_id" | "source" | "title" | "status" | "params" | "created_at" | "expires_at"> &
  Partial<Pick<DatasetRecord, "target" | "target_id" | "parent_id" | "expected_total" | "counts" | "charges" | "quota_day" | "note" | "error" | "finished_at">>;

const ROW_COLUMNS = [
  "x_user_id",
  "handle",
  "name",
  "bio",
  "location",
  "website",
  "avatar_url",
  "followers_count",
  "following_count",
  "verified",
  "can_dm",
  "post_id",
  "post_text",
  "post_url",
  "posted_at",
  "likes",
  "replies",
  "reposts",
  "quotes",
  "impressions",
  "brief",
  "hooks",
] as const;

const DATASET_COLUMNS = (sql: Queryable) => sql`
  d.id, d.owner_id::int as owner_id, d.account_id, d.source, d.title, d.status, d.target, d.target_id, d.params, d.parent_id,
  d.rows_collected, d.expected_total, d.counts, d.cursor, d.charges, d.quota_day::text as quota_day, d.note, d.error,
  d.created_at, d.updated_at, d.finished_at, d.expires_at,
  (select count(*) from dataset_rows r where r.dataset_id = d.id)::int as row_count,
  exists (select 1 from dataset_rows r where r.dataset_id = d.id and r.message is not null) as has_messages`;

/** Stores a new dataset (no rows yet). A second `collecting` collection of the account violates `datasets_one_collecting`. */
export async function insertDataset(sql: Queryable, dataset: NewDataset): Promise<void> {
  await sql`
    insert into datasets (id, owner_id, account_id, source, title, status, target, target_id, params, parent_id,
      expected_total, counts, charges, quota_day, note, error, created_at, updated_at, finished_at, expires_at)
    values (${dataset.id}, ${dataset.owner_id}, ${dataset.account_id}, ${dataset.source}, ${dataset.title}, ${dataset.status},
      ${dataset.target ?? null}, ${dataset.target_id ?? null}, ${sql.json(dataset.params as never)}, ${dataset.parent_id ?? null},
      ${dataset.expected_total ?? null}, ${sql.json((dataset.counts ?? {}) as never)}, ${sql.json((dataset.charges ?? {}) as never)},
      ${dataset.quota_day ?? null}, ${dataset.note ?? null}, ${dataset.error ?? null}, ${dataset.created_at}, ${dataset.created_at}, ${dataset.finished_at ?? null}, ${dataset.expires_at})`;
}

/** One of the owner's datasets that has not expired, or undefined. */
export async function ownedDataset(sql: Queryable, ownerId: number, id: string, now: Date): Promise<DatasetRow | undefined> {
  const [row] = await sql<DatasetRow[]>`
    select ${DATASET_COLUMNS(sql)} from datasets d where d.id = ${id} and d.owner_id = ${ownerId} and d.expires_at > ${now}`;
  return row;
}

/** A dataset by id whatever its owner (jobs), or undefined. */
export async function datasetById(sql: Queryable, id: string): Promise<DatasetRow | undefined> {
  const [row] = await sql<DatasetRow[]>`select ${DATASET_COLUMNS(sql)} from datasets d where d.id = ${id}`;
  return row;
}

/** A page of the owner's live datasets, newest first, and their total. */
export async function ownedDatasets(
  sql: Queryable,
  ownerId: number,
  now: Date,
  page: { limit: number; offset: number },
): Promise<{ rows: DatasetRow[]; total: number }> {
  const rows = await sql<DatasetRow[]>`
    select ${DATASET_COLUMNS(sql)} from datasets d
    where d.owner_id = ${ownerId} and d.expires_at > ${now}
    order by d.created_at desc, d.id desc limit ${page.limit} offset ${page.offset}`;
  const [{ total }] = await sql<{ total: number }[]>`
    select count(*)::int as total from datasets where owner_id = ${ownerId} and expires_at > ${now}`;
  return { rows, total };
}

/**
 * Appends rows after position `start` (1-based positions follow on from it in order). A row
 * whose key the dataset already holds is left as it was (a resumed walk rereads a page), so
 * positions may skip a number; order is what they promise. Answers how many were stored.
 */
export async function appendRows(sql: Queryable, datasetId: string, start: number, rows: readonly NewDatasetRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const values = rows.map((row, i) => {
    const record: Record<string, unknown> = { dataset_id: datasetId, position: start + i + 1, key: row.key };
    for (const column of ROW_COLUMNS) {
      const value = row[column] ?? null;
      record[column] = (column === "brief" || column === "hooks") && value !== null ? sql.json(value as never) : value;
    }
    return record;
  });
  const stored = await sql`
    insert into dataset_rows ${sql(values as never, "dataset_id", "position", "key", ...ROW_COLUMNS)}
    on conflict (dataset_id, key) do nothing returning 1`;
  return stored.length;
}

/** The highest position stored (0 when none): where the next batch starts. */
export async function lastPosition(sql: Queryable, datasetId: string): Promise<number> {
  const [{ last }] = await sql<{ last: number }[]>`select coalesce(max(position), 0)::int as last from dataset_rows where dataset_id = ${datasetId}`;
  return last;
}

/** A page of rows in order. */
export async function rowsPage(sql: Queryable, datasetId: string, page: { limit: number; offset: number }): Promise<StoredRow[]> {
  return sql<StoredRow[]>`
    select * from dataset_rows where dataset_id = ${datasetId} order by position limit ${page.limit} offset ${page.offset}`;
}

/** Rows after `afterPosition`, in order (keyset paging for walks over a whole dataset: export, refine, drafts). */
export async function rowsAfter(sql: Queryable, datasetId: string, afterPosition: number, limit: number): Promise<StoredRow[]> {
  return sql<StoredRow[]>`
    select * from dataset_rows where dataset_id = ${datasetId} and position > ${afterPosition} order by position limit ${limit}`;
}

/** Saves a background job's progress (rows so far, where to resume, counts so far). */
export async function saveProgress(
  sql: Queryable,
  id: string,
  progress: { rowsCollected: number; cursor: unknown; counts: Record<string, number>; now: Date },
): Promise<void> {
  await sql`
    update datasets set rows_collected = ${progress.rowsCollected}, cursor = ${sql.json(progress.cursor as never)},
      counts = ${sql.json(progress.counts as never)}, updated_at = ${progress.now}
    where id = ${id} and status = 'collecting'`;
}

/**
 * Ends a collecting dataset `ready` or `failed` (with its counts, note or error). Answers
 * false when it had already ended (another process finished it), so the caller settles once.
 */
export async function finishDataset(
  sql: Queryable,
  id: string,
  end: { status: "ready" | "failed"; counts?: Record<string, number>; note?: string | null; error?: string | null; now: Date },
): Promise<boolean> {
  const updated = await sql`
    update datasets set status = ${end.status}, counts = coalesce(${end.counts ? sql.json(end.counts as never) : null}::jsonb, counts),
      note = coalesce(${end.note ?? null}, note), error = ${end.error ?? null}, cursor = null,
      rows_collected = (select count(*) from dataset_rows r where r.dataset_id = ${id}),
      updated_at = ${end.now}, finished_at = ${end.now}
    where id = ${id} and status = 'collecting' returning 1`;
  return updated.length > 0;
}

/** Deletes a dataset (its rows go with it). */
export async function deleteDataset(sql: Queryable, id: string): Promise<void> {
  await sql`delete from datasets where id = ${id}`;
}
