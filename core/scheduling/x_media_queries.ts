/** SQL for the network media ids of a publication's files (`x_media_ids`, migration 0037). */
import type { Queryable } from "../db/sql.ts";

/** Which file of which part of which publication. */
export interface MediaFileRef {
  postId: number;
  version: number;
  partIndex: number;
  objectKey: string;
}

/** The network media id stored for a file, while it is good after `validAfter`. */
export async function liveMediaId(sql: Queryable, ref: MediaFileRef, validAfter: Date): Promise<string | undefined> {
  const [row] = await sql<{ x_media_id: string }[]>`
    select x_media_id from x_media_ids
    where post_id = ${ref.postId} and publish_version = ${ref.version} and part_index = ${ref.partIndex}
      and object_key = ${ref.objectKey} and expires_at > ${validAfter}`;
  return row?.x_media_id;
}

/** Stores (or replaces) the network media id of a file. */
export async function storeMediaId(sql: Queryable, ref: MediaFileRef, uploaded: { mediaId: string; expiresAt: Date; at: Date }): Promise<void> {
  await sql`
    insert into x_media_ids (post_id, publish_version, part_index, object_key, x_media_id, uploaded_at, expires_at)
    values (${ref.postId}, ${ref.version}, ${ref.partIndex}, ${ref.objectKey}, ${uploaded.mediaId}, ${uploaded.at}, ${uploaded.expiresAt})
    on conflict (post_id, publish_version, part_index, object_key)
    do update set x_media_id = excluded.x_media_id, uploaded_at = excluded.uploaded_at, expires_at = excluded.expires_at`;
}
