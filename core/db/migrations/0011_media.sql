-- Issue 5, media: what the upload store needs beyond media_uploads (0010).

-- Installation-wide secrets, created by the first process that needs one. The local media
-- store signs its upload URLs with `media_upload_signing`, so every server process on one
-- database accepts the URLs any of them issued (MEDIA_SIGNING_SECRET overrides it).
create table instance_secrets (
  name text primary key,
  value text not null,
  created_at timestamptz not null default now()
);

-- Set by the purge of unattached uploads before it deletes the stored object, so a post
-- can no longer attach the key, and a purge interrupted between deleting the object and
-- the row finishes on its next run.
alter table media_uploads add column purge_started_at timestamptz;
