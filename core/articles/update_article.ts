/**
 * `PATCH /v1/articles/{id}` (supplement: Articles): only the fields sent change;
 * `content_markdown` replaces the body (normalised, `warnings` renewed), `cover_url: null`
 * removes the cover. A published article answers `409 article_not_editable`.
 */
import type { KeyContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { reachableArticle } from "./article_access.ts";
import { assertEditable } from "./article_rules.ts";
import { toArticle } from "./article_view.ts";
import type { Article, UpdateArticleInput } from "./article_schema.ts";
import { articleById } from "./articles_queries.ts";
import { type ArticleColumns, updateArticleColumns } from "./article_writes_queries.ts";
import { normalizeArticleMarkdown } from "./markdown_normalize.ts";

/** Changes an article the key can write. */
export async function updateArticle(ctx: KeyContext, input: UpdateArticleInput): Promise<{ data: Article }> {
  const { sql, clock } = ctx.services;
  const id = Number(input.id);
  await reachableArticle(ctx, sql, id, { accountId: input.account_id, write: true });
  const columns: ArticleColumns = {};
  if (input.title !== undefined) columns.title = input.title.trim();
  if (input.content_markdown !== undefined) {
    const body = normalizeArticleMarkdown(input.content_markdown);
    columns.content_markdown = body.markdown;
    columns.warnings = body.warnings;
  }
  // A URL replaces the cover (it is no longer one of the workspace's media objects).
  if (input.cover_url !== undefined) Object.assign(columns, { cover_url: input.cover_url, cover_object_key: null });
  const row = await sql.begin(async (tx) => {
    const current = await articleById(tx, id, { forUpdate: true });
    if (!current) throw new ApiError("not_found", `Cannot find article "${id}"`);
    assertEditable(current);
    return updateArticleColumns(tx, id, columns, { now: new Date(clock.now()) });
  });
  return { data: toArticle(row) };
}
