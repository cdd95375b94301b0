-- The audience CRM (issue 13; spec: Contact list member, Contact Lists, Audience; supplement:
-- Audience, Contact Lists, section 5): the people an account knows, its lists of them, notes
-- on them, and the audience index the audience sync keeps (followers, following, reposters).

-- Member search (`q`, a substring of handle or name) runs on a trigram index, not a scan.
create extension if not exists pg_trgm;

-- A person's replies to the account (`GET /v1/contacts/{id}/replies`).
create index received_replies_by_replier on received_replies (account_id, replier_x_user_id, posted_at desc, x_post_id desc);

-- The people an account knows: engagers, members of its lists (system lists included) and,
-- later, scored leads. One row per account and person, with the profile as last read and the
-- engagement of the rolling 90 days as the audience sync last counted it.
create table contacts (
  account_id text not null references accounts (id) on delete cascade,
  x_user_id text not null check (x_user_id ~ '^[0-9]{1,25}$'),
  username text not null,
  name text not null,
  avatar_url text not null default '',
  location text not null default '',
  bio text not null default '',
  url text,
  verified boolean not null default false,
  verified_type text not null default 'none',
  followers_count integer not null default 0,
  following_count integer not null default 0,
  can_dm boolean not null default false,
  replies_count integer not null default 0,
  reposts_count integer not null default 0,
  engaged_count integer generated always as (replies_count + reposts_count) stored,
  last_engaged_at timestamptz,
  profile_read_at timestamptz not null,
  created_at timestamptz not null,
  primary key (account_id, x_user_id)
);
create index contacts_by_engagement on contacts (account_id, engaged_count desc, x_user_id);
create index contacts_by_replies on contacts (account_id, replies_count desc, x_user_id) where replies_count > 0;
create index contacts_by_reposts on contacts (account_id, reposts_count desc, x_user_id) where reposts_count > 0;
-- Handle and name in one text (a newline between, so no substring spans both).
create index contacts_search on contacts using gin ((username || E'\n' || name) gin_trgm_ops);

-- Lists of people: the user's own (`kind` 'custom') and the four system lists, one of each
-- kind per account, created on first read. A system list holds no rows here: its members
-- are the audience index, and its count is the sync's.
create table contact_lists (
  id bigint generated always as identity primary key,
  account_id text not null references accounts (id) on delete cascade,
  name text not null,
  kind text not null check (kind in ('custom', 'followers', 'following', 'repliers', 'reposters')),
  -- Kept in the same transaction as every member write (user lists).
  member_count integer not null default 0 check (member_count >= 0),
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index contact_lists_by_account on contact_lists (account_id, id);
create unique index contact_lists_one_system_list on contact_lists (account_id, kind) where kind <> 'custom';

create table contact_list_members (
  id bigint generated always as identity primary key,
  list_id bigint not null references contact_lists (id) on delete cascade,
  account_id text not null,
  x_user_id text not null,
  -- How the person got here: manual, bulk, dataset, signal.
  source text not null,
  added_at timestamptz not null,
  unique (list_id, x_user_id),
  foreign key (account_id, x_user_id) references contacts (account_id, x_user_id) on delete cascade
);
create index contact_list_members_by_time on contact_list_members (list_id, added_at desc, id desc);
create index contact_list_members_by_person on contact_list_members (account_id, x_user_id);

-- A person's notes, per account. Not limited to known contacts on read (supplement).
create table contact_notes (
  id bigint generated always as identity primary key,
  account_id text not null references accounts (id) on delete cascade,
  x_user_id text not null check (x_user_id ~ '^[0-9]{1,25}$'),
  body text not null,
  created_by text not null,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index contact_notes_by_person on contact_notes (account_id, x_user_id, created_at desc, id desc);

-- Followers and following as the audience sync last walked them. `walk_started_at` and
-- `walk_index` are where the person was first seen (which walk, which position): newest
-- walk first, then the network's order. `generation` is the last walk that saw them; a
-- finished walk removes the rows of older generations (unfollows).
create table audience_members (
  account_id text not null references accounts (id) on delete cascade,
  kind text not null check (kind in ('followers', 'following')),
  x_user_id text not null,
  walk_started_at timestamptz not null,
  walk_index integer not null,
  generation integer not null,
  primary key (account_id, kind, x_user_id)
);
create index audience_members_by_order on audience_members (account_id, kind, walk_started_at desc, walk_index, x_user_id);

-- Reposts of the account's posts. The network lists reposters without a time, so
-- `engaged_at` is the earliest moment the repost can have happened: the post's time on the
-- first read of its reposters, the previous read's time after that.
create table audience_reposts (
  account_id text not null references accounts (id) on delete cascade,
  x_post_id text not null,
  x_user_id text not null,
  engaged_at timestamptz not null,
  primary key (account_id, x_post_id, x_user_id)
);
create index audience_reposts_by_person on audience_reposts (account_id, x_user_id, engaged_at);

-- When each own post's reposters were last read, and its repost counter then (re-read only
-- when the counter moved).
create table audience_repost_reads (
  account_id text not null references accounts (id) on delete cascade,
  x_post_id text not null,
  reposts_count integer not null,
  read_at timestamptz not null,
  primary key (account_id, x_post_id)
);

-- Where the audience sync stands per account and list (`followers`, `following`,
-- `engagers`): the walk in progress, the status the audience endpoint reports, the day's
-- page budget.
create table audience_sync_state (
  account_id text not null references accounts (id) on delete cascade,
  kind text not null check (kind in ('followers', 'following', 'engagers')),
  status text not null check (status in ('pending', 'running', 'complete', 'paused')),
  generation integer not null default 0,
  walk_cursor text,
  walk_started_at timestamptz,
  walk_seen integer not null default 0,
  synced_count integer not null default 0,
  is_capped boolean not null default false,
  last_error text,
  last_complete_at timestamptz,
  budget_day date,
  pages_today integer not null default 0,
  last_synced_at timestamptz,
  next_sync_at timestamptz,
  primary key (account_id, kind)
);
create index audience_sync_due on audience_sync_state (next_sync_at);
