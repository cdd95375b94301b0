/**
 * Events about articles (docs/webhooks.md): `article.scheduled`, `article.published`,
 * `article.publish_failed`, each with the Article record as `GET /v1/articles` lists it and
 * the schedule and publish endpoints answer it, recorded in the transaction that made the
 * change. The one-article read adds `cover_generation`, left out here: a generation's
 * changes are the `cover.*` events' (test/event_emitters.test.ts compares both reads).
 */
import type { Queryable } from "../db/sql.ts";
import { toArticle } from "./article_view.ts";
import { articleById, type ArticleRow } from "./articles_queries.ts";
import { recordEvent } from "../events/record_event.ts";

/** An article event type. */
export type ArticleEventType = "article.scheduled" | "article.published" | "article.publish_failed";

/** Records `type` for `row` (the article as the change left it) in `tx`. */
export async function recordArticleEvent(tx: Queryable, type: ArticleEventType, row: ArticleRow, now: Date): Promise<void> {
  await recordEvent(tx, { accountId: row.account_id, type, objectType: "article", objectId: row.id, data: toArticle(row), now });
}

/** Records `type` for article `id`, read in `tx` after the change (nothing when it is gone). */
export async function recordArticleEventById(tx: Queryable, type: ArticleEventType, id: number, now: Date): Promise<void> {
  const row = await articleById(tx, id);
  if (row) await recordArticleEvent(tx, type, row, now);
}
