/**
 * `POST /v1/workers/suggestions/{id}/draft` and `.../schedule` (spec: States, Worker
 * suggestion; supplement: Workers): the suggestion becomes a post visible on
 * `GET /v1/scheduled-posts` (rule 7), through the same steps as a post create (content
 * rules, the post quota, the publisher's job), in one transaction with the suggestion's
 * new state. A suggestion saves once: a second save, or a save after dismiss, answers
 * `400 invalid_request` (supplement: "is a 400"; the code is not shown, and the request
 * is well-formed but refused, as the scheduling service refuses a payload).
 * No AI credits (supplement 3.3).
 */
import { recordPostsScheduled } from "../scheduling/post_events.ts";
import type { KeyContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { assertOnboarded, assertSchedulerReachable } from "../scheduling/scheduling_gate.ts";
import { checkParts, checkScheduleTime } from "../scheduling/post_content.ts";
import { deductPostQuota } from "../post_quota/post_quota.ts";
import { schedulePublication } from "../scheduling/schedule_publication.ts";
import { accountHasPremium, insertPost, type StoredPart, updatePostColumns } from "../scheduling/scheduled_posts_queries.ts";
import type { SaveSuggestionInput, WorkerSuggestion } from "./worker_schema.ts";
import { toSuggestion } from "./worker_view.ts";
import { markSaved, suggestionById, type SuggestionRow } from "./workers_queries.ts";
import { reachableSuggestion, suggestionNotFound } from "./suggestion_access.ts";

/** Saves suggestion `id` as a draft (no `scheduled_for`) or a scheduled post; answers the suggestion with its `post_id`. */
export async function saveSuggestion(ctx: KeyContext, input: SaveSuggestionInput): Promise<{ data: WorkerSuggestion }> {
  const { sql, clock } = ctx.services;
  const now = new Date(clock.now());
  const { row, access } = await reachableSuggestion(ctx, input.id, { accountId: input.account_id, write: true });
  // Saving writes a scheduled post: the scheduling service's gates apply as on a create.
  assertSchedulerReachable(ctx);
  assertOnboarded(ctx.principal);
  assertUnsaved(row);
  const scheduledFor = input.scheduled_for === undefined ? null : new Date(input.scheduled_for);
  if (scheduledFor) checkScheduleTime(scheduledFor, now);
  const parts: StoredPart[] = [{ text: row.text, media: [] }];
  await checkParts(ctx, sql, { workspaceId: access.workspaceId, xPremium: await accountHasPremium(sql, row.account_id) }, parts);

  const saved = await sql.begin(async (tx) => {
    const locked = await suggestionById(tx, row.id, { forUpdate: true });
    if (!locked) throw suggestionNotFound(row.id);
    // Checked again under the lock: two saves racing must not both write a post.
    assertUnsaved(locked);
    // Supplement: "The post does not inherit Default Post Settings": no auto retweet,
    // auto delete, plug or DM settings are copied onto it.
    const postId = await insertPost(tx, row.account_id, { status: scheduledFor ? "scheduled" : "draft", scheduled_for: scheduledFor, parts }, now);
    if (scheduledFor) {
      const charge = await deductPostQuota(tx, row.account_id, [`post:${postId}`], { now, reason: "scheduled from a Worker suggestion" });
      await updatePostColumns(tx, postId, { quota_period_start: charge.periodStart }, now);
      await schedulePublication(tx, [postId]);
      await recordPostsScheduled(tx, [postId], now);
    }
    return markSaved(tx, row.id, scheduledFor ? "scheduled" : "drafted", postId, now);
  });
  return { data: toSuggestion(saved) };
}

/** Refuses a suggestion that was already saved or dismissed (supplement: "a suggestion saves once"). */
function assertUnsaved(row: SuggestionRow): void {
  if (row.status === "to_review") return;
  const done = row.status === "dismissed" ? "was dismissed" : `was already saved (status "${row.status}", post "${row.post_id ?? "deleted"}")`;
  throw new ApiError("invalid_request", `Suggestion "${row.id}" ${done}; a suggestion saves once`);
}
