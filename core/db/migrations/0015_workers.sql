-- Issue 6: Workers (scheduled AI writers) and their suggestions (spec: rule 7, Worker
-- suggestion, Worker (list shape), States of Worker suggestion, Workers endpoints).
-- Workers are created and edited outside the API (the companion app; here the CLI and
-- the demo); the API lists them and acts on their suggestions.

-- A Worker. `shape` says what it writes from: `formats` (proven format templates),
-- `niche` (remixes of popular posts found by `topic_config.keywords`), `fresh` (the
-- account's context and products). A niche-shaped Worker always remixes a reference
-- (spec: "A product or custom Worker shaped on a niche reports style mode
-- `reference_remix` and its `topic_config` carries `keywords`").
create table workers (
  id bigint generated always as identity primary key,
  account_id text not null references accounts (id) on delete cascade,
  name text not null check (char_length(name) between 1 and 80),
  -- Whose voice it writes in: the account's own posts, a creator's, or both.
  voice text not null default 'mine' check (voice in ('mine', 'creator', 'hybrid')),
  creator_handle text,
  topic_source text not null check (topic_source in ('product', 'custom', 'niche')),
  -- `{ product_id }`, `{ topic }` and/or `{ keywords: [...] }` by topic source and shape.
  topic_config jsonb not null default '{}',
  style_mode text not null check (style_mode in ('voice_match', 'reference_remix')),
  batch_size integer not null check (batch_size between 1 and 10),
  -- Weekdays (0 = Sunday) and a wall time `HH:MM` in `timezone`.
  schedule_days integer[] not null check (cardinality(schedule_days) between 1 and 7),
  schedule_time text not null check (schedule_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  timezone text not null,
  next_run_at timestamptz not null,
  shape text not null check (shape in ('formats', 'niche', 'fresh')),
  active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (voice = 'mine' or creator_handle is not null),
  check (shape <> 'niche' or (style_mode = 'reference_remix' and jsonb_typeof(topic_config->'keywords') = 'array'
                              and jsonb_array_length(topic_config->'keywords') > 0))
);
create index workers_by_account on workers (account_id, id);
-- The dispatcher's scan: active Workers whose run is due.
create index workers_due on workers (next_run_at) where active;

-- A suggestion a Worker wrote. `reference` is `{ source, ... }`: what it wrote from (a
-- format template, a popular post with its id, url and author, the account's context);
-- only `source` (and `fallback`) is ever shown (spec: "collection and reference ids stay
-- private"). `fallback` marks a niche Worker's suggestion written from a proven format
-- because no usable popular post was found. A suggestion saves once; dismissing keeps
-- the post it saved (States, Worker suggestion).
create table worker_suggestions (
  id bigint generated always as identity primary key,
  worker_id bigint not null references workers (id) on delete cascade,
  account_id text not null references accounts (id) on delete cascade,
  status text not null default 'to_review' check (status in ('to_review', 'drafted', 'scheduled', 'dismissed')),
  text text not null,
  reference jsonb,
  fallback boolean not null default false,
  -- The run that wrote it (the Worker's `next_run_at` when it ran) and its place in the batch:
  -- a run committed twice would collide here instead of writing a second batch.
  run_at timestamptz not null,
  run_index integer not null,
  post_id bigint references scheduled_posts (id) on delete set null,
  generated_at timestamptz not null default now(),
  drafted_at timestamptz,
  scheduled_at timestamptz,
  dismissed_at timestamptz,
  unique (worker_id, run_at, run_index)
);
create index worker_suggestions_by_account on worker_suggestions (account_id, status, generated_at desc, id desc);
create index worker_suggestions_by_worker on worker_suggestions (worker_id, generated_at desc, id desc);
create index worker_suggestions_by_post on worker_suggestions (post_id) where post_id is not null;
