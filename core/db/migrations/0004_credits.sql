-- Platform II: AI credits (spec: AI credits, Credit headers). One credit is one cent of
-- model spend. Each account owner has one pool per period (monthly from the billing date
-- for paid plans, the UTC day for trials); every movement is an append-only ledger row,
-- and the pool keeps the running total so a check is one locked row read.
create table credit_pools (
  owner_id text primary key references accounts (id) on delete cascade,
  period text not null check (period in ('monthly', 'daily')),
  period_start timestamptz not null,
  period_end timestamptz not null,
  allowance integer not null check (allowance >= 0),
  bonus integer not null default 0,
  -- Credits kept in the current period: the sum of its ledger amounts, negated.
  spent integer not null default 0,
  updated_at timestamptz not null default now(),
  check (period_end > period_start)
);

create table credit_ledger (
  id bigint generated always as identity primary key,
  -- No foreign key: the audit trail outlives the account it describes.
  owner_id text not null,
  period_start timestamptz not null,
  -- charge: kept up front; refund: given back; settle: the difference once a background
  -- call knows its real cost; grant: bonus credits.
  entry text not null check (entry in ('charge', 'refund', 'settle', 'grant')),
  -- Positive adds to what is left, negative spends.
  amount integer not null,
  -- What the movement belongs to (a request or job id), so a refund never exceeds its charge.
  reference text not null,
  procedure text,
  created_at timestamptz not null default now()
);
create index credit_ledger_by_reference on credit_ledger (owner_id, reference);
create index credit_ledger_by_period on credit_ledger (owner_id, period_start);

-- Append-only: the ledger is the audit trail, so rows are never changed or removed.
create function credit_ledger_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'credit_ledger is append-only';
end $$;
create trigger credit_ledger_no_update before update or delete on credit_ledger
  for each row execute function credit_ledger_append_only();
