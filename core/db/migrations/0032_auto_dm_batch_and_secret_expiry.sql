-- Auto DM batch mode (core/dm/auto_dm_schema.ts `batch_mode`): a post in batch mode has its
-- engagers queued together once an hour; `read_at` is when its engagement was last read.
alter table dm_auto_settings
  add column batch_mode boolean not null default false,
  add column read_at timestamptz;

-- The secrets a webhook rotation keeps signing for 24 hours are forgotten after them
-- (core/webhooks/webhooks_queries.ts `clearExpiredSecrets`, every run of deliver_webhooks).
create index webhooks_previous_secret_until on webhooks (previous_secret_until) where previous_secret is not null;
