/**
 * `POST /v1/articles/{id}/schedule` and `/unschedule` (spec: States (Article); supplement:
 * Articles). Scheduling a draft takes one post-quota unit (`403 post_quota_exceeded`) and
 * queues the publish job at the time; scheduling a scheduled article moves it (no second
 * unit). Unscheduling returns it to draft and refunds exactly the unit taken; anything but
 * a scheduled article answers `409 article_not_scheduled`.
 *
 * Both go through the scheduling service (`503 upstream_unavailable` when it is down, rule
 * 9), and scheduling needs a finished onboarding (`403 onboarding_required`), as scheduled
 * posts do; unscheduling does not, so a user can always take an article off the queue.
 */
import { recordArticleEvent } from "./article_events.ts";
import type { KeyContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { deductPostQuota, refundPostQuota } from "../post_quota/post_quota.ts";
import { assertOnboarded, assertSchedulerReachable } from "../scheduling/scheduling_gate.ts";
import { reachableArticle } from "./article_access.ts";
import { enqueueArticlePublication } from "./article_publication.ts";
import { assertEditable, assertHasBody, checkArticleTime, quotaSubject } from "./article_rules.ts";
import type { Article, ArticleByIdInput, ScheduleArticleInput } from "./article_schema.ts";
import { toArticle } from "./article_view.ts";
import { articleById, type ArticleRow } from "./articles_queries.ts";
import type { Queryable } from "../db/sql.ts";
import { updateArticleColumns } from "./article_writes_queries.ts";

/** Schedules (or reschedules) an article the key can write. */
export async function scheduleArticle(ctx: KeyContext, input: ScheduleArticleInput): Promise<{ data: Article }> {
  assertSchedulerReachable(ctx);
  assertOnboarded(ctx.principal);
  const { sql, clock } = ctx.services;
  const id = Number(input.id);
  const now = new Date(clock.now());
  const at = new Date(input.scheduled_for);
  await reachableArticle(ctx, sql, id, { accountId: input.account_id, write: true });
  checkArticleTime(at, now);
  const row = await sql.begin((tx) => scheduleLocked(tx, id, at, now));
  return { data: toArticle(row) };
}

/**
 * Schedules article `id` for `at` inside the caller's transaction (the endpoint, and the
 * demo world): locks it, takes the quota unit of a draft, queues the publish job.
 */
export async function scheduleLocked(tx: Queryable, id: number, at: Date, now: Date): Promise<ArticleRow> {
  const current = await articleById(tx, id, { forUpdate: true });
  if (!current) throw new ApiError("not_found", `Cannot find article "${id}"`);
  assertEditable(current);
  assertHasBody(current);
  // "post quota deducted" once: a reschedule keeps the unit the first schedule took.
  const quotaPeriodStart =
    current.quota_period_start ?? (await deductPostQuota(tx, current.account_id, [quotaSubject(id)], { now, reason: "article scheduled" })).periodStart;
  const updated = await updateArticleColumns(
    tx,
    id,
    { status: "scheduled", scheduled_for: at, quota_period_start: quotaPeriodStart, last_error: null },
    { now, bumpVersion: true },
  );
  await enqueueArticlePublication(tx, { articleId: id, version: updated.publish_version }, at);
  await recordArticleEvent(tx, "article.scheduled", updated, now);
  return updated;
}

/** Returns a scheduled article to draft and refunds its unit. */
export async function unscheduleArticle(ctx: KeyContext, input: ArticleByIdInput): Promise<{ data: Article }> {
  assertSchedulerReachable(ctx);
  const { sql, clock } = ctx.services;
  const id = Number(input.id);
  await reachableArticle(ctx, sql, id, { accountId: input.account_id, write: true });
  const row = await sql.begin(async (tx) => {
    const current = await articleById(tx, id, { forUpdate: true });
    if (!current) throw new ApiError("not_found", `Cannot find article "${id}"`);
    if (current.status !== "scheduled") {
      throw new ApiError("article_not_scheduled", `Article "${id}" is not scheduled (it is ${current.status})`);
    }
    if (current.quota_period_start) {
      await refundPostQuota(tx, current.account_id, { periodStart: current.quota_period_start }, [quotaSubject(id)], "article unscheduled");
    }
    // The version bump makes the queued publish job stale.
    return updateArticleColumns(tx, id, { status: "draft", scheduled_for: null, quota_period_start: null }, { now: new Date(clock.now()), bumpVersion: true });
  });
  return { data: toArticle(row) };
}
