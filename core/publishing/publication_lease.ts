/**
 * The non-SQL half of the publication lease (lease_queries.ts; taking a fresh holder and
 * waiting while another holder publishes are core/leases/lease.ts): failing a held
 * publication with its quota refund, and a job's last attempt. Used by the post publisher
 * (core/scheduling/) and the article publisher (core/articles/).
 */
import type { Queryable, Sql } from "../db/sql.ts";
import type { JobRow } from "../jobs/jobs_queries.ts";
import { refundPostQuota } from "../post_quota/post_quota.ts";
import { type HeldRow, lockHeld } from "./lease_queries.ts";

/** Whether this run of a publish job is its last attempt (it settles instead of throwing for a retry). */
export function isFinalAttempt(job: Pick<JobRow, "attempts" | "max_attempts">): boolean {
  return job.attempts >= job.max_attempts;
}

/**
 * Ends a held publication as failed in one transaction: `markFailed` (which also drops the
 * lease) and the refund of exactly the quota unit it deducted (spec, States: a failed
 * publication refunds the unit). False, with nothing changed, when the caller no longer
 * holds the row.
 */
export async function failHeldPublication(
  sql: Sql,
  held: HeldRow,
  failure: { markFailed: (tx: Queryable) => Promise<void>; quotaSubject: string; refundReason: string },
): Promise<boolean> {
  return sql.begin(async (tx) => {
    const row = await lockHeld(tx, held);
    if (!row) return false;
    await failure.markFailed(tx);
    if (row.quota_period_start) {
      await refundPostQuota(tx, row.account_id, { periodStart: row.quota_period_start }, [failure.quotaSubject], failure.refundReason);
    }
    return true;
  });
}
