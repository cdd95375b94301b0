/** SQL for media uploads (table `media_uploads`, migrations 0010 and 0011). */
import type { Queryable } from "../db/sql.ts";

/** An upload row. */
export interface MediaUploadRow {
  object_key: string;
  workspace_id: string;
  account_id: string;
  api_key_id: number | null;
  filename: string;
  file_type: string;
  declared_size: number;
  size: number | null;
  detected_type: string | null;
  uploaded_at: Date | null;
  upload_expires_at: Date;
  attached_at: Date | null;
  purge_started_at: Date | null;
  created_at: Date;
}

/**
 * The advisory-lock namespace of the per-key upload quota (ASCII "tlmq"); the two-key
 * form keeps it apart from every one-key lock and from other namespaces.
 */
const QUOTA_LOCK_NAMESPACE = 0x746c6d71;

/**
 * Serialises quota checks of one API key until the transaction ends: without it two
 * requests could both count 99 and both insert (spec Limits 10: 100 per key per day).
 */
export async function lockKeyUploads(sql: Queryable, apiKeyId: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(${QUOTA_LOCK_NAMESPACE}::int, hashtext(${apiKeyId}::text))`;
}

/** Uploads accepted for `apiKeyId` since `since` (the start of the UTC day). */
export async function countKeyUploadsSince(sql: Queryable, apiKeyId: number, since: Date): Promise<number> {
  const [{ count }] = await sql<{ count: number }[]>`
    select count(*)::int as count from media_uploads where api_key_id = ${apiKeyId} and created_at >= ${since}`;
  return count;
}

/** Records an upload announced by `POST /v1/media`. */
export async function insertUpload(
  sql: Queryable,
  upload: {
    objectKey: string;
    workspaceId: string;
    accountId: string;
    apiKeyId: number | null;
    filename: string;
    fileType: string;
    size: number;
    expiresAt: Date;
    createdAt: Date;
  },
): Promise<void> {
  await sql`
    insert into media_uploads (object_key, workspace_id, account_id, api_key_id, filename, file_type, declared_size, upload_expires_at, created_at)
    values (${upload.objectKey}, ${upload.workspaceId}, ${upload.accountId}, ${upload.apiKeyId}, ${upload.filename}, ${upload.fileType},
            ${upload.size}, ${upload.expiresAt}, ${upload.createdAt})`;
}

/** One upload by key, or undefined. */
export async function uploadByKey(sql: Queryable, objectKey: string): Promise<MediaUploadRow | undefined> {
  const [row] = await sql<MediaUploadRow[]>`select * from media_uploads where object_key = ${objectKey}`;
  return row;
}

/**
 * The uploads of `objectKeys`, share-locked until the caller's transaction ends: a purge
 * claim (`for update skip locked`) then passes them over, so a post attaching a key and
 * the purge deleting it cannot both win.
 */
export async function uploadsByKeysForShare(sql: Queryable, objectKeys: readonly string[]): Promise<MediaUploadRow[]> {
  return sql<MediaUploadRow[]>`select * from media_uploads where object_key = any(${objectKeys as string[]}::text[]) for share`;
}

/** Records what the store really holds once the bytes were checked. */
export async function markUploaded(sql: Queryable, objectKey: string, stored: { size: number; detectedType: string; at: Date }): Promise<void> {
  await sql`
    update media_uploads set uploaded_at = ${stored.at}, size = ${stored.size}, detected_type = ${stored.detectedType}
     where object_key = ${objectKey}`;
}

/** Sets `attached_at` (first attachment only) on uploads not being purged; answers the keys marked. */
export async function markAttached(sql: Queryable, objectKeys: readonly string[], at: Date): Promise<string[]> {
  const rows = await sql<{ object_key: string }[]>`
    update media_uploads set attached_at = coalesce(attached_at, ${at})
     where object_key = any(${objectKeys as string[]}::text[]) and purge_started_at is null
    returning object_key`;
  return rows.map((row) => row.object_key);
}

/**
 * Marks up to `limit` uploads never attached and created before `cutoff` as being purged
 * and answers their keys (rows a previous run marked but could not finish come back too).
 * `skip locked` passes over rows a post is attaching right now.
 */
export async function claimUnattachedUploads(sql: Queryable, cutoff: Date, now: Date, limit: number): Promise<string[]> {
  const rows = await sql<{ object_key: string }[]>`
    update media_uploads set purge_started_at = coalesce(purge_started_at, ${now})
     where object_key in (
       select object_key from media_uploads
        where attached_at is null and created_at < ${cutoff}
        order by created_at limit ${limit}
        for update skip locked)
    returning object_key`;
  return rows.map((row) => row.object_key);
}

/** Deletes upload rows being purged; answers how many went. */
export async function deletePurgedUploads(sql: Queryable, objectKeys: readonly string[]): Promise<number> {
  if (objectKeys.length === 0) return 0;
  const result = await sql`
    delete from media_uploads where object_key = any(${objectKeys as string[]}::text[]) and purge_started_at is not null and attached_at is null`;
  return result.count;
}
