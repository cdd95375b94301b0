/**
 * The post quota (spec: `403 post_quota_exceeded`, States of Scheduled post and Article):
 * each post or article that is scheduled or published takes one unit from its owner's
 * quota for the billing period (monthly from the billing date); un-scheduling, deleting a
 * queued post or a failed publication gives back exactly the unit taken, to the period it
 * was taken from. Usage and an append-only ledger live in PostgreSQL, in the caller's
 * transaction, so a write that fails takes nothing.
 */
import type { Queryable } from "../db/sql.ts";
import { ApiError } from "../errors.ts";
import { planById } from "../plans/plans.ts";
import { creditPeriodAt } from "../time/credit_period.ts";
import { addUsage, quotaOwnerOf, recordLedger, subtractUsage, usageOf } from "./post_quota_queries.ts";

/** A deduction: the period it was taken from (stored on the post or article to refund exactly). */
export interface QuotaCharge {
  periodStart: Date;
}

/** The owner's quota and the period containing `now`. */
export async function postQuotaOf(
  sql: Queryable,
  accountId: string,
  now: Date,
): Promise<{ userId: number; limit: number; periodStart: Date; periodEnd: Date; used: number }> {
  const owner = await quotaOwnerOf(sql, accountId);
  if (!owner) throw new ApiError("account_not_found", `Cannot find account "${accountId}"`);
  const period = creditPeriodAt({ period: "monthly", credits: 0 }, owner.billing_anchor, now);
  const limit = owner.post_quota ?? planById(owner.plan).posts;
  return { userId: owner.user_id, limit, periodStart: period.start, periodEnd: period.end, used: await usageOf(sql, owner.user_id, period.start) };
}

/**
 * Takes one unit per subject (`post:<id>`, `article:<id>`) from the quota of `accountId`'s
 * owner, all or none: `403 post_quota_exceeded` when the period has too little left.
 */
export async function deductPostQuota(
  sql: Queryable,
  accountId: string,
  subjects: readonly string[],
  options: { now: Date; reason: string },
): Promise<QuotaCharge> {
  const quota = await postQuotaOf(sql, accountId, options.now);
  if (subjects.length === 0) return { periodStart: quota.periodStart };
  const used = await addUsage(sql, quota.userId, quota.periodStart, subjects.length, quota.limit);
  if (used === undefined) {
    throw new ApiError(
      "post_quota_exceeded",
      `The post quota for this billing period is used up (${quota.limit} posts; renews ${quota.periodEnd.toISOString()})`,
      {
        quota: quota.limit,
        used: quota.used,
        reset_at: quota.periodEnd.toISOString(),
      },
    );
  }
  await recordLedger(sql, quota.userId, quota.periodStart, 1, subjects, options.reason);
  return { periodStart: quota.periodStart };
}

/** Gives back the units `charge` took for `subjects` of `accountId`, to the period they were taken from. */
export async function refundPostQuota(sql: Queryable, accountId: string, charge: QuotaCharge, subjects: readonly string[], reason: string): Promise<void> {
  if (subjects.length === 0) return;
  const owner = await quotaOwnerOf(sql, accountId);
  if (!owner) return;
  await subtractUsage(sql, owner.user_id, charge.periodStart, subjects.length);
  await recordLedger(sql, owner.user_id, charge.periodStart, -1, subjects, reason);
}
