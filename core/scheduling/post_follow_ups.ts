/**
 * The follow-ups of a sent post (supplement: Scheduling, `auto_retweet` and `auto_delete`):
 * `after_hours` after the post went out the account reposts it, and `remove_after_hours`
 * after that undoes the repost; `auto_delete` deletes every part of a post still under
 * `threshold` views (default 1000) `after_hours` after it went out. The publisher enqueues
 * them in the transaction that marks the post sent; each step is recorded on the post, so a
 * retried job never repeats it (the network's repost and delete are idempotent as well).
 * `auto_plug` checks the likes an hour after sending and hourly after that
 * (core/plug_templates/auto_plug_follow_up.ts), each check a job of its own.
 */
import type { Clock } from "../clock.ts";
import type { Queryable, Sql } from "../db/sql.ts";
import type { SocialNetwork } from "../network/social_network.ts";
import { NetworkNotFoundError } from "../network/network_errors.ts";
import { enqueueJob } from "../jobs/jobs_queries.ts";
import { DEFAULT_AUTO_DELETE_THRESHOLD } from "./post_view.ts";
import { postById } from "./scheduled_posts_queries.ts";
import { insertFollowUpJobs, markFollowUpDone } from "./follow_up_queries.ts";
import { AUTO_PLUG_CHECK_EVERY_HOURS, checkAutoPlug } from "../plug_templates/auto_plug_follow_up.ts";
import { HOUR_MS } from "../time/durations.ts";

/** The job kind of the follow-ups. */
export const FOLLOW_UP_JOB_KIND = "post_follow_up";

/** What a follow-up job does. */
export interface FollowUpPayload {
  postId: number;
  action: "repost" | "undo_repost" | "auto_delete" | "auto_plug";
  /** `auto_plug` only: which check this is (1, the armed one, when absent). */
  check?: number;
}

/**
 * Enqueues the follow-ups the settings of each of `postIds` ask for, counted from its
 * `sent_at`, once: the publisher calls this in the transaction that marks posts sent, and
 * whenever it finds a post sent by an earlier attempt (which may have died before), and a
 * follow-up enqueued before, finished or not, is not enqueued again. One statement; nothing
 * for a post without such settings.
 */
export async function armFollowUps(sql: Queryable, postIds: readonly number[]): Promise<void> {
  await insertFollowUpJobs(sql, postIds, { kind: FOLLOW_UP_JOB_KIND, autoPlugEveryHours: AUTO_PLUG_CHECK_EVERY_HOURS });
}

/** Runs one follow-up; a post deleted, unsent or already handled is left alone. */
export async function runFollowUp(deps: { sql: Sql; network: SocialNetwork; clock: Clock }, payload: FollowUpPayload): Promise<void> {
  const { sql, network } = deps;
  const now = new Date(deps.clock.now());
  const post = await postById(sql, payload.postId);
  const first = post?.x_post_ids?.[0];
  if (post?.status !== "sent" || !first || post.auto_deleted_at) return;
  if (payload.action === "repost") {
    if (post.auto_retweeted_at || !post.auto_retweet) return;
    await network.repost(post.account_id, first);
    await markFollowUpDone(sql, post.id, "auto_retweeted_at", now);
    const removeAfter = post.auto_retweet.remove_after_hours;
    if (removeAfter) {
      const payloadUndo: FollowUpPayload = { postId: post.id, action: "undo_repost" };
      await enqueueJob(sql, {
        kind: FOLLOW_UP_JOB_KIND,
        payload: payloadUndo,
        runAt: new Date(now.getTime() + removeAfter * HOUR_MS),
        uniqueKey: `follow-up:${post.id}:undo_repost`,
      });
    }
  } else if (payload.action === "undo_repost") {
    if (!post.auto_retweeted_at || post.auto_retweet_removed_at) return;
    await network.undoRepost(post.account_id, first);
    await markFollowUpDone(sql, post.id, "auto_retweet_removed_at", now);
  } else if (payload.action === "auto_plug") {
    const check = payload.check ?? 1;
    const outcome = await checkAutoPlug(deps, post, check);
    if (outcome.done) return;
    // Below the threshold: the next check is a job of its own, keyed by its number, so a
    // retry of this one never enqueues it twice.
    const next: FollowUpPayload = { postId: post.id, action: "auto_plug", check: outcome.check };
    await enqueueJob(sql, { kind: FOLLOW_UP_JOB_KIND, payload: next, runAt: outcome.runAt, uniqueKey: `follow-up:${post.id}:auto_plug:${outcome.check}` });
  } else {
    if (!post.auto_delete) return;
    const views = await viewsOf(network, first);
    if (views === undefined || views >= (post.auto_delete.threshold ?? DEFAULT_AUTO_DELETE_THRESHOLD)) return;
    for (const id of [...post.x_post_ids!].reverse()) await network.deletePost(post.account_id, id);
    await markFollowUpDone(sql, post.id, "auto_deleted_at", now);
  }
}

/** The post's views (impressions), or undefined when it is gone already. */
async function viewsOf(network: SocialNetwork, postId: string): Promise<number | undefined> {
  try {
    return (await network.postById(postId)).metrics.impressions;
  } catch (error) {
    if (error instanceof NetworkNotFoundError) return undefined;
    throw error;
  }
}
