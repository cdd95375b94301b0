-- Platform II: rolling allowances (spec: DM limits, "a rolling 24-hour bulk allowance").
-- Fixed windows (the Counters port) cannot say "in the last 24 hours", so each charge is
-- a row and a check sums the rows still inside the window. Rows are pruned per owner and
-- name when that allowance is next charged, and in bulk by `pruneRollingUsage`.
create table allowance_usage (
  id bigint generated always as identity primary key,
  -- The account owner's main account (or any stable owner key the caller chooses);
  -- no foreign key, so usage can be counted for owners that are not accounts.
  owner_id text not null,
  name text not null,
  units integer not null check (units > 0),
  used_at timestamptz not null,
  -- What the units were spent on (a campaign id, ...), so they can be given back.
  reference text
);
-- The window sum and the "when does room free up" scan both walk this index.
create index allowance_usage_window on allowance_usage (owner_id, name, used_at);
create index allowance_usage_by_reference on allowance_usage (owner_id, name, reference) where reference is not null;
create index allowance_usage_by_age on allowance_usage (used_at);
