-- The simulated network's own tables (STYLE.md: "an adapter owns its tables and their
-- migrations"), applied by adapters/x/simulated/simulated_migrations.ts and recorded in
-- simulated_network_migrations. Until this chain existed, core's chain created them (its
-- 0007_network_writes and the last index of 0012_publisher, both now emptied of them):
-- every statement here is `if not exists`, so a database that chain migrated keeps its
-- tables and rows and only gains this chain's record; a fresh database gets them here.

-- The simulated social network's writes (issue 4): what Threadline's users publish,
-- repost, delete and DM there. The generated world derives from its seed and is never
-- stored; these rows are merged into its reads, so the demo stays coherent across
-- restarts (ARCHITECTURE: "The simulated network is a world, not a stub"). Unused when
-- the X API v2 adapter is configured. Times come from the server's Clock, not now().

-- One sequence numbers every written post, article and DM; their network ids derive from it.
create sequence if not exists network_write_seq;

create table if not exists network_posts (
  seq bigint primary key,
  post_id text not null unique,
  author_id text not null,
  kind text not null check (kind in ('post', 'reply', 'quote', 'repost')),
  text text not null,
  media_keys text[] not null default '{}',
  reply_to_id text,
  reply_to_user_id text,
  quoted_id text,
  reposted_id text,
  conversation_id text not null,
  is_thread_continuation boolean not null default false,
  mentioned_ids text[] not null default '{}',
  article_id text,
  article_title text,
  -- The publisher's idempotency token: publishing again with it returns this post.
  client_token text,
  created_at timestamptz not null,
  deleted_at timestamptz
);
create unique index if not exists network_posts_token on network_posts (author_id, client_token) where client_token is not null;
-- One live repost per person and post (reposting again answers the existing repost).
create unique index if not exists network_posts_one_repost on network_posts (author_id, reposted_id) where kind = 'repost' and deleted_at is null;
create index if not exists network_posts_by_author on network_posts (author_id, created_at desc);
create index if not exists network_posts_by_reply_to on network_posts (reply_to_id) where reply_to_id is not null;
create index if not exists network_posts_by_quoted on network_posts (quoted_id) where quoted_id is not null;
create index if not exists network_posts_by_reposted on network_posts (reposted_id) where reposted_id is not null;
create index if not exists network_posts_by_replied_user on network_posts (reply_to_user_id, created_at) where reply_to_user_id is not null;
create index if not exists network_posts_by_time on network_posts (created_at);
create index if not exists network_posts_by_mention on network_posts using gin (mentioned_ids);

-- Generated posts their authors deleted (the world still derives them; reads skip them).
create table if not exists network_deleted_posts (
  post_id text primary key,
  author_id text not null,
  deleted_at timestamptz not null
);

-- Articles: every publish attempt makes a draft (X allows 10 a day) and a success
-- publishes it (5 a day), spec Articles: "10 drafts and 5 publishes a day".
create table if not exists network_articles (
  seq bigint primary key,
  article_id text not null unique,
  author_id text not null,
  title text not null,
  markdown text not null,
  cover_url text,
  status text not null check (status in ('draft', 'published')),
  post_id text,
  client_token text,
  created_at timestamptz not null,
  published_at timestamptz
);
create unique index if not exists network_articles_token on network_articles (author_id, client_token) where client_token is not null;
create index if not exists network_articles_by_author on network_articles (author_id, created_at);

create table if not exists network_dms (
  seq bigint primary key,
  dm_id text not null unique,
  sender_id text not null,
  recipient_id text not null,
  text text not null,
  client_token text,
  created_at timestamptz not null
);
create unique index if not exists network_dms_token on network_dms (sender_id, client_token) where client_token is not null;
create index if not exists network_dms_by_sender on network_dms (sender_id, created_at desc);
create index if not exists network_dms_by_recipient on network_dms (recipient_id, created_at desc);

-- The simulated network refuses an author's identical text within a day
-- (adapters/x/simulated/post_writes.ts), and looks it up at every publish. Through
-- network_posts_by_author (or a scan) that reads every post the author wrote that day, so
-- a burst of posts from one account costs quadratic time (measured after 10,000 posts of
-- one author: 1.8-3.3 ms per lookup, 0.08 ms with this index; the bench publishes 10,000
-- posts due in one minute). A hash index finds equal texts directly, whatever their
-- length (a btree entry is limited to about 2,700 bytes; a premium post may be 25,000
-- characters).
create index if not exists network_posts_by_text on network_posts using hash (text);
