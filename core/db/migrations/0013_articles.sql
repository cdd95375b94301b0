-- Issue 6: long-form articles (spec: Article; States, Article; supplement: Articles).
-- States `draft`, `scheduled`, `published`; `publishing` marks a publication in flight
-- (its outcome is reconciled with the network by `publish_token`, never guessed) and
-- reads back as the list filter value the real client knows (supplement C5).
create table articles (
  id bigint generated always as identity primary key,
  account_id text not null references accounts (id) on delete cascade,
  status text not null default 'draft' check (status in ('draft', 'scheduled', 'publishing', 'published')),
  title text not null,
  content_markdown text not null default '',
  -- Conversion problems of the last write (rich constructs degraded to text).
  warnings jsonb not null default '[]',
  -- The cover: a media object of the workspace (an AI cover or an upload) and its URL.
  cover_object_key text,
  cover_url text,
  scheduled_for timestamptz,
  -- The post quota period a deduction was charged to (schedule or publish); null when none is held.
  quota_period_start timestamptz,
  -- Bumped at every schedule; a publish job carries the version it was enqueued for.
  publish_version integer not null default 0,
  -- The network idempotency token of the publication in flight or done.
  publish_token text,
  x_post_id text,
  x_article_id text,
  url text,
  published_at timestamptz,
  last_error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (status <> 'scheduled' or scheduled_for is not null)
);
create index articles_by_update on articles (account_id, updated_at desc, id desc);
create index articles_due on articles (scheduled_for) where status = 'scheduled';
