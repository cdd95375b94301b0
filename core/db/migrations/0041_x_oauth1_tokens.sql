-- OAuth 1.0a user tokens (docs/x.md, "OAuth 1.0a tokens"): an operator who holds an account's
-- access token and secret from their X app stores them instead of connecting through X's consent
-- screen. `kind` says which credential a connection holds: `oauth2` (an access token that lives two
-- hours and a refresh token) or `oauth1` (an access token and its secret, both sealed, which do not
-- expire: X's fundamentals/authentication/faq.mdx, "Access tokens are not explicitly expired"), so an
-- `oauth1` connection has no expiry and no scopes and is never refreshed.
alter table x_connections add column kind text not null default 'oauth2' check (kind in ('oauth2', 'oauth1'));
alter table x_connections add column token_secret text;
alter table x_connections alter column access_expires_at drop not null;
alter table x_connections add constraint x_connections_kind_shape check (
  (kind = 'oauth2' and access_expires_at is not null) or (kind = 'oauth1' and token_secret is not null)
);
