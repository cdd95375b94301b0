-- Issue 6, articles: the publisher's claim on an article (as scheduled posts have in 0010),
-- so two publish calls (a request and the job, or two processes) never publish one
-- article at once, and a crashed holder's lease passes.
alter table articles
  add column publish_claimed_by text,
  add column publish_claimed_until timestamptz,
  add column publish_attempts integer not null default 0,
  -- A publication whose answer never came (a timeout): until the network answers for the
  -- token, the article stays `publishing`; its outcome is reconciled, never guessed.
  add column publish_outcome_unknown boolean not null default false;
create index articles_publishing on articles (id) where status = 'publishing';
