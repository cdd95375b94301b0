/**
 * `POST /v1/scheduled-posts/bulk/retime` (supplement: Queue): new times for up to 500
 * queued posts of one account, "one transaction (all or none)". A time that breaks the
 * rules (less than 60 s or more than 18 months ahead) or an id sent twice fails the whole
 * call with `400 invalid_parameter` before anything changes. Ids that are not queued
 * posts of the account are skipped, not failed, so a rerun after some posts were deleted
 * or sent converges (supplement: "deleted id is skipped"); a move to the time a post
 * already has is a no-op, skipped as `unchanged`.
 */
import { recordPostsScheduled } from "./post_events.ts";
import type { AccountContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { checkScheduleTime } from "./post_content.ts";
import { assertSchedulerReachable } from "./scheduling_gate.ts";
import { schedulePublication } from "./schedule_publication.ts";
import { lockAccountPosts, retimePosts } from "./bulk_queries.ts";
import { bulkAnswer, type BulkItem, type BulkRetimeInput } from "./bulk_schema.ts";
import { notQueuedReason } from "./bulk_eligibility.ts";

/** Retimes the account's queued posts; answers `{ updated, skipped, results }`. */
export async function bulkRetime(ctx: AccountContext, input: BulkRetimeInput) {
  assertSchedulerReachable(ctx);
  const { sql, clock } = ctx.services;
  const now = new Date(clock.now());
  const seen = new Set<string>();
  const moves = input.moves.map((move, index) => {
    if (seen.has(move.id)) throw new ApiError("invalid_parameter", `Invalid "moves[${index}].id": "${move.id}" appears more than once`);
    seen.add(move.id);
    const at = new Date(move.scheduled_for);
    checkScheduleTime(at, now, `moves[${index}].scheduled_for`);
    return { id: move.id, at };
  });

  const items = await sql.begin(async (tx) => {
    const rows = await lockAccountPosts(
      tx,
      ctx.account.id,
      moves.map((move) => move.id),
    );
    const changes: { id: number; at: Date }[] = [];
    const results = moves.map((move): BulkItem<"updated"> => {
      const row = rows.get(move.id);
      const reason = notQueuedReason(row, now) ?? (row!.scheduled_for!.getTime() === move.at.getTime() ? "unchanged" : undefined);
      if (reason) return { id: move.id, result: "skipped", reason };
      changes.push({ id: row!.id, at: move.at });
      return { id: move.id, result: "updated" };
    });
    await retimePosts(tx, changes, now);
    // The publisher's job follows the new time (a job of the old version does nothing).
    await schedulePublication(
      tx,
      changes.map((change) => change.id),
    );
    await recordPostsScheduled(
      tx,
      changes.map((change) => change.id),
      now,
    );
    return results;
  });
  return { data: bulkAnswer("updated", items) };
}
