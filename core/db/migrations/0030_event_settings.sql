-- Event settings per user (issue 18): the `credits.low` threshold, and the credit period in
-- which `credits.low` was last recorded (once per period: a pool that dips below the
-- threshold, is topped up and dips again in one period is announced once).
create table event_settings (
  owner_id bigint primary key references users (id) on delete cascade,
  -- Null: no `credits.low` events.
  credits_low_threshold integer check (credits_low_threshold >= 0),
  credits_low_period_start timestamptz,
  updated_at timestamptz not null
);
