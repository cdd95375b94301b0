/**
 * `GET /v1/articles/{id}`: the Article record with its latest AI cover generation (spec:
 * Articles; supplement: Articles, C5), so a client polls one URL after `POST .../cover`.
 * It lives with the covers, which extend the article: articles know nothing of covers.
 */
import type { KeyContext } from "../context.ts";
import { reachableArticle } from "../articles/article_access.ts";
import { article, type ArticleByIdInput } from "../articles/article_schema.ts";
import { toArticle } from "../articles/article_view.ts";
import { latestCoverGeneration } from "./cover_reads.ts";
import { coverGeneration } from "./cover_schema.ts";

/** `GET /v1/articles/{id}` adds the latest AI cover generation, so a client polls one URL after `POST .../cover`. */
export const articleWithCover = article.extend({
  cover_generation: coverGeneration
    .nullable()
    .meta({ description: "The latest AI cover request (`queued`, `running`, `done`, `failed`, `timed_out`), or null" }),
});

/** One article the key can read, body included. */
export async function getArticle(ctx: KeyContext, input: ArticleByIdInput) {
  // The generation is read before the article: a cover job commits `done` and the attached
  // cover together, so a `done` read first always meets its cover in the article read after
  // (read the other way round, a commit in between showed `done` without the cover).
  const generation = await latestCoverGeneration(ctx.services.sql, Number(input.id));
  const { row } = await reachableArticle(ctx, ctx.services.sql, Number(input.id), { accountId: input.account_id, write: false });
  return { data: { ...toArticle(row), cover_generation: generation } };
}
