/**
 * Auto DMs on scheduled posts (docs/areas.md "DM campaigns and auto DM"; supplement: Scheduling, auto DM): the
 * setting is attached on create and PATCH; a post holds one of the month's
 * `posts_with_auto_dm` slots (spec DM limits) from the month it was attached; when the plan
 * has no DMs or the month's slots are taken, the setting is stripped and the post is still
 * saved, answering `auto_dm_skipped: true`; `null` removes it and returns the slot.
 */
import type { Queryable } from "../db/sql.ts";
import type { AutoDmInput } from "./auto_dm_schema.ts";
import { autoDmOfPost, countSlots, deleteAutoDm, upsertAutoDm } from "./auto_dm_queries.ts";
import { lockDmAccount } from "./dm_queries.ts";
import { dmAllowanceOf, monthStartOf } from "./dm_limits.ts";

/** What attaching came to: `skipped` when a plan cap stripped the setting. */
export interface AutoDmOutcome {
  skipped: boolean;
}

/**
 * Applies a post's `auto_dm` inside the post write's transaction: undefined leaves it, null
 * removes it, an object attaches or changes it (a change keeps the slot it holds).
 */
export async function applyAutoDm(
  tx: Queryable,
  post: { id: number; accountId: string; now: Date },
  setting: AutoDmInput | null | undefined,
): Promise<AutoDmOutcome> {
  if (setting === undefined) return { skipped: false };
  if (setting === null) {
    await deleteAutoDm(tx, post.id);
    return { skipped: false };
  }
  const row = {
    post_id: post.id,
    account_id: post.accountId,
    message: setting.message,
    triggers: setting.triggers,
    max: setting.max,
    batch_mode: setting.batch_mode,
    enabled: setting.enabled,
  };
  const existing = await autoDmOfPost(tx, post.id);
  if (existing) {
    await upsertAutoDm(tx, { ...row, slot_month: existing.slot_month });
    return { skipped: false };
  }
  const allowance = await dmAllowanceOf(tx, post.accountId);
  if (!allowance) return { skipped: true };
  // Under the account's DM lock, so two posts never take the month's last slot together.
  await lockDmAccount(tx, post.accountId);
  const month = monthStartOf(post.now.getTime());
  if ((await countSlots(tx, post.accountId, month)) >= allowance.postsWithAutoDm) return { skipped: true };
  await upsertAutoDm(tx, { ...row, slot_month: month });
  return { skipped: false };
}
