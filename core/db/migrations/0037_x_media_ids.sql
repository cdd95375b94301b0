-- Media uploaded to X for a scheduled post (docs/x.md "Media on X"). X attaches a file to a post
-- by the media id its upload answers, and that id lasts `expires_after_secs`
-- (x-api/media/quickstart/media-upload-chunked.mdx). One row per file of a part of a
-- publication, so a retry within the id's life attaches the same id instead of uploading
-- again, and an expired id is uploaded again (the row is replaced).
create table x_media_ids (
  post_id bigint not null references scheduled_posts (id) on delete cascade,
  publish_version integer not null,
  part_index integer not null,
  object_key text not null,
  x_media_id text not null,
  uploaded_at timestamptz not null,
  expires_at timestamptz not null,
  primary key (post_id, publish_version, part_index, object_key)
);
