-- What each part said when it was published (the part as stored on the post: text and media).
-- A post that failed part-way and is scheduled again continues its thread after the parts
-- already on X whose content is unchanged, instead of publishing them a second time
-- (core/scheduling/carried_parts.ts). Rows written before this migration have none: their
-- parts are published again, as before.
alter table publish_parts add column content jsonb;
