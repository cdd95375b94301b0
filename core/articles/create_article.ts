/**
 * `POST /v1/articles` (supplement: Articles): saves a draft from a title (1-300 characters)
 * and an optional Markdown body, normalised to what X articles hold (conversion problems in
 * `warnings`). Nothing reaches the network or the quota until it is scheduled or published.
 */
import type { AccountContext } from "../context.ts";
import { toArticle } from "./article_view.ts";
import type { Article, CreateArticleInput } from "./article_schema.ts";
import { insertArticle } from "./article_writes_queries.ts";
import { normalizeArticleMarkdown } from "./markdown_normalize.ts";

/** Creates a draft on the selected account. */
export async function createArticle(ctx: AccountContext, input: CreateArticleInput): Promise<{ data: Article }> {
  const { sql, clock } = ctx.services;
  const body = normalizeArticleMarkdown(input.content_markdown ?? "");
  const row = await insertArticle(
    sql,
    ctx.account.id,
    { title: input.title.trim(), content_markdown: body.markdown, warnings: body.warnings },
    new Date(clock.now()),
  );
  return { data: toArticle(row) };
}
