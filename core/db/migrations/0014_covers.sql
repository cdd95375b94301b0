-- Issue 6, covers: saved cover styles and AI cover generations (spec: POST /v1/articles/{id}/cover,
-- AI credits; supplement: Articles "cover" row, section 5 GET /v1/cover-styles).

-- A saved cover style: `style_text` is what the image model is told about the look.
-- Styles are created in the companion app, per workspace (the main account); rows with no
-- workspace are the built-in set every workspace sees (seeded below), so `style_id` works
-- on a fresh install.
create table cover_styles (
  id bigint generated always as identity primary key,
  workspace_id text references accounts (id) on delete cascade,
  name text not null check (char_length(name) between 1 and 80),
  style_text text not null check (char_length(style_text) between 1 and 8000),
  created_at timestamptz not null default now()
);
create index cover_styles_by_workspace on cover_styles (workspace_id, id);

insert into cover_styles (workspace_id, name, style_text) values
  (null, 'Editorial illustration', 'Flat editorial illustration, two or three bold shapes that stand for the idea, muted palette with one accent colour, generous empty space, no text.'),
  (null, 'Bold title card', 'The title set large in a heavy sans-serif, high contrast on a solid or softly graded background, nothing else on the card.'),
  (null, 'Soft gradient', 'Calm abstract gradient in two related colours with gentle bands of light, minimal and quiet, suitable behind a headline.'),
  (null, 'Photographic', 'Realistic photograph of a scene that evokes the subject, natural light, shallow depth of field, landscape framing, no text.'),
  (null, 'Hand-drawn sketch', 'Loose ink sketch on off-white paper with a single watercolour wash, friendly and informal, no text.');

-- One AI cover request and its life: queued -> running -> done | failed | timed_out.
-- The request charges the credits (flat 25) and enqueues a `generate_article_cover` job;
-- the job settles them: kept on `done` and `timed_out`, refunded in full on `failed`
-- (spec AI credits: "25 credits kept even when it times out with 504; refunded in full on
-- outright failure"). `credits_charged` is null until the job settled.
create table cover_generations (
  id bigint generated always as identity primary key,
  -- Kept (set null) when the article is deleted, so the job can still settle the credits.
  article_id bigint references articles (id) on delete set null,
  account_id text not null references accounts (id) on delete cascade,
  -- The workspace (main account) the stored image belongs to, as a media upload.
  workspace_id text not null,
  status text not null default 'queued' check (status in ('queued', 'running', 'done', 'failed', 'timed_out')),
  attach boolean not null,
  style_id bigint references cover_styles (id) on delete set null,
  -- The title and prompt as they were when the cover was asked for.
  title text not null,
  prompt text not null,
  -- This server's /v1 base as the caller reached it (a local store's object URLs live there).
  base_url text not null,
  credit_owner_id text not null,
  credit_reference text not null,
  credits_reserved integer not null,
  credits_charged integer,
  object_key text,
  image_url text,
  attached boolean not null default false,
  model text,
  error_code text,
  error_message text,
  attempts integer not null default 0,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz,
  updated_at timestamptz not null default now()
);
-- "One at a time per article" (supplement: `409 cover_gen_in_progress`): at most one
-- unfinished generation per article, whatever races the request path loses.
create unique index cover_generations_one_active on cover_generations (article_id) where status in ('queued', 'running');
create index cover_generations_by_article on cover_generations (article_id, id desc);
