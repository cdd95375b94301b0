/**
 * Datasets for the dataset row, export, contacts and refine tests, written straight through
 * the shared dataset queries (collecting is another suite's subject), and a small RFC 4180
 * reader to check the CSV the export answers.
 */
import type { Queryable } from "../../core/db/sql.ts";
import { expiryOf, newDatasetId } from "../../core/datasets/dataset_access.ts";
import type { DatasetSource } from "../../core/datasets/dataset_schema.ts";
import { appendRows, datasetById, insertDataset, type NewDatasetRow } from "../../core/datasets/datasets_queries.ts";

/** The user id owning dataset `id` (the demo datasets are A's). */
export async function ownerOf(sql: Queryable, id: string): Promise<number> {
  const row = await datasetById(sql, id);
  if (!row) throw new Error(`No dataset ${id}`);
  return row.owner_id;
}

/** Stores a dataset with `rows` (status `ready` unless told); answers its id. */
export async function insertTestDataset(
  sql: Queryable,
  options: {
    ownerId: number;
    accountId: string;
    source?: DatasetSource;
    title?: string;
    rows?: NewDatasetRow[];
    status?: "ready" | "collecting" | "failed";
    quotaDay?: string | null;
    now?: Date;
  },
): Promise<string> {
  const id = newDatasetId();
  const now = options.now ?? new Date();
  await insertDataset(sql, {
    id,
    owner_id: options.ownerId,
    account_id: options.accountId,
    source: options.source ?? "repliers",
    title: options.title ?? "Test dataset",
    status: options.status ?? "ready",
    params: { max_rows: 1000 },
    quota_day: options.quotaDay ?? null,
    created_at: now,
    expires_at: expiryOf(now.getTime()),
    finished_at: options.status === "collecting" ? null : now,
  });
  await appendRows(sql, id, 0, options.rows ?? []);
  return id;
}

/** A replier row of person `n` with `text`. */
export function replierRow(n: number, text: string | null, extra: Partial<NewDatasetRow> = {}): NewDatasetRow {
  const xUserId = String(9_100_000_000 + n);
  return {
    key: extra.key ?? xUserId,
    x_user_id: xUserId,
    handle: `replier_${n}`,
    name: `Replier ${n}`,
    bio: `Bio of replier ${n}`,
    followers_count: n * 10,
    following_count: 5,
    verified: n % 2 === 0,
    can_dm: n % 3 === 0,
    post_id: String(8_100_000_000 + n),
    post_text: text,
    post_url: `https://x.com/replier_${n}/status/${8_100_000_000 + n}`,
    posted_at: new Date(Date.UTC(2026, 0, 1, 0, 0, n % 60)),
    likes: (n * 7) % 50,
    replies: 0,
    reposts: 0,
    quotes: 0,
    impressions: 100,
    ...extra,
  };
}

/** Sets the outreach draft of the row at `position`. */
export async function setMessage(sql: Queryable, datasetId: string, position: number, message: string): Promise<void> {
  await sql`update dataset_rows set message = ${message}, message_kind = 'generic', message_at = now() where dataset_id = ${datasetId} and position = ${position}`;
}

/** Parses CSV text (RFC 4180: quoted cells may hold commas, doubled quotes and line breaks). */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      record.push(cell);
      cell = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && text[i + 1] === "\n") i += 1;
      record.push(cell);
      records.push(record);
      record = [];
      cell = "";
    } else cell += char;
  }
  if (cell !== "" || record.length > 0) {
    record.push(cell);
    records.push(record);
  }
  return records;
}
