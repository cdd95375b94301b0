/**
 * A stored dataset as the API shows it (`Dataset` in the OpenAPI document), with the one
 * coverage sentence every read, create and job answer shares.
 */
import { type Dataset, PEOPLE_SOURCES } from "./dataset_schema.ts";
import type { DatasetRow } from "./datasets_queries.ts";

const WHAT: Record<Dataset["source"], string> = {
  repliers: "people who replied to the post",
  quoters: "people who quoted the post",
  reposters: "people who reposted the post",
  list_members: "members of the list",
  my_posts: "of your posts",
  my_replies: "of your replies",
  research: "profiles researched",
};

/** The API view of `row`. */
export function datasetView(row: DatasetRow): Dataset {
  const filters = (row.params.filters ?? null) as Dataset["filters"];
  return {
    id: row.id,
    title: row.title,
    source: row.source,
    status: row.status,
    account_id: row.account_id,
    target: row.target,
    row_count: row.row_count,
    rows_collected: row.status === "collecting" ? row.rows_collected : row.row_count,
    expected_total: row.expected_total,
    max_rows: row.params.max_rows,
    counts: row.counts,
    coverage: coverageOf(row),
    has_people: PEOPLE_SOURCES.includes(row.source),
    has_messages: row.has_messages,
    filters,
    focus: row.params.focus ?? null,
    refined_from: row.params.criterion ? row.parent_id : null,
    criterion: row.params.criterion ?? null,
    note: row.note,
    error: row.error,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
    expires_at: row.expires_at.toISOString(),
  };
}

/**
 * One sentence on what the rows cover: `412 people who replied to the post (of about 800;
 * filters applied; capped at 500).` While collecting it reports progress instead.
 */
export function coverageOf(row: DatasetRow): string {
  const what = WHAT[row.source];
  if (row.status === "collecting") {
    const of = row.expected_total === null ? "" : ` of about ${row.expected_total.toLocaleString("en-US")}`;
    return `Collecting: ${row.rows_collected.toLocaleString("en-US")}${of} ${what} so far.`;
  }
  if (row.status === "failed") return `Failed after ${row.row_count.toLocaleString("en-US")} ${what}.`;
  const parts: string[] = [];
  if (row.expected_total !== null && row.expected_total !== row.row_count) parts.push(`of about ${row.expected_total.toLocaleString("en-US")}`);
  if (row.params.filters && Object.keys(row.params.filters).length > 0) parts.push("filters applied");
  if (row.params.criterion) parts.push(`refined by "${row.params.criterion}"`);
  // Capped only when the walk stopped at max_rows with more left to read.
  const read = row.counts.scanned ?? row.row_count;
  if (row.row_count >= row.params.max_rows && row.expected_total !== null && row.expected_total > read) {
    parts.push(`capped at ${row.params.max_rows.toLocaleString("en-US")}`);
  }
  const tail = parts.length > 0 ? ` (${parts.join("; ")})` : "";
  return `${row.row_count.toLocaleString("en-US")} ${what}${tail}.`;
}
