-- Connecting X accounts (docs/x.md): OAuth 2.0 Authorization Code with PKCE.
--
-- A connection started by a key's user: the one-time `state` X sends back to the callback, the
-- PKCE verifier (sealed, core/ports/secret_box.ts) and the callback URL the code is bound to.
-- Each is used at most once and only until `expires_at`.
create table x_connect_requests (
  state text primary key,
  user_id bigint not null references users (id) on delete cascade,
  code_verifier text not null,
  redirect_uri text not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz
);
create index x_connect_requests_by_expiry on x_connect_requests (expires_at);

-- An account's X authorisation: the tokens (sealed), when the access token expires, the scopes
-- granted, and whether it still works (`reauth_required` once X refused a refresh for good).
-- The refresh lease lets exactly one process refresh an account at a time: X rotates refresh
-- tokens, and a second refresh with the same token is refused (`invalid_grant`).
create table x_connections (
  account_id text primary key references accounts (id) on delete cascade,
  scopes text[] not null,
  access_token text not null,
  access_expires_at timestamptz not null,
  refresh_token text,
  status text not null check (status in ('connected', 'reauth_required')),
  reauth_reason text,
  refresh_holder text,
  refresh_until timestamptz,
  connected_at timestamptz not null,
  refreshed_at timestamptz,
  updated_at timestamptz not null
);
