-- Context (spec: Identity and context; supplement: Context): the settings the AI
-- tools write with, per account, and the account's products. A deleted product is
-- kept (deleted_at) so re-adding its url restores it with the details it had.
create table account_context (
  account_id text primary key references accounts (id) on delete cascade,
  settings jsonb not null default '{}'::jsonb,
  style_guide text,
  style_guide_generated_at timestamptz,
  updated_at timestamptz not null default now()
);

create table products (
  id bigint generated always as identity primary key,
  account_id text not null references accounts (id) on delete cascade,
  url text not null,
  name text,
  description text,
  positioning text,
  features text,
  updates text,
  scraped_at timestamptz,
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index products_url_per_account on products (account_id, url);
