-- DM campaigns (issue 16; spec rule 7, DM limits, Errors `dm_limit_reached`; supplement: DMs,
-- section 5): campaigns only enqueue; the `send_dms` job sends each message exactly once
-- within the plan's limits, under the same lease discipline as the publisher.

-- A campaign of one account: made over REST (`source: api`) or by a scheduled post's auto DM
-- (`source: auto_dm`, one campaign per post, `scheduled_post_id` set).
create table dm_campaigns (
  id bigint generated always as identity primary key,
  account_id text not null references accounts (id) on delete cascade,
  source text not null default 'api' check (source in ('api', 'auto_dm')),
  scheduled_post_id bigint,
  -- The shared template (a recipient's own message overrides it).
  message text,
  -- The counts the create answered (queued, queued_now, scheduled, skipped, duplicates).
  counts jsonb not null default '{}',
  created_at timestamptz not null default now()
);
create index dm_campaigns_by_account on dm_campaigns (account_id, id desc);
create unique index dm_campaigns_one_per_post on dm_campaigns (scheduled_post_id) where scheduled_post_id is not null;

-- One message to one person. `message` is the template as queued; the tokens ([name],
-- [first], [handle]) are filled at send time into `sent_text`. `month_start` is the UTC month
-- whose monthly unit the message holds; pending, sending and sent messages count against it
-- (failed and skipped ones gave it back; cancelled ones are deleted).
create table dm_messages (
  id bigint generated always as identity primary key,
  campaign_id bigint not null references dm_campaigns (id) on delete cascade,
  account_id text not null references accounts (id) on delete cascade,
  recipient_id text not null,
  handle text,
  name text,
  message text not null,
  source_post_id text,
  status text not null check (status in ('pending', 'sending', 'sent', 'failed', 'skipped')),
  send_after timestamptz not null,
  month_start timestamptz not null,
  -- The lease of the sender holding the message (core/publishing/lease_queries.ts's columns,
  -- same names, so one mechanism serves posts, articles and DMs).
  publish_claimed_by text,
  publish_claimed_until timestamptz,
  publish_attempts integer not null default 0,
  -- Set when an attempt's outcome is unknown (a crash, a timeout): the next holder asks the
  -- network whether the DM landed before sending it again.
  outcome_unknown boolean not null default false,
  sent_text text,
  x_dm_id text,
  sent_at timestamptz,
  reason text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index dm_messages_by_campaign on dm_messages (campaign_id, id);
create index dm_messages_by_account on dm_messages (account_id, id desc);
create index dm_messages_due on dm_messages (send_after, id) where status in ('pending', 'sending');
create index dm_messages_recent on dm_messages (account_id, recipient_id, sent_at);
create index dm_messages_month on dm_messages (account_id, month_start) where status in ('pending', 'sending', 'sent');

-- An account whose network authorisation was lost while sending (`reauth_required`): its
-- messages wait, creates are refused, and the sender tries again after a pause.
create table dm_account_states (
  account_id text primary key references accounts (id) on delete cascade,
  reauth_required_at timestamptz
);

-- A scheduled post's auto DM (supplement: Scheduling, auto DM): after the post is sent, the
-- people who reply and/or repost get `message` (tokens filled at send time) through the same
-- sender and limits, each person once per post, at most `max`. `enabled` false is the off
-- switch (the setting and its slot are kept). `slot_month` is the UTC month whose
-- `posts_with_auto_dm` slot it holds; removing the setting (deleting the row) returns it.
create table dm_auto_settings (
  post_id bigint primary key references scheduled_posts (id) on delete cascade,
  account_id text not null references accounts (id) on delete cascade,
  message text not null,
  triggers text[] not null,
  max integer not null check (max between 1 and 100),
  enabled boolean not null default true,
  slot_month timestamptz not null,
  created_at timestamptz not null default now()
);
create index dm_auto_settings_by_month on dm_auto_settings (account_id, slot_month);
