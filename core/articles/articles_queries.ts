/** SQL of articles (migration 0013). */
import type { Queryable } from "../db/sql.ts";

/** An articles row. */
export interface ArticleRow {
  id: number;
  account_id: string;
  status: "draft" | "scheduled" | "publishing" | "published";
  title: string;
  content_markdown: string;
  warnings: string[];
  cover_object_key: string | null;
  cover_url: string | null;
  scheduled_for: Date | null;
  quota_period_start: Date | null;
  publish_version: number;
  publish_token: string | null;
  x_post_id: string | null;
  x_article_id: string | null;
  url: string | null;
  published_at: Date | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
  /** Migration 0016: the publisher's claim (article_publish_queries.ts). */
  publish_claimed_by: string | null;
  publish_claimed_until: Date | null;
  publish_attempts: number;
  publish_outcome_unknown: boolean;
}

/** One article by id, or undefined; `forUpdate` locks it for the transaction. */
export async function articleById(sql: Queryable, id: number, options: { forUpdate?: boolean } = {}): Promise<ArticleRow | undefined> {
  const [row] = await sql<ArticleRow[]>`select * from articles where id = ${id} ${options.forUpdate ? sql`for update` : sql``}`;
  return row;
}
