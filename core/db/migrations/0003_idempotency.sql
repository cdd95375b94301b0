-- Platform II: idempotency keys (spec: Idempotency). One row per owner and key, kept
-- 24 hours. A row is `running` while the first request holds its lease and `done` once
-- its answer is stored; failures delete the row so a retry runs again.
create table idempotency_keys (
  -- The account owner's main account: keys are scoped per owner across all of its API
  -- keys, so no one can replay (read) another owner's stored answers.
  owner_id text not null,
  key text not null,
  fingerprint text not null,
  procedure text not null,
  state text not null check (state in ('running', 'done')),
  locked_until timestamptz,
  -- Atomic phases (for work that calls the outside world between database steps): the
  -- last phase committed, and what later phases need to resume after a crash.
  recovery_point text not null default 'started',
  phase_data jsonb not null default '{}'::jsonb,
  response_status integer,
  response_body jsonb,
  response_headers jsonb,
  created_at timestamptz not null default now(),
  primary key (owner_id, key)
);
create index idempotency_keys_by_age on idempotency_keys (created_at);
