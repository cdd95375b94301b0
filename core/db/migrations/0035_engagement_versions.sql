-- The engagers' recount follows the content it counts (docs/areas.md "Audience"). Every content
-- sync commit that stores a received reply not stored before, or a repost counter that moved,
-- bumps `content_sync_state.engagement_version` (core/content/content_sync.ts); the engagers
-- record the version their last run counted from and are due again while the content's is
-- ahead (core/audience/audience_sync_rhythm.ts). A version, not a time: it orders commits
-- whatever the clocks of the runs, and a run in flight cannot overwrite a newer one.
alter table content_sync_state add column engagement_version integer not null default 0;
alter table audience_sync_state add column counted_engagement_version integer not null default 0;
