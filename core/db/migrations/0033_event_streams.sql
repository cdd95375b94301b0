-- Event streams: one listener per process instead of one poll per connection, and a
-- cap on open streams.
--
-- Every statement that inserts events notifies `threadline_events` (PostgreSQL delivers a
-- notification when the transaction commits, once per transaction however many statements sent
-- it, and never for a rollback), so each process's one listener (core/events/event_feed.ts)
-- wakes its streams as soon as an event is committed.
create function threadline_events_notify() returns trigger language plpgsql as $$
begin
  perform pg_notify('threadline_events', '');
  return null;
end;
$$;
create trigger events_notify after insert on events for each statement execute function threadline_events_notify();

-- The open streams, across every process on this database (core/events/stream_slots.ts): a
-- stream holds its row while it runs and renews `expires_at`; a process that dies leaves rows
-- that stop counting when they expire.
create table event_streams (
  id bigint generated always as identity primary key,
  owner_id bigint not null references users (id) on delete cascade,
  key_id bigint not null references api_keys (id) on delete cascade,
  opened_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index event_streams_by_owner on event_streams (owner_id, expires_at);
