/**
 * `POST /v1/media` (spec: POST /v1/media; Limits 10; Constants): announces an upload,
 * counts it against the key's 100 uploads per UTC day, and answers a presigned
 * `upload_url` valid 20 minutes and the `object_key` a post attaches.
 */
import { base64url, randomBytes } from "../crypto/random.ts";
import type { AccountContext } from "../context.ts";
import type { Queryable } from "../db/sql.ts";
import { ApiError, retryableError } from "../errors.ts";
import { windowStart } from "../ports/counters.ts";
import { assertMediaSize, mediaTypeOf } from "./media_types.ts";
import type { MediaUpload, MediaUploadInput } from "./media_schema.ts";
import { countKeyUploadsSince, insertUpload, lockKeyUploads } from "./media_queries.ts";
import { requestBaseUrl } from "./media_urls.ts";
import { DAY_SECONDS } from "../time/durations.ts";

/** Uploads accepted per API key per UTC day (spec Limits 10; Authentication 9: "counted per key"). */
export const UPLOADS_PER_KEY_PER_DAY = 100;

/** How long an upload URL works (spec Constants: "Presigned upload validity 20 minutes"). */
export const UPLOAD_URL_TTL_MS = 20 * 60 * 1000;

/**
 * Checks the declared type and size, takes one unit of the key's daily quota and records
 * the upload; refusals (`unsupported_media_type`, `media_too_large`) are not counted
 * (ARCHITECTURE: uploads count "when POST /v1/media is accepted").
 */
export async function createUpload(ctx: AccountContext, input: MediaUploadInput): Promise<{ data: MediaUpload }> {
  const store = ctx.services.media;
  if (!store) throw new ApiError("media_not_configured", "Media storage is not configured on this server (MEDIA_STORE is none)");
  const type = mediaTypeOf(input.file_type);
  assertMediaSize(type, input.size, `The file "${input.filename}"`);
  const nowMs = ctx.services.clock.now();
  const createdAt = new Date(nowMs);
  const expiresAt = new Date(nowMs + UPLOAD_URL_TTL_MS);
  const objectKey = newObjectKey(type.extension);
  const apiKeyId = ctx.principal.key.id;
  await ctx.services.sql.begin(async (tx) => {
    await takeUploadUnit(tx, apiKeyId, nowMs);
    await insertUpload(tx, {
      objectKey,
      workspaceId: ctx.account.workspaceId,
      accountId: ctx.account.id,
      apiKeyId,
      filename: input.filename,
      fileType: type.mime,
      size: input.size,
      expiresAt,
      createdAt,
    });
  });
  const baseUrl = requestBaseUrl(ctx);
  const uploadUrl = await store.presignUpload({ objectKey, contentType: type.mime, size: input.size, issuedAt: createdAt, expiresAt, baseUrl });
  return {
    data: {
      object_key: objectKey,
      upload_url: uploadUrl,
      upload_method: "PUT",
      upload_headers: { "Content-Type": type.mime },
      url: store.objectUrl(objectKey, baseUrl),
      expires_at: expiresAt.toISOString(),
      filename: input.filename,
      file_type: type.mime,
      size: input.size,
      account_id: ctx.account.id,
    },
  };
}

/** 128 random bits, URL-safe, plus the type's extension: unguessable, so the object URL can be public. */
export function newObjectKey(extension: string): string {
  return `${base64url(randomBytes(16))}.${extension}`;
}

/**
 * Locks the key's upload count until the transaction ends and refuses past the daily
 * quota; the caller then inserts the upload in the same transaction. The count lives in
 * PostgreSQL beside the uploads it counts (ARCHITECTURE: quotas are money-like state), so
 * it is exact across processes and cannot be lost with Redis.
 */
export async function takeUploadUnit(tx: Queryable, apiKeyId: number, nowMs: number): Promise<void> {
  await lockKeyUploads(tx, apiKeyId);
  await assertUploadQuotaLeft(tx, apiKeyId, nowMs);
}

/** `429 media_quota_exceeded` when the key used its uploads of the UTC day (a check only: takes nothing). */
export async function assertUploadQuotaLeft(sql: Queryable, apiKeyId: number, nowMs: number): Promise<void> {
  const dayStart = windowStart(nowMs, DAY_SECONDS);
  const used = await countKeyUploadsSince(sql, apiKeyId, new Date(dayStart * 1000));
  if (used >= UPLOADS_PER_KEY_PER_DAY) throw quotaExceeded(dayStart + DAY_SECONDS, nowMs);
}

function quotaExceeded(resetAt: number, nowMs: number): ApiError {
  const reset = new Date(resetAt * 1000).toISOString().replace(".000Z", "Z");
  const message = `Media upload quota used (${UPLOADS_PER_KEY_PER_DAY} uploads per API key per UTC day); resets at "${reset}"`;
  return retryableError("media_quota_exceeded", message, resetAt - nowMs / 1000, { limit: UPLOADS_PER_KEY_PER_DAY, reset_at: resetAt });
}
