/**
 * The bytes of an upload arriving at this server's signed PUT route (local store). The
 * client sends them with `Content-Type` equal to `file_type` and no Authorization header
 * (supplement: Media); the signature in the URL is the authorization. The bytes are
 * checked before anything is stored: a wrong real type, more bytes than declared or an
 * empty body is refused with the spec's codes and the store keeps nothing.
 */
import type { Services } from "../context.ts";
import { ApiError } from "../errors.ts";
import { MAGIC_BYTES, checkStoredBytes, mediaTypeOf } from "./media_types.ts";
import { markUploaded, uploadByKey } from "./media_queries.ts";

/** The shape of object keys `POST /v1/media` issues (128 random bits, base64url, extension). */
export const OBJECT_KEY = /^[A-Za-z0-9_-]{22}\.(?:jpg|png|webp|gif)$/;

/** A PUT to an upload URL, as the HTTP adapter read it. */
export interface UploadRequest {
  objectKey: string;
  /** `expires` query value: Unix seconds. */
  expires: string | null;
  signature: string | null;
  contentType: string | null;
  contentLength: string | null;
  body: ReadableStream<Uint8Array> | null;
}

/** Checks and stores the bytes; answers what was stored. */
export async function acceptUpload(services: Services, request: UploadRequest) {
  const store = services.media;
  if (!store) throw new ApiError("media_not_configured", "Media storage is not configured on this server (MEDIA_STORE is none)");
  if (!store.verifyUploadSignature) throw new ApiError("not_found", "This server takes no direct uploads: PUT to the upload_url POST /v1/media answered");
  const { objectKey } = request;
  const expires = Number(request.expires);
  if (!OBJECT_KEY.test(objectKey) || !request.signature || !Number.isSafeInteger(expires)) {
    throw new ApiError("unauthorized", "This upload URL is incomplete; use the upload_url POST /v1/media answered, unchanged");
  }
  const row = await uploadByKey(services.sql, objectKey);
  if (!row || row.purge_started_at) throw new ApiError("invalid_media", `Cannot find media "${objectKey}"; announce it with POST /v1/media first`);
  const signed = { objectKey, contentType: row.file_type, size: row.declared_size, expiresAtSeconds: expires };
  if (!store.verifyUploadSignature(signed, request.signature)) {
    throw new ApiError("unauthorized", "The upload URL's signature does not match; use the upload_url POST /v1/media answered, unchanged");
  }
  const now = services.clock.now();
  if (now >= expires * 1000) {
    const at = new Date(expires * 1000).toISOString();
    throw new ApiError("unauthorized", `The upload URL expired at "${at}" (upload URLs work 20 minutes); ask POST /v1/media for a new one`);
  }
  if (row.attached_at) throw new ApiError("invalid_media", `Media "${objectKey}" is attached to a post and can no longer change; upload a new file`);
  const declared = mediaTypeOf(row.file_type);
  const contentType = (request.contentType ?? "").split(";")[0].trim().toLowerCase();
  if (contentType !== declared.mime) {
    throw new ApiError("unsupported_media_type", `Content-Type "${contentType}" differs from the "${declared.mime}" declared for media "${objectKey}"`);
  }
  const length = request.contentLength === null ? undefined : Number(request.contentLength);
  if (length !== undefined && length > row.declared_size) throw tooManyBytes(objectKey, length, row.declared_size);
  const bytes = await readAtMost(request.body, row.declared_size);
  if (bytes === undefined) throw tooManyBytes(objectKey, undefined, row.declared_size);
  if (bytes.length === 0) throw new ApiError("media_not_uploaded", `The upload of media "${objectKey}" is empty; PUT the file's bytes`);
  const real = checkStoredBytes(objectKey, declared, bytes.length, bytes.subarray(0, MAGIC_BYTES));
  if (bytes.length !== row.declared_size) {
    throw new ApiError("invalid_parameter", `The upload of media "${objectKey}" has ${bytes.length} bytes but "size" declared ${row.declared_size}`);
  }
  await store.put(objectKey, bytes, real.mime);
  const uploadedAt = new Date(now);
  await markUploaded(services.sql, objectKey, { size: bytes.length, detectedType: real.mime, at: uploadedAt });
  return { data: { object_key: objectKey, file_type: real.mime, size: bytes.length, uploaded_at: uploadedAt.toISOString() } };
}

/** The stored bytes of an uploaded object and their type, for the object URL; `404 not_found` otherwise. */
export async function uploadedObject(services: Services, objectKey: string): Promise<{ bytes: Uint8Array; contentType: string }> {
  const notFound = new ApiError("not_found", `Cannot find media "${objectKey}"`);
  const store = services.media;
  if (!store || !OBJECT_KEY.test(objectKey)) throw notFound;
  const row = await uploadByKey(services.sql, objectKey);
  if (!row?.uploaded_at || !row.detected_type) throw notFound;
  const bytes = await store.read(objectKey);
  if (!bytes) throw notFound;
  return { bytes, contentType: row.detected_type };
}

function tooManyBytes(objectKey: string, length: number | undefined, declared: number): ApiError {
  const sent = length === undefined ? "more bytes than" : `${length} bytes, more than`;
  return new ApiError("media_too_large", `The upload of media "${objectKey}" sent ${sent} the ${declared} declared in "size"`);
}

/** The whole body, or undefined as soon as it passes `limit` bytes (never buffers more). */
async function readAtMost(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array | undefined> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}
