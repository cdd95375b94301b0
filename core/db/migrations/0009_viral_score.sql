-- Viral score credits (spec AI credits: "first call per account 1 extra"): the first
-- call of each account owner is remembered here, so the extra credit is charged once
-- ever, across processes and restarts. The per-day "one in ten" count lives in the
-- daily cap counter (`viral_score_runs`), not here.
create table viral_score_first_calls (
  -- The account owner's main account, the same owner the daily caps count for.
  owner_id text primary key,
  first_called_at timestamptz not null
);
