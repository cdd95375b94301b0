-- GET /v1/inspiration (issue 12, item 4; supplement: Inspiration): the corpus of public
-- posts the search reads, ingested from the network by the `ingest_inspiration` job.
-- Search is PostgreSQL full-text search: `search` is generated from the text and carries a
-- GIN index; the filters and sorts have btree indexes. Topics are classified at ingest
-- (core/inspiration/topic_classifier.ts) and stored as a bitmask so `exclude_topics` is a
-- plain predicate: 1 crypto, 2 politics, 4 nsfw, 8 selfpromo.
create table inspiration_posts (
  post_id text primary key,
  author_id text not null,
  author_username text not null,
  author_name text not null,
  author_avatar_url text,
  author_verified boolean not null default false,
  -- Null when the network did not tell us: such posts have no outlier score.
  author_followers bigint check (author_followers >= 0),
  text text not null,
  url text not null,
  lang text not null,
  posted_at timestamptz not null,
  likes integer not null default 0,
  replies integer not null default 0,
  reposts integer not null default 0,
  quotes integer not null default 0,
  bookmarks integer not null default 0,
  impressions bigint not null default 0,
  topics smallint not null default 0,
  -- A plug strong enough to drop from search results (the supplement: "promotional matches dropped").
  promotional boolean not null default false,
  -- Follower tiers the expected rates are measured per: under 1k, 1k-10k, 10k-100k, 100k-1M, 1M and more.
  follower_tier smallint generated always as (
    case
      when author_followers is null or author_followers = 0 then null
      when author_followers < 1000 then 1
      when author_followers < 10000 then 2
      when author_followers < 100000 then 3
      when author_followers < 1000000 then 4
      else 5
    end
  ) stored,
  -- Engagements (likes + replies + reposts + quotes) per follower.
  engagement_rate double precision generated always as (
    (likes + replies + reposts + quotes)::double precision / nullif(author_followers, 0)
  ) stored,
  -- engagement_rate / the tier's measured expected rate; set by the refresh after each ingest.
  outlier_score double precision,
  ingested_at timestamptz not null default now(),
  search tsvector generated always as (to_tsvector('english', text)) stored
);
create index inspiration_posts_search on inspiration_posts using gin (search);
create index inspiration_posts_recent on inspiration_posts (lang, posted_at desc);
create index inspiration_posts_likes on inspiration_posts (likes desc);
create index inspiration_posts_reposts on inspiration_posts (reposts desc);
create index inspiration_posts_impressions on inspiration_posts (impressions desc);
create index inspiration_posts_outlier on inspiration_posts (outlier_score desc nulls last);
create index inspiration_posts_followers on inspiration_posts (author_followers);

-- The expected engagement rate per follower tier, measured from the corpus (the median
-- engagement_rate of the tier's posts), replaced after every ingest.
create table inspiration_tier_rates (
  tier smallint primary key,
  expected_rate double precision not null check (expected_rate > 0),
  posts integer not null,
  measured_at timestamptz not null default now()
);
