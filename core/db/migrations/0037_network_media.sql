-- Media uploaded to a network that hosts it itself (X: docs/x.md "Media on X"), per post part:
-- the network's media id and when it expires (X's `expires_after_secs`), so a retry within the
-- id's life attaches it again instead of uploading the file twice.
create table publish_part_network_media (
  post_id bigint not null references scheduled_posts (id) on delete cascade,
  publish_version integer not null,
  part_index integer not null,
  object_key text not null,
  network_media_id text not null,
  expires_at timestamptz,
  uploaded_at timestamptz not null,
  primary key (post_id, publish_version, part_index, object_key)
);
