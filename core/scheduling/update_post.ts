/**
 * `PATCH /v1/scheduled-posts/{id}` (spec: Scheduling, States; supplement: Scheduling):
 * only the fields sent change; `text`/`parts` replace every part, media included; `null`
 * clears `title`, `scratchpad` and the auto settings, `tags: []` clears the tags. A draft
 * becomes queued only through `status: "scheduled"` (a `scheduled_for` alone never promotes
 * it) and takes a quota unit; back to `draft` returns exactly that unit.
 */
import { recordPostEvent } from "./post_events.ts";
import type { KeyContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { markMediaAttached } from "../media/attachable_media.ts";
import { nextFreeSlot } from "../queue/next_free_slot.ts";
import { assertOnboarded, assertSchedulerReachable } from "./scheduling_gate.ts";
import { checkParts, checkScheduleTime, checkTags, partsOf } from "./post_content.ts";
import { deductPostQuota, refundPostQuota } from "../post_quota/post_quota.ts";
import { schedulePublication } from "./schedule_publication.ts";
import { accountHasPremium, type PostColumns, postById, publicationStarted, setPostTags, updatePostColumns } from "./scheduled_posts_queries.ts";
import { reachablePost } from "./post_access.ts";
import { readPost } from "./read_post.ts";
import type { UpdatePostInput } from "./scheduled_post_input_schema.ts";
import { checkPlugTemplate } from "../plug_templates/plug_templates.ts";
import { applyAutoDm } from "../dm/auto_dm.ts";

/** Changes a post the key can write. */
export async function updatePost(ctx: KeyContext, input: UpdatePostInput) {
  assertSchedulerReachable(ctx);
  const { sql, clock } = ctx.services;
  const now = new Date(clock.now());
  const id = Number(input.id);
  const { access } = await reachablePost(ctx, sql, id, { accountId: input.account_id, write: true });
  const parts = partsOf(input);
  const objectKeys = parts ? await checkParts(ctx, sql, { workspaceId: access.workspaceId, xPremium: await accountHasPremium(sql, access.id) }, parts) : [];
  const tagIds = input.tags === undefined ? undefined : await checkTags(sql, access.workspaceId, input.tags);
  await checkPlugTemplate(sql, access.workspaceId, input.auto_plug);
  if (input.status === "scheduled") assertOnboarded(ctx.principal);
  const slot = input.scheduled_for === "next_slot" ? await nextFreeSlot(sql, access.id, now) : undefined;

  let autoDmSkipped = false;
  await sql.begin(async (tx) => {
    const row = await postById(tx, id, { forUpdate: true });
    if (!row) throw new ApiError("not_found", `Cannot find scheduled post "${id}"`);
    if (row.status === "sent") throw new ApiError("invalid_request", `Scheduled post "${id}" was already sent and cannot be changed`);
    if (row.status === "scheduled" && (await publicationStarted(tx, id, row.publish_version))) {
      throw new ApiError("invalid_request", `Scheduled post "${id}" is being published and cannot be changed`);
    }
    const status = input.status ?? row.status;
    const time = slot ?? (input.scheduled_for === undefined ? row.scheduled_for : input.scheduled_for === null ? null : new Date(input.scheduled_for));
    const timeChanged = (time?.getTime() ?? null) !== (row.scheduled_for?.getTime() ?? null);
    const rearm = status === "scheduled" && (row.status !== "scheduled" || timeChanged);
    if (rearm) {
      if (!time) throw new ApiError("invalid_parameter", 'Invalid "scheduled_for": a scheduled post needs a time at least 60 seconds ahead');
      checkScheduleTime(time, now);
    }
    const columns: PostColumns = {
      status,
      scheduled_for: time,
      parts,
      title: input.title,
      scratchpad: input.scratchpad,
      auto_retweet: input.auto_retweet,
      auto_delete: input.auto_delete,
      auto_plug: input.auto_plug,
      super_followers_only: input.super_followers_only,
    };
    if (status !== "error") columns.error = null;
    const subject = [`post:${id}`];
    if (status === "scheduled" && row.quota_period_start === null) {
      columns.quota_period_start = (await deductPostQuota(tx, row.account_id, subject, { now, reason: "scheduled" })).periodStart;
    } else if (status !== "scheduled" && row.quota_period_start !== null) {
      await refundPostQuota(tx, row.account_id, { periodStart: row.quota_period_start }, subject, "unscheduled");
      columns.quota_period_start = null;
    }
    await updatePostColumns(tx, id, columns, now);
    if (tagIds !== undefined) await setPostTags(tx, id, tagIds);
    // `null` removes it and returns the month's slot; a plan cap strips a new one.
    autoDmSkipped = (await applyAutoDm(tx, { id, accountId: row.account_id, now }, input.auto_dm)).skipped;
    await markMediaAttached(tx, objectKeys, now);
    if (rearm) await schedulePublication(tx, [id]);
    // Queued, or queued at a new time (docs/webhooks.md: post.scheduled).
    if (rearm) await recordPostEvent(tx, "post.scheduled", id, now);
  });
  return { data: { ...(await readPost(sql, id)), ...(autoDmSkipped ? { auto_dm_skipped: true as const } : {}) } };
}
