-- Cached inspiration media searches (spec Limits 9: "cached repeats do not count"). A repeat
-- of the same normalised query by the same account owner before `expires_at` answers the
-- stored items and spends no fresh search. Kept in PostgreSQL so every server process
-- answers a repeat alike; expired rows are deleted whenever a search is stored.
create table inspiration_media_searches (
  owner_id text not null,
  query_key text not null,
  items jsonb not null,
  expires_at timestamptz not null,
  primary key (owner_id, query_key)
);

create index inspiration_media_searches_expiry on inspiration_media_searches (expires_at);
