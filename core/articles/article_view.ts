/** Turns a stored article into the Article record (spec: Article). */
import type { Article } from "./article_schema.ts";
import type { ArticleRow } from "./articles_queries.ts";

/** The record of `row`. */
export function toArticle(row: ArticleRow): Article {
  return {
    id: String(row.id),
    account_id: row.account_id,
    title: row.title,
    status: row.status,
    content_markdown: row.content_markdown,
    warnings: row.warnings,
    cover: row.cover_url ? { url: row.cover_url } : null,
    scheduled_for: row.scheduled_for?.toISOString() ?? null,
    published_at: row.published_at?.toISOString() ?? null,
    x_post_id: row.x_post_id,
    url: row.url,
    last_error: row.status === "published" ? null : row.last_error,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
