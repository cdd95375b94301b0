/** `GET /v1/articles` and `GET /v1/articles/{id}` (spec: Articles; supplement: Articles, C5). */
import { latestCoverGeneration } from "../covers/cover_reads.ts";
import type { AccountContext, KeyContext } from "../context.ts";
import { pageInfo } from "../schema.ts";
import { reachableArticle } from "./article_access.ts";
import { ARTICLE_FILTERS, type ArticleByIdInput, type ListArticlesInput } from "./article_schema.ts";
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

/** One article the key can read, body included. */
export async function getArticle(ctx: KeyContext, input: ArticleByIdInput) {
  // The generation is read before the article: a cover job commits `done` and the attached
  // cover together, so a `done` read first always meets its cover in the article read after
  // (read the other way round, a commit in between showed `done` without the cover).
  const generation = await latestCoverGeneration(ctx.services.sql, Number(input.id));
  const { row } = await reachableArticle(ctx, ctx.services.sql, Number(input.id), { accountId: input.account_id, write: false });
  return { data: { ...toArticle(row), cover_generation: generation } };
}
