-- Issue 5: what a sent post's settings do afterwards (supplement: Scheduling, `auto_retweet`,
-- `auto_delete`): the account reposts its own post `after_hours` after it went out (and
-- undoes the repost `remove_after_hours` later), or deletes a post that stayed under
-- `threshold` views. Each step records when it happened so a retried job does it once.
alter table scheduled_posts
  add column auto_retweeted_at timestamptz,
  add column auto_retweet_removed_at timestamptz,
  add column auto_deleted_at timestamptz;
