-- The account's own content as the content sync last read it from the network (issue 12;
-- spec: GET /v1/posts, /v1/replies, /v1/replies/received, /v1/posts/analytics).

-- Every post, reply and repost the account published. `category` is how the spec counts
-- (Versioning 4): `post` = originals, quotes and thread continuations; `reply` = answers to
-- other accounts; `repost` = reposts (whose counters are the original's, so stored as 0).
create table own_posts (
  account_id text not null references accounts (id) on delete cascade,
  x_post_id text not null check (x_post_id ~ '^[0-9]{1,25}$'),
  category text not null check (category in ('post', 'reply', 'repost')),
  is_quote boolean not null default false,
  is_thread_continuation boolean not null default false,
  -- Part of a thread: a continuation, or a first post its author continued.
  is_thread boolean not null default false,
  text text not null,
  posted_at timestamptz not null,
  conversation_id text not null,
  reply_to_x_post_id text,
  reply_to_user_id text,
  reposted_x_post_id text,
  likes integer not null default 0,
  replies integer not null default 0,
  reposts integer not null default 0,
  quotes integer not null default 0,
  bookmarks integer not null default 0,
  impressions integer not null default 0,
  -- The scheduled post that published it, when Threadline did.
  scheduled_post_id bigint references scheduled_posts (id) on delete set null,
  synced_at timestamptz not null,
  primary key (account_id, x_post_id)
);
create index own_posts_by_time on own_posts (account_id, posted_at desc, x_post_id desc);
create index own_posts_by_category on own_posts (account_id, category, posted_at desc, x_post_id desc);
create index own_posts_by_conversation on own_posts (account_id, conversation_id) where is_thread_continuation;

-- The own posts of each UTC day, counted and summed (the analytics read this, not the
-- posts): rewritten for every day a sync touches, in the sync's transaction, so it always
-- equals what own_posts holds.
create table own_post_days (
  account_id text not null references accounts (id) on delete cascade,
  day date not null,
  posts integer not null,
  replies_sent integer not null,
  reposts_sent integer not null,
  likes bigint not null,
  replies bigint not null,
  reposts bigint not null,
  quotes bigint not null,
  bookmarks bigint not null,
  impressions bigint not null,
  primary key (account_id, day)
);

-- Replies other accounts sent to the account's posts, with the replier's profile as read.
create table received_replies (
  account_id text not null references accounts (id) on delete cascade,
  x_post_id text not null check (x_post_id ~ '^[0-9]{1,25}$'),
  text text not null,
  posted_at timestamptz not null,
  likes integer not null default 0,
  replies integer not null default 0,
  replier_x_user_id text not null,
  replier_username text not null,
  replier_name text not null,
  replier_avatar_url text not null,
  replier_followers_count integer not null,
  replier_verified boolean not null,
  in_reply_to_x_post_id text not null,
  in_reply_to_text text,
  in_reply_to_posted_at timestamptz,
  synced_at timestamptz not null,
  primary key (account_id, x_post_id)
);
create index received_replies_by_time on received_replies (account_id, posted_at desc, x_post_id desc);
create index received_replies_by_likes on received_replies (account_id, likes desc, posted_at desc, x_post_id desc);

-- One row per account and UTC day: the profile's counters that day (follower growth). Days
-- recorded from the network's history (the first sync) know only the follower count.
create table account_daily_stats (
  account_id text not null references accounts (id) on delete cascade,
  day date not null,
  followers_count integer not null,
  following_count integer,
  post_count integer,
  recorded_at timestamptz not null,
  primary key (account_id, day)
);

-- Where the content sync stands per account: the newest post stored, the backfill walk's
-- cursor, and the pages read today (the daily bound).
create table content_sync_state (
  account_id text primary key references accounts (id) on delete cascade,
  newest_posted_at timestamptz,
  backfill_cursor text,
  backfill_done boolean not null default false,
  replies_newest_at timestamptz,
  history_loaded boolean not null default false,
  budget_day date,
  pages_today integer not null default 0,
  last_synced_at timestamptz,
  next_sync_at timestamptz
);
create index content_sync_due on content_sync_state (next_sync_at);
