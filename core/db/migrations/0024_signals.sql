-- Signals (issue 14; spec: Other endpoints with stated parameters, Limits 4 and 11;
-- supplement: Signals): standing lead agents, what each watches, and the leads they found.

-- An agent watches up to 5 signals and deposits the leads it judges a fit into a contact list.
-- Deleting the list leaves the agent without a destination (deposits stop until repointed:
-- spec, DELETE /v1/contact-lists/{id}); deleting the agent leaves its leads and its list.
create table signal_agents (
  id bigint generated always as identity primary key,
  account_id text not null references accounts (id) on delete cascade,
  name text not null,
  icp_description text not null,
  precision_mode text not null check (precision_mode in ('high', 'discovery')),
  status text not null default 'active' check (status in ('active', 'paused')),
  destination_list_id bigint references contact_lists (id) on delete set null,
  -- The runner's rhythm: when the agent is next due, its last run and what went wrong in it.
  next_run_at timestamptz not null,
  last_run_at timestamptz,
  last_run_error text,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index signal_agents_by_account on signal_agents (account_id, id);
create index signal_agents_due on signal_agents (next_run_at) where status = 'active';

-- What an agent watches. `target` is what the user named (the query, the handle, the list);
-- `target_id` the network id it resolved to (people and lists); `dedupe_key` makes the same
-- watch twice a `409 duplicate_signal`. `cursor` is where the runner stopped reading it.
create table agent_signals (
  id bigint generated always as identity primary key,
  agent_id bigint not null references signal_agents (id) on delete cascade,
  type text not null check (type in ('keyword_watch', 'profile_watch', 'follower_watch', 'list_watch')),
  target text not null,
  target_id text,
  label text not null,
  dedupe_key text not null,
  cursor jsonb,
  created_at timestamptz not null,
  unique (agent_id, type, dedupe_key)
);

-- A person an agent judged against its ICP, from one triggering action. Leads are contacts
-- of the account; one lead per agent and person, ever (a deleted agent's leads stay, with
-- `agent_id` null, and no longer block anyone).
create table signal_leads (
  id bigint generated always as identity primary key,
  account_id text not null,
  agent_id bigint references signal_agents (id) on delete set null,
  signal_id bigint references agent_signals (id) on delete set null,
  x_user_id text not null,
  icp_score integer not null check (icp_score between 0 and 100),
  icp_rationale text not null,
  provenance jsonb not null,
  deposited boolean not null default false,
  deposited_at timestamptz,
  -- The list it went into (null when that list was deleted since).
  deposited_list_id bigint references contact_lists (id) on delete set null,
  feedback text check (feedback in ('fit', 'not_fit')),
  feedback_at timestamptz,
  discovered_at timestamptz not null,
  unique (agent_id, x_user_id),
  foreign key (account_id, x_user_id) references contacts (account_id, x_user_id) on delete cascade
);
create index signal_leads_by_time on signal_leads (account_id, discovered_at desc, id desc);
create index signal_leads_by_agent on signal_leads (agent_id, discovered_at desc, id desc);

-- A lead's lifetime post count (its volume) is part of the profile the API shows.
alter table contacts add column posts_count integer not null default 0;

-- A lead deposited into a list carries its score there, and its feedback is mirrored onto the
-- list row (supplement: lead feedback "mirrored onto the list row").
alter table contact_list_members
  add column icp_score integer,
  add column icp_rationale text,
  add column feedback text check (feedback in ('fit', 'not_fit')),
  add column feedback_at timestamptz;
