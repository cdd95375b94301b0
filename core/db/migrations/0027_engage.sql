-- Engage (issue 17; spec: Engage feed, States "Engage feed", Limits 4 and 6; supplement:
-- Engage and section 5): the account's reading feeds and the posts each feed has shown.

-- A feed reads one source: `keywords` (1 to 5), a public X list (`x_list_id`, resolved once
-- when set) or one of the account's contact lists (`list_id`). At most one feed per account
-- is `active` (the one open in the app); creating never moves it, deleting the open one hands
-- it to the first remaining feed. A deleted contact list leaves its feed with no source (it
-- then reads nothing) rather than deleting a feed the user named.
create table engage_feeds (
  id bigint generated always as identity primary key,
  account_id text not null references accounts (id) on delete cascade,
  name text not null,
  type text not null check (type in ('keywords', 'x_list', 'list')),
  keywords text[],
  x_list_id text,
  x_list_name text,
  list_id bigint references contact_lists (id) on delete set null,
  active boolean not null default false,
  -- Where a rotating contact-list feed reads its members next (Limits 6: it counts 3).
  rotation_offset integer not null default 0 check (rotation_offset >= 0),
  created_at timestamptz not null,
  updated_at timestamptz not null,
  check ((type = 'keywords') = (keywords is not null)),
  check ((type = 'x_list') = (x_list_id is not null))
);
create index engage_feeds_by_account on engage_feeds (account_id, id);
create unique index engage_feeds_one_active on engage_feeds (account_id) where active;

-- Posts a feed already returned: they sink below unseen ones on later fetches (supplement:
-- "Returned posts count as seen and are demoted later").
create table engage_feed_seen (
  feed_id bigint not null references engage_feeds (id) on delete cascade,
  post_id text not null,
  seen_at timestamptz not null,
  primary key (feed_id, post_id)
);
