-- Issue 5: scheduled posts and threads, their tags, the publisher's per-part outcomes,
-- queue settings, media uploads and the post quota.

-- An upload announced by POST /v1/media. The bytes land in the media store (local disk
-- or S3); `uploaded_at` is set once they were checked. Uploads belong to the workspace
-- of the account they were made for; `attached_at` is set when a post first carries one,
-- and unattached uploads are deleted after 24 hours (spec: Constants).
create table media_uploads (
  object_key text primary key,
  workspace_id text not null references accounts (id) on delete cascade,
  account_id text not null references accounts (id) on delete cascade,
  api_key_id bigint references api_keys (id) on delete set null,
  filename text not null,
  file_type text not null,
  declared_size integer not null check (declared_size > 0),
  -- What the store actually holds, once uploaded and checked.
  size integer,
  detected_type text,
  uploaded_at timestamptz,
  upload_expires_at timestamptz not null,
  attached_at timestamptz,
  created_at timestamptz not null default now()
);
create index media_uploads_unattached on media_uploads (created_at) where attached_at is null;
create index media_uploads_by_key_day on media_uploads (api_key_id, created_at);

-- A post or thread (spec: Scheduled post). `parts` is `[{ text, media: [{ object_key,
-- alt_text }] }]`. Statuses: draft, scheduled, sent, error (the supplement's fourth);
-- `legacy_board` drafts read as `draft`.
create table scheduled_posts (
  id bigint generated always as identity primary key,
  account_id text not null references accounts (id) on delete cascade,
  status text not null check (status in ('draft', 'scheduled', 'sent', 'error')),
  legacy_board boolean not null default false,
  scheduled_for timestamptz,
  parts jsonb not null,
  title text check (char_length(title) <= 300),
  scratchpad text check (char_length(scratchpad) <= 30000),
  auto_retweet jsonb,
  auto_delete jsonb,
  super_followers_only boolean not null default false,
  -- The post quota period a deduction was charged to; null when nothing is charged.
  -- A refund returns exactly this deduction (spec: States, Scheduled post).
  quota_period_start timestamptz,
  -- Bumped at every (re)schedule; a publish job carries the version it was enqueued for
  -- and a job for an older version does nothing.
  publish_version integer not null default 0,
  publish_attempts integer not null default 0,
  error text,
  sent_at timestamptz,
  x_post_ids text[],
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (status <> 'scheduled' or scheduled_for is not null)
);
create index scheduled_posts_by_update on scheduled_posts (account_id, updated_at desc, id desc);
create index scheduled_posts_by_time on scheduled_posts (account_id, scheduled_for, id) where scheduled_for is not null;
create index scheduled_posts_due on scheduled_posts (scheduled_for) where status = 'scheduled';

-- Tags on posts; deleting a tag (or a post) detaches it everywhere (supplement: Tags).
create table scheduled_post_tags (
  post_id bigint not null references scheduled_posts (id) on delete cascade,
  tag_id bigint not null references tags (id) on delete cascade,
  primary key (post_id, tag_id)
);
create index scheduled_post_tags_by_tag on scheduled_post_tags (tag_id, post_id);

-- The publisher's durable record of each part: `publishing` is written (and committed)
-- before the network is asked, `published` with the network's id after it answered, so a
-- crash between the two leaves an unknown outcome that is reconciled with the network
-- (by the part's token) before anything is published again.
create table publish_parts (
  post_id bigint not null references scheduled_posts (id) on delete cascade,
  publish_version integer not null,
  part_index integer not null,
  state text not null check (state in ('publishing', 'published')),
  token text not null,
  x_post_id text,
  started_at timestamptz not null,
  published_at timestamptz,
  primary key (post_id, publish_version, part_index)
);

-- Weekly queue slots in the account's IANA timezone (supplement: Queue). Null columns
-- mean the defaults (`slots_are_default`, `timezone_is_default`).
create table queue_settings (
  account_id text primary key references accounts (id) on delete cascade,
  slots jsonb,
  timezone text,
  updated_at timestamptz not null default now()
);

-- The post quota (spec: 403 post_quota_exceeded): posts scheduled or published per billing
-- period, per user. `users.post_quota` overrides the plan's number when set.
alter table users add column post_quota integer check (post_quota >= 0);

create table post_quota_usage (
  user_id bigint not null references users (id) on delete cascade,
  period_start timestamptz not null,
  used integer not null default 0 check (used >= 0),
  primary key (user_id, period_start)
);

-- Every deduction (+1) and refund (-1), append-only, so "exactly the deducted quota is
-- refunded" can be shown rather than assumed.
create table post_quota_ledger (
  id bigint generated always as identity primary key,
  user_id bigint not null references users (id) on delete cascade,
  period_start timestamptz not null,
  delta integer not null check (delta in (-1, 1)),
  -- `post:<id>` or `article:<id>`.
  subject text not null,
  reason text not null,
  created_at timestamptz not null default now()
);
create index post_quota_ledger_by_subject on post_quota_ledger (subject);
