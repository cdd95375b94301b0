/**
 * `POST /v1/scheduled-posts/bulk/auto-retweet` (supplement: Queue): attaches one auto
 * retweet setting to up to 100 queued posts of one account. It "never overwrites an
 * existing auto retweet (those count as skipped)", so a rerun converges.
 */
import type { AccountContext } from "../context.ts";
import { assertSchedulerReachable } from "./scheduling_gate.ts";
import { lockAccountPosts, setAutoRetweet } from "./bulk_queries.ts";
import { bulkAnswer, type BulkAutoRetweetInput, type BulkItem } from "./bulk_schema.ts";
import { distinctIds, notQueuedReason } from "./bulk_eligibility.ts";

/** Adds the auto retweet to queued posts without one; answers `{ updated, skipped, results }`. */
export async function bulkAutoRetweet(ctx: AccountContext, input: BulkAutoRetweetInput) {
  assertSchedulerReachable(ctx);
  const { sql, clock } = ctx.services;
  const now = new Date(clock.now());
  const ids = distinctIds(input.ids);
  const setting =
    input.auto_retweet.remove_after_hours === undefined
      ? { after_hours: input.auto_retweet.after_hours }
      : { after_hours: input.auto_retweet.after_hours, remove_after_hours: input.auto_retweet.remove_after_hours };

  const items = await sql.begin(async (tx) => {
    const rows = await lockAccountPosts(tx, ctx.account.id, ids);
    const chosen: number[] = [];
    const results = ids.map((id): BulkItem<"updated"> => {
      const row = rows.get(id);
      const reason = notQueuedReason(row, now) ?? (row!.auto_retweet !== null ? "has_auto_retweet" : undefined);
      if (reason) return { id, result: "skipped", reason };
      chosen.push(row!.id);
      return { id, result: "updated" };
    });
    await setAutoRetweet(tx, chosen, setting, now);
    return results;
  });
  return { data: bulkAnswer("updated", items) };
}
