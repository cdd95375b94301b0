/** `GET /v1/articles` (spec: Articles; supplement: Articles, C5). */
import type { AccountContext } from "../context.ts";
import { pageInfo } from "../schema.ts";
import { ARTICLE_FILTERS, type ListArticlesInput } from "./article_schema.ts";
import { toArticle } from "./article_view.ts";
import { listArticleRows } from "./article_writes_queries.ts";

/** A page of the account's articles (default: every status), most recently updated first. */
export async function listArticles(ctx: AccountContext, input: ListArticlesInput) {
  const { rows, total } = await listArticleRows(ctx.services.sql, {
    accountId: ctx.account.id,
    statuses: input.status?.length ? input.status : ARTICLE_FILTERS,
    limit: input.limit,
    offset: (input.page - 1) * input.limit,
  });
  return { data: rows.map(toArticle), pagination: pageInfo(input.page, input.limit, total, rows.length) };
}
