/**
 * `POST /v1/media/from-url` and the MCP tool `upload_media_from_url` (spec Errors:
 * `url_not_allowed`, `fetch_failed`; Limits 10): downloads an image through the guarded
 * outbound client and stores it as an upload, with the rules of `POST /v1/media` checked
 * on the real bytes. The key's daily quota is checked before the download (a refused
 * key costs nobody a fetch) and taken, under the key's lock, in the transaction that
 * records the upload; an object stored for a refused upload is deleted again.
 */
import type { AccountContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { FetchFailedError, UrlNotAllowedError } from "../outbound/outbound.ts";
import { assertUploadQuotaLeft, newObjectKey, takeUploadUnit } from "./create_upload.ts";
import { insertUpload, markUploaded } from "./media_queries.ts";
import type { MediaFromUrlInput, StoredMedia } from "./media_schema.ts";
import { MEDIA_TYPES, type MediaType, assertMediaSize, detectMediaType } from "./media_types.ts";
import { requestBaseUrl } from "./media_urls.ts";

/** Bytes read before the download is refused: the largest type's bound (GIF, 15MB). */
export const MAX_DOWNLOAD_BYTES = Math.max(...Object.values(MEDIA_TYPES).map((type) => type.maxBytes));

/** Downloads, checks and stores the image `input.url` names. */
export async function uploadFromUrl(ctx: AccountContext, input: MediaFromUrlInput): Promise<{ data: StoredMedia }> {
  const store = ctx.services.media;
  if (!store) throw new ApiError("media_not_configured", "Media storage is not configured on this server (MEDIA_STORE is none)");
  const { sql, clock, outbound } = ctx.services;
  const apiKeyId = ctx.principal.key.id;
  await assertUploadQuotaLeft(sql, apiKeyId, clock.now());
  const response = await outbound
    .get(input.url, { maxBytes: MAX_DOWNLOAD_BYTES, accept: "image/jpeg,image/png,image/webp,image/gif" })
    .catch((error: unknown) => {
      if (error instanceof UrlNotAllowedError) throw new ApiError("url_not_allowed", error.message);
      if (error instanceof FetchFailedError) throw new ApiError("fetch_failed", `Cannot download the image: ${error.message}`);
      throw error;
    });
  if (response.status < 200 || response.status > 299)
    throw new ApiError("fetch_failed", `Cannot download the image: "${response.url}" answered HTTP ${response.status}`);
  if (response.body.length === 0) throw new ApiError("fetch_failed", `Cannot download the image: "${response.url}" answered an empty body`);
  const type = detectMediaType(response.body);
  if (!type)
    throw new ApiError("unsupported_media_type", `"${response.url}" is not a JPG, PNG, WEBP or GIF image (its bytes say otherwise; videos are not supported)`);
  assertMediaSize(type, response.body.length, `The image at "${response.url}"`);
  const filename = input.filename ?? defaultFilename(response.url, type);
  const objectKey = newObjectKey(type.extension);
  await store.put(objectKey, response.body, type.mime);
  const nowMs = clock.now();
  const at = new Date(nowMs);
  try {
    await sql.begin(async (tx) => {
      await takeUploadUnit(tx, apiKeyId, nowMs);
      const upload = { objectKey, workspaceId: ctx.account.workspaceId, accountId: ctx.account.id, apiKeyId, filename, fileType: type.mime };
      await insertUpload(tx, { ...upload, size: response.body.length, expiresAt: at, createdAt: at });
      await markUploaded(tx, objectKey, { size: response.body.length, detectedType: type.mime, at });
    });
  } catch (error) {
    await store.delete(objectKey).catch(() => {});
    throw error;
  }
  return {
    data: {
      object_key: objectKey,
      url: store.objectUrl(objectKey, requestBaseUrl(ctx)),
      source_url: response.url,
      filename,
      file_type: type.mime,
      size: response.body.length,
      uploaded_at: at.toISOString(),
      account_id: ctx.account.id,
    },
  };
}

/** The URL's last path segment without its extension (or `image`), with the real type's extension. */
function defaultFilename(address: string, type: MediaType): string {
  const segment = new URL(address).pathname.split("/").filter(Boolean).at(-1) ?? "";
  let name = "";
  try {
    name = decodeURIComponent(segment);
  } catch {
    name = segment;
  }
  const stem = name
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
    .replace(/[/\\\u0000-\u001f\u007f]/g, "")
    .replace(/\.[A-Za-z0-9]{1,5}$/, "")
    .trim()
    .slice(0, 200);
  return `${stem || "image"}.${type.extension}`;
}
