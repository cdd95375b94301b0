-- X's pay-per-use spending (docs/x.md "X's prices and your budget"; x-api/getting-started/pricing.mdx).
--
-- One row per account, month (UTC, `2026-11`) and kind of call, counted up in place: calls, units
-- (requests for writes, resources returned for reads) and the estimated spend in USD. App-only
-- reads act as no account and count under `app`, so there is no foreign key to accounts.
create table x_usage (
  account_id text not null,
  month text not null,
  kind text not null,
  calls bigint not null default 0,
  units bigint not null default 0,
  spend_usd numeric(14, 6) not null default 0,
  primary key (account_id, month, kind)
);

-- A user's monthly X budget in USD; null: the configured default (`X_MONTHLY_BUDGET_USD`).
alter table users add column x_monthly_budget_usd numeric(12, 2);
