-- Events (issue 18): every state change an API user polls for, written in the same transaction
-- as the change (an outbox), kept 30 days, delivered to webhooks and readable as a stream.
--
-- Ordering without gaps: `id` is assigned at insert, so transactions committing out of order
-- would let a reader that pages by `id` skip an event committed late with a smaller id. So
-- readers page by `seq` instead, which the sequencer (core/events/sequence_events.ts) assigns
-- after commit, one batch at a time under an advisory lock, in `id` order, only to rows it can
-- see (committed ones): every later `seq` is larger than every earlier one, whatever the commit
-- order. An event without `seq` yet is not readable.
create sequence events_seq;
create table events (
  id bigint generated always as identity primary key,
  seq bigint unique,
  -- Who may read it: the account's user (the owner of its main account).
  owner_id bigint not null references users (id) on delete cascade,
  account_id text not null,
  type text not null,
  -- The object the event is about (`scheduled_post` 42, `dataset` ds_...): deliveries of one
  -- object go out in order.
  object_type text not null,
  object_id text not null,
  -- The object as its GET returns it (or a small body for deletions).
  data jsonb not null,
  created_at timestamptz not null
);
create index events_unsequenced on events (id) where seq is null;
create index events_by_owner on events (owner_id, seq) where seq is not null;
create index events_by_time on events (created_at);
