/**
 * `POST /v1/scheduled-posts/bulk/delete` (supplement: Queue): deletes up to 100 queued
 * posts of one account and "refunds post quota of deleted queued posts": each gets back
 * exactly the unit it took, to the period it was taken from (`quota_period_start`). Drafts,
 * sent and error posts are skipped (they are not queued); a deleted id is skipped on a rerun.
 */
import { recordPostsDeleted } from "./post_events.ts";
import type { AccountContext } from "../context.ts";
import { assertSchedulerReachable } from "./scheduling_gate.ts";
import { refundPostQuota } from "../post_quota/post_quota.ts";
import { deletePosts, lockAccountPosts } from "./bulk_queries.ts";
import { bulkAnswer, type BulkDeleteInput, type BulkItem } from "./bulk_schema.ts";
import { distinctIds, notQueuedReason } from "./bulk_eligibility.ts";

/** Deletes the account's queued posts among `ids`; answers `{ deleted, skipped, results }`. */
export async function bulkDelete(ctx: AccountContext, input: BulkDeleteInput) {
  assertSchedulerReachable(ctx);
  const { sql, clock } = ctx.services;
  const now = new Date(clock.now());
  const ids = distinctIds(input.ids);
  const accountId = ctx.account.id;

  const items = await sql.begin(async (tx) => {
    const rows = await lockAccountPosts(tx, accountId, ids);
    const chosen: number[] = [];
    // Subjects to refund, grouped by the period each unit was taken from.
    const refunds = new Map<number, { periodStart: Date; subjects: string[] }>();
    const results = ids.map((id): BulkItem<"deleted"> => {
      const row = rows.get(id);
      const reason = notQueuedReason(row, now);
      if (reason) return { id, result: "skipped", reason };
      chosen.push(row!.id);
      if (row!.quota_period_start !== null) {
        const period = row!.quota_period_start;
        const group = refunds.get(period.getTime()) ?? { periodStart: period, subjects: [] };
        group.subjects.push(`post:${row!.id}`);
        refunds.set(period.getTime(), group);
      }
      return { id, result: "deleted" };
    });
    for (const group of refunds.values()) {
      await refundPostQuota(tx, accountId, { periodStart: group.periodStart }, group.subjects, "bulk deleted");
    }
    await deletePosts(tx, chosen);
    await recordPostsDeleted(
      tx,
      chosen.map((id) => ({ id, accountId })),
      now,
    );
    return results;
  });
  return { data: bulkAnswer("deleted", items) };
}
