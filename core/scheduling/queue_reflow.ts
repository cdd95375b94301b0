/**
 * Applying a reflow (core/queue/reflow_plan.ts plans it): the queued posts on old slot
 * times move to the new ones in the caller's transaction, get a fresh publish job at their
 * new time and a post.scheduled event.
 */
import type { Queryable } from "../db/sql.ts";
import { leadWindow } from "../queue/lead_window.ts";
import { lockQueuedPosts, moveQueuedPosts, queuedPostsFrom, type QueuedPostRow } from "../queue/queue_queries.ts";
import { MAX_REFLOW_POSTS, planReflow } from "../queue/reflow_plan.ts";
import type { QueueSlot, ReflowOutcome } from "../queue/queue_settings_schema.ts";
import { recordPostsScheduled } from "./post_events.ts";
import { schedulePublication } from "./schedule_publication.ts";

/**
 * Applies a slot change to the account's queue inside the caller's transaction (which
 * also saved the settings). Bails, leaving every post as it was, when more than
 * `MAX_REFLOW_POSTS` posts sit on old slot times, or when a post that would move is
 * being published or is held by another transaction (the publisher, a concurrent edit).
 * Moved posts get a fresh publish job at their new time.
 */
export async function reflowQueue(
  tx: Queryable,
  accountId: string,
  change: { oldSlots: readonly QueueSlot[]; newSlots: readonly QueueSlot[]; timeZone: string },
  now: Date,
): Promise<ReflowOutcome> {
  const { from, horizon } = leadWindow(now);
  const posts = await queuedPostsFrom(tx, accountId, from);
  const plan = planReflow({ posts: posts.map((post) => ({ id: post.id, at: post.scheduled_for })), ...change, from, horizon });
  const bail: ReflowOutcome = { moved: 0, skipped: plan.candidates, bailed: true };
  if (plan.candidates > MAX_REFLOW_POSTS) return bail;
  if (plan.moves.length === 0) return { moved: 0, skipped: plan.skipped.length, bailed: false };

  const byId = new Map<number, QueuedPostRow>(posts.map((post) => [post.id, post]));
  if (plan.moves.some((move) => byId.get(move.id)!.publishing)) return bail;
  const locked = await lockQueuedPosts(
    tx,
    plan.moves.map((move) => move.id),
  );
  const unchanged = locked.filter((row) => {
    const seen = byId.get(row.id)!;
    return row.status === "scheduled" && row.scheduled_for?.getTime() === seen.scheduled_for.getTime() && row.publish_version === seen.publish_version;
  });
  if (unchanged.length !== plan.moves.length) return bail;

  await moveQueuedPosts(tx, plan.moves, now);
  await schedulePublication(
    tx,
    plan.moves.map((move) => move.id),
  );
  await recordPostsScheduled(
    tx,
    plan.moves.map((move) => move.id),
    now,
  );
  return { moved: plan.moves.length, skipped: plan.skipped.length, bailed: false };
}
