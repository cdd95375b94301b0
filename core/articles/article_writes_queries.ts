/** SQL of article writes and the list (migrations 0013 and 0016). */
import type { Queryable } from "../db/sql.ts";
import type { ArticleRow } from "./articles_queries.ts";

/** Columns a write may set; undefined leaves a column as it is. */
export interface ArticleColumns {
  status?: ArticleRow["status"];
  title?: string;
  content_markdown?: string;
  warnings?: string[];
  cover_url?: string | null;
  cover_object_key?: string | null;
  scheduled_for?: Date | null;
  quota_period_start?: Date | null;
  last_error?: string | null;
}

function columnValues(sql: Queryable, columns: ArticleColumns): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(columns)) {
    if (value === undefined) continue;
    values[name] = name === "warnings" ? sql.json(value as never) : value;
  }
  return values;
}

/** Inserts a draft; answers its row. */
export async function insertArticle(sql: Queryable, accountId: string, columns: ArticleColumns & { title: string }, now: Date): Promise<ArticleRow> {
  const values = { account_id: accountId, ...columnValues(sql, columns), created_at: now, updated_at: now };
  const [row] = await sql<ArticleRow[]>`insert into articles ${sql(values)} returning *`;
  return row;
}

/** Changes the given columns (and `updated_at`); `bumpVersion` makes a queued publish job stale. */
export async function updateArticleColumns(
  sql: Queryable,
  id: number,
  columns: ArticleColumns,
  options: { now: Date; bumpVersion?: boolean },
): Promise<ArticleRow> {
  const values = { ...columnValues(sql, columns), updated_at: options.now };
  const [row] = await sql<ArticleRow[]>`
    update articles set ${sql(values)} ${options.bumpVersion ? sql`, publish_version = publish_version + 1` : sql``}
     where id = ${id} returning *`;
  return row;
}

/** Deletes an article row. */
export async function deleteArticleRow(sql: Queryable, id: number): Promise<void> {
  await sql`delete from articles where id = ${id}`;
}

/** The list filter: list statuses as the API names them (supplement C5). */
export interface ArticleFilter {
  accountId: string;
  statuses: readonly string[];
  limit: number;
  offset: number;
}

/**
 * A page of an account's articles, most recently updated first, with the total. `failed`
 * names drafts whose last publication failed (they carry `last_error`); the other values
 * are stored statuses.
 */
export async function listArticleRows(sql: Queryable, filter: ArticleFilter): Promise<{ rows: ArticleRow[]; total: number }> {
  const stored = filter.statuses.filter((status) => status !== "failed");
  const failed = filter.statuses.includes("failed");
  const rows = await sql<(ArticleRow & { total: number })[]>`
    select *, count(*) over ()::int as total from articles
     where account_id = ${filter.accountId}
       and (status = any(${sql.array(stored as string[])}::text[])
            ${failed ? sql`or (status = 'draft' and last_error is not null)` : sql``})
     order by updated_at desc, id desc
     limit ${filter.limit} offset ${filter.offset}`;
  const total = rows[0]?.total ?? (filter.offset > 0 ? await countArticles(sql, filter, stored, failed) : 0);
  return { rows, total };
}

/** The total when the page is past the end (no row carried it). */
async function countArticles(sql: Queryable, filter: ArticleFilter, stored: readonly string[], failed: boolean): Promise<number> {
  const [row] = await sql<{ total: number }[]>`
    select count(*)::int as total from articles
     where account_id = ${filter.accountId}
       and (status = any(${sql.array(stored as string[])}::text[])
            ${failed ? sql`or (status = 'draft' and last_error is not null)` : sql``})`;
  return row.total;
}

/** The oldest article of `accountId` titled `title` in one of `statuses` (the demo world finds its own by title). */
export async function articleIdByTitle(sql: Queryable, accountId: string, title: string, statuses: readonly string[]): Promise<number | undefined> {
  const [row] = await sql<{ id: number }[]>`
    select id from articles
     where account_id = ${accountId} and title = ${title} and status = any(${sql.array(statuses as string[])}::text[])
     order by id limit 1`;
  return row?.id;
}
