/** SQL of X's metered spending (core/db/migrations/0039_x_usage.sql). */
import type { Queryable } from "../db/sql.ts";

/** Counts one metered call in place: one row per account, month and kind, never a row per call. */
export async function addXUsage(sql: Queryable, usage: { accountId: string; month: string; kind: string; units: number; spendUsd: number }): Promise<void> {
  await sql`
    insert into x_usage (account_id, month, kind, calls, units, spend_usd)
    values (${usage.accountId}, ${usage.month}, ${usage.kind}, 1, ${usage.units}, ${usage.spendUsd})
    on conflict (account_id, month, kind) do update set
      calls = x_usage.calls + 1,
      units = x_usage.units + excluded.units,
      spend_usd = x_usage.spend_usd + excluded.spend_usd`;
}

/** The user owning an account and that user's own monthly X budget (null: the default), or undefined for an unknown account. */
export async function budgetOfAccount(sql: Queryable, accountId: string): Promise<{ userId: number; budgetUsd: number | null } | undefined> {
  const [row] = await sql<{ user_id: number; budget: string | null }[]>`
    select u.id as user_id, u.x_monthly_budget_usd::text as budget
    from accounts a join users u on u.id = a.user_id where a.id = ${accountId}`;
  return row ? { userId: row.user_id, budgetUsd: row.budget === null ? null : Number(row.budget) } : undefined;
}

/** What a user's accounts spent on X in a month, in USD. */
export async function monthSpendOfUser(sql: Queryable, userId: number, month: string): Promise<number> {
  const [row] = await sql<{ spend: string }[]>`
    select coalesce(sum(x.spend_usd), 0)::text as spend
    from x_usage x join accounts a on a.id = x.account_id
    where a.user_id = ${userId} and x.month = ${month}`;
  return Number(row.spend);
}

/** One row of usage: an account's calls of one kind in one month. */
export interface XUsageRow {
  account_id: string;
  month: string;
  kind: string;
  calls: number;
  units: number;
  spend_usd: number;
}

/** The usage of a user's own accounts in a month, by account and kind. */
export async function usageOfUser(sql: Queryable, userId: number, month: string): Promise<XUsageRow[]> {
  const rows = await sql<(Omit<XUsageRow, "spend_usd"> & { spend_usd: string })[]>`
    select x.account_id, x.month, x.kind, x.calls, x.units, x.spend_usd::text as spend_usd
    from x_usage x join accounts a on a.id = x.account_id
    where a.user_id = ${userId} and x.month = ${month}
    order by x.account_id, x.kind`;
  return rows.map((row) => ({ ...row, spend_usd: Number(row.spend_usd) }));
}

/** Sets a user's own monthly X budget (null: back to the default); answers whether the user exists. */
export async function setUserXBudget(sql: Queryable, userId: number, budgetUsd: number | null): Promise<boolean> {
  const rows = await sql`update users set x_monthly_budget_usd = ${budgetUsd} where id = ${userId} returning id`;
  return rows.length > 0;
}

/** A user's own monthly X budget in USD, or null (the default applies). */
export async function budgetOfUser(sql: Queryable, userId: number): Promise<number | null> {
  const [row] = await sql<{ budget: string | null }[]>`select x_monthly_budget_usd::text as budget from users where id = ${userId}`;
  return row?.budget == null ? null : Number(row.budget);
}
