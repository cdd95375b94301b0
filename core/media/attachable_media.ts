/**
 * Media a post may attach (spec: `parts[].media`; Errors: `invalid_media` "unknown or
 * foreign object_key", `media_not_uploaded` "presigned but bytes never uploaded, or empty
 * file"). Used by the scheduling service inside its create/update transaction.
 */
import type { Queryable } from "../db/sql.ts";
import { ApiError } from "../errors.ts";
import type { MediaStore } from "../ports/media_store.ts";
import { MAGIC_BYTES, checkStoredBytes, mediaTypeOf } from "./media_types.ts";
import { markAttached, markUploaded, uploadsByKeysForShare, type MediaUploadRow } from "./media_queries.ts";

/** What a post shows of one attached upload. */
export interface AttachableMedia {
  /** The real type of the bytes (the declared one, which a check has confirmed). */
  file_type: string;
  url: string;
}

/**
 * Answers each key's type and URL, or throws: `invalid_media` for a key that is unknown,
 * of another workspace or being purged; `media_not_configured` when no store is
 * configured; `media_not_uploaded` for bytes never uploaded or empty. With a store that
 * does not check bytes on upload (S3), the object is looked at here: its real size and
 * type are recorded, and a wrong type or size is refused with the spec's codes.
 * `options.baseUrl` is the caller's `/v1` base (`requestBaseUrl(ctx)`), for local URLs.
 */
export async function checkAttachableMedia(
  sql: Queryable,
  store: MediaStore | undefined,
  workspaceId: string,
  objectKeys: string[],
  options: { baseUrl?: string; now?: Date } = {},
): Promise<Map<string, AttachableMedia>> {
  const result = new Map<string, AttachableMedia>();
  if (objectKeys.length === 0) return result;
  const rows = new Map((await uploadsByKeysForShare(sql, objectKeys)).map((row) => [row.object_key, row]));
  for (const key of objectKeys) {
    const row = rows.get(key);
    // Another workspace's upload is indistinguishable from a missing one (ARCHITECTURE: ids).
    if (!row || row.workspace_id !== workspaceId || row.purge_started_at) {
      throw new ApiError("invalid_media", `Cannot find media "${key}"; upload it with POST /v1/media first`);
    }
  }
  if (!store) throw new ApiError("media_not_configured", "Media storage is not configured on this server (MEDIA_STORE is none)");
  const now = options.now ?? new Date();
  for (const key of objectKeys) {
    const row = rows.get(key)!;
    const fileType = await uploadedType(sql, store, row, now);
    result.set(key, { file_type: fileType, url: store.objectUrl(key, options.baseUrl) });
  }
  return result;
}

/**
 * Marks uploads attached (the purge of unattached uploads then keeps them). A key the
 * purge took meanwhile answers `invalid_media`, so the caller's transaction rolls back
 * rather than save a post with a deleted image.
 */
export async function markMediaAttached(sql: Queryable, objectKeys: string[], now: Date): Promise<void> {
  if (objectKeys.length === 0) return;
  const marked = new Set(await markAttached(sql, objectKeys, now));
  const lost = objectKeys.find((key) => !marked.has(key));
  if (lost !== undefined) throw new ApiError("invalid_media", `Cannot find media "${lost}"; upload it with POST /v1/media first`);
}

async function uploadedType(sql: Queryable, store: MediaStore, row: MediaUploadRow, now: Date): Promise<string> {
  const key = row.object_key;
  if (store.checksOnUpload) {
    if (!row.uploaded_at || !row.size) throw notUploaded(key);
    return row.detected_type ?? row.file_type;
  }
  // Checked once; looked at again while the upload URL still works, since the client may
  // PUT other bytes to it until then.
  if (row.uploaded_at && row.detected_type && now.getTime() >= row.upload_expires_at.getTime()) return row.detected_type;
  const stored = await store.head(key, MAGIC_BYTES);
  if (!stored) throw notUploaded(key);
  const real = checkStoredBytes(key, mediaTypeOf(row.file_type), stored.size, stored.head);
  await markUploaded(sql, key, { size: stored.size, detectedType: real.mime, at: now });
  return real.mime;
}

function notUploaded(key: string): ApiError {
  return new ApiError("media_not_uploaded", `Media "${key}" was never uploaded; PUT the bytes to its upload_url first`);
}
