-- Webhooks (issue 18 scopes 2 and 3): a user's endpoints and one delivery row per event and
-- subscribed endpoint, posted by the delivery job, signed to the Standard Webhooks format.
create table webhooks (
  id bigint generated always as identity primary key,
  owner_id bigint not null references users (id) on delete cascade,
  url text not null,
  -- Event types delivered; '{*}' is every type, present and future.
  events text[] not null,
  description text,
  enabled boolean not null default true,
  -- Kept to sign with (a receiver verifies with it); shown to the user once.
  secret text not null,
  -- After a rotation the old secret also signs for 24 hours, so deliveries in flight verify.
  previous_secret text,
  previous_secret_until timestamptz,
  -- The fan-out's cursor: the last `events.seq` of the owner turned into deliveries.
  cursor_seq bigint not null default 0,
  -- The disable rule: a run of failed attempts (count and start), reset by a success.
  consecutive_failures integer not null default 0,
  failing_since timestamptz,
  disabled_reason text,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index webhooks_by_owner on webhooks (owner_id, id);

create table webhook_deliveries (
  id bigint generated always as identity primary key,
  webhook_id bigint not null references webhooks (id) on delete cascade,
  -- `webhook-id`: the event's id (`evt_<seq>`), the same on every attempt (receivers dedupe on it).
  event_id text not null,
  -- The event's `seq` (null for a ping): deliveries of one object go out in this order.
  event_seq bigint,
  event_type text not null,
  -- `<object_type>:<object_id>`: the unit of ordering.
  object_key text not null,
  -- The body exactly as posted on every attempt.
  body text not null,
  -- pending (waiting or between attempts), succeeded, failed (gave up).
  status text not null default 'pending',
  attempt integer not null default 0,
  next_attempt_at timestamptz,
  -- The lease of the process posting it now: never two attempts at once.
  locked_by text,
  locked_until timestamptz,
  response_code integer,
  latency_ms integer,
  error text,
  last_attempt_at timestamptz,
  -- When the event happened (the bench measures delivery lag from it).
  event_created_at timestamptz not null,
  created_at timestamptz not null,
  unique (webhook_id, event_id)
);
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending';
create index webhook_deliveries_order on webhook_deliveries (webhook_id, object_key, event_seq) where status = 'pending';
create index webhook_deliveries_by_webhook on webhook_deliveries (webhook_id, id desc);
-- Deliveries are kept as long as events (30 days), then purged by the delivery job.
create index webhook_deliveries_by_time on webhook_deliveries (created_at);
