-- Datasets (issue 15; spec rules 7-8, Datasets, Dataset states, Limits 7-8, Constants;
-- supplement: Datasets): audience collections, research briefs and refined copies, kept 30
-- days, with the outreach messages drafted onto their rows.

-- A dataset belongs to the user (owner-scoped reads: supplement "Owner-scoped") and was
-- built from one account of theirs (`account_id`: whose posts `my_posts` reads, whose voice
-- drafts follow). `id` is opaque text (the path id matches ^[A-Za-z0-9_-]{1,64}$).
create table datasets (
  id text primary key,
  owner_id bigint not null references users (id) on delete cascade,
  account_id text not null references accounts (id) on delete cascade,
  source text not null check (
    source in ('repliers', 'quoters', 'reposters', 'list_members', 'my_posts', 'my_replies', 'research')
  ),
  title text not null,
  status text not null check (status in ('collecting', 'ready', 'failed')),
  -- What was asked: the target as sent and as resolved, max_rows, filters, focus, the research
  -- source, the refine criterion (the request body, normalised).
  target text,
  target_id text,
  params jsonb not null default '{}',
  -- The dataset a refine or a research run read from (null when that one was purged since).
  parent_id text references datasets (id) on delete set null,
  -- Progress while collecting: rows written so far and the expected total (null: unsizable).
  rows_collected integer not null default 0,
  expected_total integer,
  -- Counts shown on GET (scanned, matched, skipped, unclear, ...), per source.
  counts jsonb not null default '{}',
  -- Where a background walk stopped: its next page cursor, saved with each batch of rows so a
  -- crashed job resumes without rereading or duplicating (rows are unique by key too).
  cursor jsonb,
  -- What was charged before the walk (enrichment units, live allowance, credits), so a failure
  -- or an empty result gives back exactly that.
  charges jsonb not null default '{}',
  -- The UTC day whose collection slot this dataset took (spec Limits 7: 10 per account per
  -- day; refine counts, research does not), null when it took none or gave it back (a
  -- collection matching nobody). Counted here, in the same transaction as the create, so a
  -- background job can give a slot back without the request path's counters.
  quota_day date,
  note text,
  error text,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  finished_at timestamptz,
  expires_at timestamptz not null
);
create index datasets_by_owner on datasets (owner_id, created_at desc, id desc);
create index datasets_expiring on datasets (expires_at);
create index datasets_quota on datasets (account_id, quota_day) where quota_day is not null;
-- One background collection (or refine) per account at a time (supplement: `409
-- collection_in_progress`); research runs are bounded by their own daily cap instead.
create unique index datasets_one_collecting on datasets (account_id) where status = 'collecting' and source <> 'research';

-- One row per person (or per own post), in collection order. `key` is what makes a row unique
-- within its dataset (the person's X id, or the post id for own content), so a resumed walk
-- or a rerun never duplicates. Person and post columns are null where the source has none.
create table dataset_rows (
  dataset_id text not null references datasets (id) on delete cascade,
  position integer not null,
  key text not null,
  x_user_id text,
  handle text,
  name text,
  bio text,
  location text,
  website text,
  avatar_url text,
  followers_count integer,
  following_count integer,
  verified boolean,
  can_dm boolean,
  post_id text,
  post_text text,
  post_url text,
  posted_at timestamptz,
  likes integer,
  replies integer,
  reposts integer,
  quotes integer,
  impressions integer,
  -- Research: the brief (summary, topics, tone, recent themes) and verbatim hooks with the
  -- posts they quote.
  brief jsonb,
  hooks jsonb,
  -- The drafted outreach message (spec: "writes one message per person onto the dataset's
  -- `message` column") and how it was drafted (drafted, generic).
  message text,
  message_kind text check (message_kind in ('drafted', 'generic')),
  message_at timestamptz,
  primary key (dataset_id, position),
  unique (dataset_id, key)
);
