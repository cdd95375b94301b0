/** SQL of the post quota (post_quota_usage, post_quota_ledger; migration 0010). */
import type { Queryable } from "../db/sql.ts";

/** The user who owns an account, with what their quota depends on. */
export interface QuotaOwnerRow {
  user_id: number;
  plan: string;
  billing_anchor: Date;
  post_quota: number | null;
}

/** The owner of `accountId`. */
export async function quotaOwnerOf(sql: Queryable, accountId: string): Promise<QuotaOwnerRow | undefined> {
  const [row] = await sql<QuotaOwnerRow[]>`
    select u.id as user_id, u.plan, u.billing_anchor, u.post_quota
      from accounts a join users u on u.id = a.user_id
     where a.id = ${accountId}`;
  return row;
}

/**
 * Adds `count` to the period's usage unless that would pass `limit`; answers the new
 * usage, or undefined when the quota has no room (the row is left unchanged).
 */
export async function addUsage(sql: Queryable, userId: number, periodStart: Date, count: number, limit: number): Promise<number | undefined> {
  if (count > limit) return undefined;
  const [row] = await sql<{ used: number }[]>`
    insert into post_quota_usage (user_id, period_start, used)
    values (${userId}, ${periodStart}, ${count})
    on conflict (user_id, period_start) do update set used = post_quota_usage.used + ${count}
     where post_quota_usage.used + ${count} <= ${limit}
    returning used`;
  return row?.used;
}

/** Takes `count` back from a period's usage (never below zero). */
export async function subtractUsage(sql: Queryable, userId: number, periodStart: Date, count: number): Promise<void> {
  await sql`
    update post_quota_usage set used = greatest(used - ${count}, 0)
     where user_id = ${userId} and period_start = ${periodStart}`;
}

/** The period's usage (0 when nothing was charged). */
export async function usageOf(sql: Queryable, userId: number, periodStart: Date): Promise<number> {
  const [row] = await sql<{ used: number }[]>`
    select used from post_quota_usage where user_id = ${userId} and period_start = ${periodStart}`;
  return row?.used ?? 0;
}

/** Appends ledger entries, one per subject. */
export async function recordLedger(
  sql: Queryable,
  userId: number,
  periodStart: Date,
  delta: 1 | -1,
  subjects: readonly string[],
  reason: string,
): Promise<void> {
  if (subjects.length === 0) return;
  await sql`
    insert into post_quota_ledger (user_id, period_start, delta, subject, reason)
    select ${userId}, ${periodStart}, ${delta}, subject, ${reason} from unnest(${sql.array(subjects as string[])}::text[]) as subject`;
}

/** The net of a subject's ledger entries (1 while a deduction is held, 0 after its refund). */
export async function ledgerBalanceOf(sql: Queryable, subject: string): Promise<number> {
  const [row] = await sql<{ balance: number }[]>`
    select coalesce(sum(delta), 0)::int as balance from post_quota_ledger where subject = ${subject}`;
  return row.balance;
}
