-- Platform I: users, their accounts and shares, API keys, tags.

create table users (
  id bigint generated always as identity primary key,
  name text not null,
  email text unique,
  plan text not null default 'pro',
  -- spec Authentication 7: active, trialing and team-billed work; lapsed answers 403.
  subscription_status text not null default 'active'
    check (subscription_status in ('active', 'trialing', 'team', 'lapsed')),
  onboarded boolean not null default true,
  billing_anchor timestamptz not null default now(),
  created_at timestamptz not null default now()
);

-- An account is a social-network identity. A main account has no main_account_id;
-- a linked account points at the main account of the same user.
create table accounts (
  id text primary key check (id ~ '^[0-9]{1,25}$'),
  user_id bigint not null references users (id) on delete cascade,
  main_account_id text references accounts (id) on delete cascade,
  username text not null,
  name text not null,
  avatar_url text not null,
  x_premium boolean not null default false,
  created_at timestamptz not null default now(),
  check (main_account_id is null or main_account_id <> id)
);
create unique index accounts_one_main_per_user on accounts (user_id) where main_account_id is null;
create index accounts_by_main on accounts (main_account_id) where main_account_id is not null;

-- An account shared with another user. Accounts linked to a shared main account are
-- reachable too ("linked-shared") with the same permission.
create table account_shares (
  account_id text not null references accounts (id) on delete cascade,
  user_id bigint not null references users (id) on delete cascade,
  permission text not null check (permission in ('viewer', 'editor')),
  created_at timestamptz not null default now(),
  primary key (account_id, user_id)
);
create index account_shares_by_user on account_shares (user_id);

create table api_keys (
  id bigint generated always as identity primary key,
  user_id bigint not null references users (id) on delete cascade,
  name text not null,
  -- SHA-256 of the full key, hex; the key itself is shown once and never stored.
  key_hash text not null unique,
  display text not null,
  scopes text[] not null check (scopes <@ array['read', 'write']::text[] and 'read' = any (scopes)),
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz,
  replaced_by bigint references api_keys (id)
);
create index api_keys_active_by_user on api_keys (user_id) where revoked_at is null;

-- Tags are workspace-wide: one set per main account, shared by its linked accounts.
create table tags (
  id bigint generated always as identity primary key,
  workspace_id text not null references accounts (id) on delete cascade,
  name text not null,
  color text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index tags_unique_name on tags (workspace_id, lower(name));
