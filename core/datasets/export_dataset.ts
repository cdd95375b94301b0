/**
 * `GET /v1/datasets/{id}/export?format=csv` (docs/areas.md "Datasets"; supplement: Datasets export and
 * section 1, "Filename comes from `Content-Disposition` matched as `filename="..."`"): a ready
 * dataset as a CSV file named `superx-dataset-<title-slug>-<YYYY-MM-DD>.csv` (the export's UTC
 * day). Columns follow the source: people columns for people, post columns for rows that came
 * from a post, the research brief flattened for research, and `message` once any row is
 * drafted. Rows are read in keyset batches as the file is written, so memory stays flat.
 */
import type { KeyContext } from "../context.ts";
import type { FileCell, FileDownload } from "../file_download.ts";
import { findDataset, requireReady } from "./dataset_access.ts";
import type { ExportDatasetInput } from "./dataset_rows_schema.ts";
import type { DatasetSource } from "./dataset_schema.ts";
import type { DatasetRow, StoredRow } from "./datasets_queries.ts";
import { walkRows } from "./row_walk.ts";

type Cell = (row: StoredRow) => FileCell;

const PERSON: Record<string, Cell> = {
  x_user_id: (row) => row.x_user_id,
  handle: (row) => row.handle,
  name: (row) => row.name,
  bio: (row) => row.bio,
  location: (row) => row.location,
  website: (row) => row.website,
  followers_count: (row) => row.followers_count,
  following_count: (row) => row.following_count,
  verified: (row) => row.verified,
  can_dm: (row) => row.can_dm,
  avatar_url: (row) => row.avatar_url,
};

const POST: Record<string, Cell> = {
  post_id: (row) => row.post_id,
  post_text: (row) => row.post_text,
  post_url: (row) => row.post_url,
  posted_at: (row) => row.posted_at?.toISOString() ?? null,
  likes: (row) => row.likes,
  replies: (row) => row.replies,
  reposts: (row) => row.reposts,
  quotes: (row) => row.quotes,
  impressions: (row) => row.impressions,
};

// A brief's lists joined with "; ", hooks one per line (a quoted cell keeps line breaks).
const RESEARCH: Record<string, Cell> = {
  summary: (row) => row.brief?.summary ?? null,
  topics: (row) => row.brief?.topics.join("; ") ?? null,
  tone: (row) => row.brief?.tone ?? null,
  recent_themes: (row) => row.brief?.recent_themes.join("; ") ?? null,
  hooks: (row) => row.hooks?.map((hook) => hook.quote).join("\n") ?? null,
  hook_urls: (row) => row.hooks?.map((hook) => hook.post_url).join("\n") ?? null,
};

const MESSAGE: Record<string, Cell> = { message: (row) => row.message };

const BY_SOURCE: Record<DatasetSource, Record<string, Cell>[]> = {
  repliers: [PERSON, POST],
  quoters: [PERSON, POST],
  reposters: [PERSON],
  list_members: [PERSON],
  my_posts: [POST],
  my_replies: [POST],
  research: [PERSON, RESEARCH],
};

/** The columns of `dataset`'s CSV and how each reads a row. */
export function exportColumns(dataset: Pick<DatasetRow, "source" | "has_messages">): [string, Cell][] {
  const groups = dataset.has_messages ? [...BY_SOURCE[dataset.source], MESSAGE] : BY_SOURCE[dataset.source];
  return groups.flatMap((group) => Object.entries(group));
}

/** `superx-dataset-<title-slug>-<YYYY-MM-DD>.csv`: ASCII letters and digits of the title, at most 60 (the id when none). */
export function exportFilename(dataset: Pick<DatasetRow, "id" | "title">, nowMs: number): string {
  const slug =
    dataset.title
      .normalize("NFKD")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60)
      .replace(/-+$/, "") || dataset.id;
  return `superx-dataset-${slug}-${new Date(nowMs).toISOString().slice(0, 10)}.csv`;
}

/** The CSV download of a ready dataset of the caller. */
export async function exportDataset(ctx: KeyContext, input: ExportDatasetInput): Promise<FileDownload> {
  const dataset = requireReady(await findDataset(ctx, input.id));
  const columns = exportColumns(dataset);
  const { sql } = ctx.services;
  return {
    filename: exportFilename(dataset, ctx.services.clock.now()),
    columns: columns.map(([name]) => name),
    records: async function* () {
      for await (const row of walkRows(sql, dataset.id)) yield columns.map(([, cell]) => cell(row));
    },
  };
}
