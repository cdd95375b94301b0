-- Plug templates and `auto_plug` (supplement: Scheduling, `auto_plug`; section 5,
-- GET /v1/plug-templates). A template is workspace-wide like a tag: the main account and
-- its linked accounts share one set; they are made in the companion app (here: the CLI).
create table plug_templates (
  id bigint generated always as identity primary key,
  workspace_id text not null references accounts (id) on delete cascade,
  text text not null check (char_length(text) between 1 and 25000),
  -- An upload of the workspace attached to the plug reply; no foreign key, so the plug
  -- keeps its text should the object ever be gone (the reply then goes without it).
  media_object_key text,
  created_at timestamptz not null default now()
);
create index plug_templates_by_workspace on plug_templates (workspace_id, id);

-- `auto_plug` as sent (`{ template_id, threshold }`), and what the follow-up did: when it
-- replied and with which network post, so a retried job never replies twice.
alter table scheduled_posts
  add column auto_plug jsonb,
  add column auto_plugged_at timestamptz,
  add column auto_plug_post_id text;
