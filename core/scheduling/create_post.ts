/**
 * `POST /v1/scheduled-posts` (spec: Scheduling; supplement: Scheduling): saves a draft
 * (no `scheduled_for`), queues a post (a time 60 s to 18 months ahead, or `next_slot`:
 * the account's next free queue slot), or publishes now (`now`, with an `Idempotency-Key`).
 * Everything a create writes (the post, its tags, the media it attaches, the quota unit
 * and the publisher's job) commits in one transaction.
 */
import type { AccountContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { markMediaAttached } from "../media/attachable_media.ts";
import { nextFreeSlot } from "../queue/next_free_slot.ts";
import { commitPhase } from "../idempotency/record_phase.ts";
import { assertOnboarded, assertSchedulerReachable } from "./scheduling_gate.ts";
import { checkParts, checkScheduleTime, checkTags, partsOf } from "./post_content.ts";
import type { CreatePostInput } from "./scheduled_post_input_schema.ts";
import { deductPostQuota } from "../post_quota/post_quota.ts";
import { schedulePublication } from "./schedule_publication.ts";
import { recordPostEvent } from "./post_events.ts";
import { accountHasPremium, insertPost, setPostTags, updatePostColumns } from "./scheduled_posts_queries.ts";
import { readPost } from "./read_post.ts";
import { publishNowAndRead } from "./publish_now_request.ts";
import type { ScheduledPost } from "./scheduled_post_schema.ts";
import { checkPlugTemplate } from "../plug_templates/plug_templates.ts";
import { applyAutoDm } from "../dm/auto_dm.ts";

/** Creates a post; answers the Scheduled post (status `sent` when published now). */
export async function createPost(ctx: AccountContext, input: CreatePostInput): Promise<{ data: ScheduledPost }> {
  assertSchedulerReachable(ctx);
  assertOnboarded(ctx.principal);
  const { sql, clock } = ctx.services;
  const now = new Date(clock.now());
  const publishNow = input.scheduled_for === "now";
  if (publishNow) {
    if (!ctx.idempotency)
      throw new ApiError("invalid_parameter", 'Publishing now ("scheduled_for": "now") needs an Idempotency-Key header, so a retry never posts twice');
    if (input.title != null || input.scratchpad != null) {
      throw new ApiError("invalid_parameter", 'Invalid "title": a post published now has no draft fields ("title", "scratchpad")');
    }
    // A retry after a crash resumes the post the first attempt created (spec: Idempotency).
    const resumed = ctx.idempotency.phaseData.post_id;
    if (typeof resumed === "number") return { data: await publishNowAndRead(ctx, resumed) };
  }
  const parts = partsOf(input);
  if (!parts) throw new ApiError("invalid_parameter", 'Invalid "parts": a post needs "text" or "parts" with text or media');
  const premium = await accountHasPremium(sql, ctx.account.id);
  const objectKeys = await checkParts(ctx, sql, { workspaceId: ctx.account.workspaceId, xPremium: premium }, parts);
  const tagIds = await checkTags(sql, ctx.account.workspaceId, input.tags ?? []);
  await checkPlugTemplate(sql, ctx.account.workspaceId, input.auto_plug);

  let scheduledFor: Date | null = null;
  if (publishNow) scheduledFor = now;
  else if (input.scheduled_for === "next_slot") scheduledFor = await nextFreeSlot(sql, ctx.account.id, now);
  else if (input.scheduled_for !== undefined) {
    scheduledFor = new Date(input.scheduled_for);
    checkScheduleTime(scheduledFor, now);
  }
  const status = scheduledFor ? "scheduled" : "draft";

  let autoDmSkipped = false;
  const postId = await sql.begin(async (tx) => {
    const id = await insertPost(
      tx,
      ctx.account.id,
      {
        status,
        scheduled_for: scheduledFor,
        parts,
        title: input.title ?? null,
        scratchpad: input.scratchpad ?? null,
        auto_retweet: input.auto_retweet ?? null,
        auto_delete: input.auto_delete ?? null,
        auto_plug: input.auto_plug ?? null,
        super_followers_only: input.super_followers_only ?? false,
      },
      now,
    );
    await setPostTags(tx, id, tagIds);
    await markMediaAttached(tx, objectKeys, now);
    // A plan cap strips the auto DM and the post is still created (supplement: Scheduling).
    autoDmSkipped = (await applyAutoDm(tx, { id, accountId: ctx.account.id, now }, input.auto_dm)).skipped;
    if (status === "scheduled") {
      const charge = await deductPostQuota(tx, ctx.account.id, [`post:${id}`], { now, reason: publishNow ? "published now" : "scheduled" });
      await updatePostColumns(tx, id, { quota_period_start: charge.periodStart }, now);
      // Published now: the job is the safety net should this request die before publishing
      // (it runs after the idempotency lease, when a retry could have taken over).
      await schedulePublication(tx, [id], publishNow ? { runAt: new Date(now.getTime() + PUBLISH_NOW_FALLBACK_MS) } : {});
      await recordPostEvent(tx, "post.scheduled", id, now);
    }
    if (publishNow) await commitPhase(ctx, tx, "post_created", { post_id: id });
    return id;
  });
  const skipped = autoDmSkipped ? { auto_dm_skipped: true as const } : {};
  if (publishNow) return { data: { ...(await publishNowAndRead(ctx, postId)), ...skipped } };
  return { data: { ...(await readPost(sql, postId)), ...skipped } };
}

/** When the fallback job of a post published now runs (after the idempotency lease of 120 s). */
const PUBLISH_NOW_FALLBACK_MS = 150_000;
