/** The rules every article write shares (spec: States (Article), Errors; supplement: Articles). */
import { ApiError } from "../errors.ts";
import { MAX_SCHEDULE_MONTHS, SCHEDULE_LEAD_MS } from "./article_schema.ts";
import type { ArticleRow } from "./articles_queries.ts";

/**
 * Refuses changing an article that is published ("published | publish or edit |
 * article_not_editable") or being published (its outcome is not settled yet).
 */
export function assertEditable(row: ArticleRow): void {
  if (row.status === "published") throw new ApiError("article_not_editable", `Article "${row.id}" is published and cannot be changed`);
  if (row.status === "publishing") {
    throw new ApiError(
      "article_not_editable",
      `Article "${row.id}" is being published and cannot be changed until the publication is settled; read it again shortly`,
    );
  }
}

/** Refuses publishing or scheduling an article without a body (supplement: publish "needs title and some content"). */
export function assertHasBody(row: ArticleRow): void {
  if (row.content_markdown.trim() === "") {
    throw new ApiError("invalid_parameter", `Invalid "content_markdown": article "${row.id}" needs a body before it is published`);
  }
}

/** Refuses a time not more than 2 minutes ahead (spec: Constants) or more than 18 months ahead. */
export function checkArticleTime(at: Date, now: Date): void {
  // "time more than 2 minutes ahead": exactly 2 minutes is refused.
  if (at.getTime() <= now.getTime() + SCHEDULE_LEAD_MS) {
    throw new ApiError("invalid_parameter", 'Invalid "scheduled_for": must be more than 2 minutes ahead');
  }
  const latest = new Date(now);
  latest.setUTCMonth(latest.getUTCMonth() + MAX_SCHEDULE_MONTHS);
  if (at > latest) throw new ApiError("invalid_parameter", `Invalid "scheduled_for": must be at most ${MAX_SCHEDULE_MONTHS} months ahead`);
}

/** The subject of an article's quota unit in the ledger. */
export function quotaSubject(id: number): string {
  return `article:${id}`;
}
