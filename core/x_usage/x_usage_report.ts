/** The X usage report of a key's user (docs/x.md "X's prices and your budget"). */
import type { KeyContext } from "../context.ts";
import type { XUsageInput } from "./x_usage_schema.ts";
import { budgetOfUser, usageOfUser } from "./x_usage_queries.ts";

// Sums of numeric(14, 6) values: rounded to the column's millionths so float noise does not show.
const roundUsd = (usd: number) => Math.round(usd * 1e6) / 1e6;

/** Calls, units and estimated spend per account and kind in a month, with the budget and what is left. */
export async function xUsageReport(ctx: KeyContext, input: XUsageInput) {
  const { sql, clock, settings } = ctx.services;
  const month = input.month ?? new Date(clock.now()).toISOString().slice(0, 7);
  const userId = ctx.principal.userId;
  const rows = await usageOfUser(sql, userId, month);
  const accounts = new Map<
    string,
    { account_id: string; calls: number; spend_usd: number; kinds: { kind: string; calls: number; units: number; spend_usd: number }[] }
  >();
  for (const row of rows) {
    const account = accounts.get(row.account_id) ?? { account_id: row.account_id, calls: 0, spend_usd: 0, kinds: [] };
    account.calls += row.calls;
    account.spend_usd = roundUsd(account.spend_usd + row.spend_usd);
    account.kinds.push({ kind: row.kind, calls: row.calls, units: row.units, spend_usd: roundUsd(row.spend_usd) });
    accounts.set(row.account_id, account);
  }
  const spend = roundUsd(rows.reduce((sum, row) => sum + row.spend_usd, 0));
  const budget = (await budgetOfUser(sql, userId)) ?? settings.xMonthlyBudgetUsd ?? null;
  return {
    data: {
      month,
      accounts: [...accounts.values()],
      spend_usd: spend,
      budget_usd: budget,
      left_usd: budget === null ? null : roundUsd(Math.max(0, budget - spend)),
    },
  };
}
