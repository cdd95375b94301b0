/** The network media ids of post parts (publish_part_network_media, migration 0037). */
import type { Queryable } from "../db/sql.ts";

/** Where a file of a post part was uploaded. */
export interface PartMediaKey {
  postId: number;
  version: number;
  partIndex: number;
  objectKey: string;
}

/** One recorded upload. */
export interface NetworkMediaRow {
  network_media_id: string;
  expires_at: Date | null;
}

/** The network's id for the file, when one was recorded. */
export async function networkMediaOf(sql: Queryable, key: PartMediaKey): Promise<NetworkMediaRow | undefined> {
  const [row] = await sql<NetworkMediaRow[]>`
    select network_media_id, expires_at from publish_part_network_media
    where post_id = ${key.postId} and publish_version = ${key.version} and part_index = ${key.partIndex} and object_key = ${key.objectKey}`;
  return row;
}

/** Records (or replaces, after an expired id was uploaded again) the network's id for the file. */
export async function recordNetworkMedia(sql: Queryable, key: PartMediaKey, upload: { mediaId: string; expiresAt: Date | null; at: Date }): Promise<void> {
  await sql`
    insert into publish_part_network_media (post_id, publish_version, part_index, object_key, network_media_id, expires_at, uploaded_at)
    values (${key.postId}, ${key.version}, ${key.partIndex}, ${key.objectKey}, ${upload.mediaId}, ${upload.expiresAt}, ${upload.at})
    on conflict (post_id, publish_version, part_index, object_key)
    do update set network_media_id = excluded.network_media_id, expires_at = excluded.expires_at, uploaded_at = excluded.uploaded_at`;
}
