/**
 * The cover reads: polling a `202` cover request ("ask for an AI cover and poll until it
 * is attached": the tRPC query `covers.status`, and `latestCoverGeneration` for the
 * Article record of `GET /v1/articles/{id}`) and `GET /v1/cover-styles` (supplement
 * section 5: "saved cover styles with ids for `style_id`").
 */
import type { AccountContext, KeyContext } from "../context.ts";
import type { Queryable } from "../db/sql.ts";
import { pageInfo } from "../schema.ts";
import { reachableArticle } from "../articles/article_access.ts";
import { coverStylesOf, latestGenerationOf } from "./cover_queries.ts";
import type { CoverGeneration, CoverStatusInput, CoverStyle, ListCoverStylesInput } from "./cover_schema.ts";
import { generationView, styleView } from "./cover_view.ts";

/** The article's cover now and its latest generation (`404 not_found` for an article the key cannot reach). */
export async function readCoverStatus(ctx: KeyContext, input: CoverStatusInput) {
  const { sql } = ctx.services;
  const { row: article } = await reachableArticle(ctx, sql, Number(input.id), { accountId: input.account_id, write: false });
  return {
    data: {
      article_id: String(article.id),
      cover: article.cover_url ? { url: article.cover_url } : null,
      latest_generation: await latestCoverGeneration(sql, article.id),
    },
  };
}

/**
 * The article's latest cover generation, or null: the Article record shows it as
 * `cover_generation`, so a REST client polls `GET /v1/articles/{id}` after a cover request.
 */
export async function latestCoverGeneration(sql: Queryable, articleId: number): Promise<CoverGeneration | null> {
  const row = await latestGenerationOf(sql, articleId);
  return row ? generationView(row) : null;
}

/** The styles of the account's workspace, then the built-in ones. */
export async function listCoverStyles(
  ctx: AccountContext,
  input: ListCoverStylesInput,
): Promise<{ data: CoverStyle[]; pagination: ReturnType<typeof pageInfo> }> {
  const { rows, total } = await coverStylesOf(ctx.services.sql, ctx.account.workspaceId, { limit: input.limit, offset: (input.page - 1) * input.limit });
  return { data: rows.map(styleView), pagination: pageInfo(input.page, input.limit, total, rows.length) };
}
