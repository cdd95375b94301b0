/**
 * `DELETE /v1/articles/{id}`: removes the article; a scheduled one gives back exactly the
 * quota unit it took (spec: "Deleting a scheduled article refunds its quota"). A published
 * article's record goes, its unit stays spent and the network keeps the article; one being
 * published cannot be deleted until its outcome is settled (`409 article_not_editable`).
 */
import type { KeyContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { refundPostQuota } from "../post_quota/post_quota.ts";
import { assertSchedulerReachable } from "../scheduling/scheduling_gate.ts";
import { reachableArticle } from "./article_access.ts";
import type { ArticleByIdInput } from "./article_schema.ts";
import { quotaSubject } from "./article_rules.ts";
import { articleById } from "./articles_queries.ts";
import { deleteArticleRow } from "./article_writes_queries.ts";

/** Deletes an article the key can write; answers `{ id, deleted: true }`. */
export async function deleteArticle(ctx: KeyContext, input: ArticleByIdInput) {
  const { sql } = ctx.services;
  const id = Number(input.id);
  const { row } = await reachableArticle(ctx, sql, id, { accountId: input.account_id, write: true });
  // Taking a scheduled article off the queue goes through the scheduling service (rule 9).
  if (row.status === "scheduled") assertSchedulerReachable(ctx);
  await sql.begin(async (tx) => {
    const current = await articleById(tx, id, { forUpdate: true });
    if (!current) throw new ApiError("not_found", `Cannot find article "${id}"`);
    if (current.status === "publishing") {
      throw new ApiError("article_not_editable", `Article "${id}" is being published and cannot be deleted until the publication is settled`);
    }
    if (current.status === "scheduled" && current.quota_period_start) {
      await refundPostQuota(tx, current.account_id, { periodStart: current.quota_period_start }, [quotaSubject(id)], "article deleted");
    }
    await deleteArticleRow(tx, id);
  });
  return { data: { id: input.id, deleted: true as const } };
}
