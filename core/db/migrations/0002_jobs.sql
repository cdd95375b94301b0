-- Platform II, scope item 4: durable background jobs (ARCHITECTURE: Jobs). Claimed with
-- FOR UPDATE SKIP LOCKED by any number of workers in any number of processes; a job runs
-- at least once, so handlers are idempotent (core/jobs/job_runner.ts).

create table jobs (
  id bigint generated always as identity primary key,
  kind text not null,
  payload jsonb not null default '{}'::jsonb,
  -- Not claimed before this instant; a failed attempt pushes it out (exponential backoff).
  run_at timestamptz not null default now(),
  -- Counted when a job is claimed, so an attempt whose worker died still counts.
  attempts integer not null default 0 check (attempts >= 0),
  max_attempts integer not null default 8 check (max_attempts >= 1),
  status text not null default 'queued' check (status in ('queued', 'running', 'done', 'failed')),
  -- The claiming worker and its lease; past locked_until the stale-lock sweep re-queues it.
  locked_by text,
  locked_until timestamptz,
  last_error text,
  -- At most one unfinished job per key (index below); finished jobs keep theirs so the
  -- periodic scheduler can tell "this hour's run already happened".
  unique_key text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  finished_at timestamptz,
  check (status <> 'running' or (locked_by is not null and locked_until is not null)),
  check ((status in ('done', 'failed')) = (finished_at is not null))
);

-- The claim scans queued jobs in (run_at, id) order, keeps those with run_at <= now() and
-- stops after N rows. A partial index holding only queued jobs serves exactly that scan, in
-- order and without a sort, and stays small however many finished jobs accumulate (a plain
-- (status, run_at) index would also carry every done row).
create index jobs_claim on jobs (run_at, id) where status = 'queued';

-- The stale-lock sweep: running jobs whose lease has passed.
create index jobs_lease on jobs (locked_until) where status = 'running';

-- Dedup of unfinished jobs (`insert ... on conflict (unique_key) where <this predicate>`).
-- `unique_key is not null` keeps the many keyless jobs out of it: without it every queued
-- job had an entry, and the planner even combined this index into the claim's scan.
create unique index jobs_unique_key_unfinished on jobs (unique_key)
  where unique_key is not null and status in ('queued', 'running');

-- "Has this key ever been enqueued" (finished jobs included) for the periodic scheduler.
create index jobs_by_unique_key on jobs (unique_key) where unique_key is not null;

-- Retention: purge_finished_jobs deletes old finished jobs.
create index jobs_finished on jobs (finished_at) where finished_at is not null;
