/**
 * The S3-compatible media store (AWS S3, MinIO, Cloudflare R2, Ceph...): the client PUTs
 * straight to the bucket through a presigned URL, so the bytes are checked when a post
 * first attaches the key (core/media/attachable_media.ts). Every request is signed with
 * SigV4 (sigv4.ts); no AWS SDK.
 */
import { ApiError } from "../../core/errors.ts";
import type { MediaStore, StoredObjectHead, UploadTarget } from "../../core/ports/media_store.ts";
import { presignUrl, sha256Hex, signHeaders, type SigV4Credentials, uriEncode } from "./sigv4.ts";
import { DAY_MS } from "../../core/time/durations.ts";

/** Where the bucket is and who may write to it. */
export interface S3MediaStoreOptions {
  /** `https://s3.us-east-1.amazonaws.com`, `https://<account>.r2.cloudflarestorage.com`, `http://127.0.0.1:9000`... */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Public base of the objects (a CDN or a public bucket). Absent: object URLs are presigned GETs valid 7 days. */
  publicUrl?: string;
  /** `https://endpoint/bucket/key` (default, what MinIO and R2 expect) instead of `https://bucket.endpoint/key`. */
  pathStyle?: boolean;
  /** Bound on one request to the store in ms (default 10 000). */
  timeoutMs?: number;
}

/** SigV4's longest presigned URL life (7 days): object URLs without `publicUrl` use it. */
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

/** Opens the store; nothing is contacted until the first request. */
export function createS3MediaStore(options: S3MediaStoreOptions): MediaStore {
  const credentials: SigV4Credentials = {
    accessKeyId: options.accessKeyId,
    secretAccessKey: options.secretAccessKey,
    region: options.region,
    service: "s3",
  };
  const pathStyle = options.pathStyle ?? true;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const objectUrlOf = (objectKey: string): URL => {
    const endpoint = new URL(options.endpoint);
    const base = endpoint.pathname.replace(/\/+$/, "");
    if (pathStyle) return new URL(`${endpoint.origin}${base}/${uriEncode(options.bucket)}/${uriEncode(objectKey, true)}`);
    return new URL(`${endpoint.protocol}//${options.bucket}.${endpoint.host}${base}/${uriEncode(objectKey, true)}`);
  };

  /** One signed request; answers the response, or `502 upstream_error` when the store cannot be reached. */
  const send = async (method: string, objectKey: string, init: { headers?: Record<string, string>; body?: Uint8Array } = {}): Promise<Response> => {
    const url = objectUrlOf(objectKey);
    const payloadHash = init.body ? sha256Hex(init.body) : sha256Hex("");
    const headers = { ...init.headers, ...signHeaders({ method, url, headers: init.headers, payloadHash, at: new Date(), credentials }) };
    try {
      return await fetch(url, { method, headers, body: init.body as BodyInit | undefined, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new ApiError("upstream_error", `The media store could not be reached (${method} "${objectKey}"): ${(error as Error).message}`);
    }
  };
  const failure = async (response: Response, what: string): Promise<ApiError> => {
    const text = await response.text().catch(() => "");
    const code = /<Code>([^<]+)<\/Code>/.exec(text)?.[1] ?? `HTTP ${response.status}`;
    return new ApiError("upstream_error", `The media store refused ${what}: "${code}"`);
  };

  return {
    kind: "s3",
    checksOnUpload: false,
    async presignUpload(target: UploadTarget) {
      const expiresSeconds = Math.max(1, Math.round((target.expiresAt.getTime() - target.issuedAt.getTime()) / 1000));
      // Type and length are signed, so the bucket refuses other ones (the 5MB/15MB bound
      // holds at the store, not only when the key is attached).
      const headers = { "content-type": target.contentType, "content-length": String(target.size) };
      return presignUrl({ method: "PUT", url: objectUrlOf(target.objectKey), headers, expiresSeconds, at: target.issuedAt, credentials });
    },
    objectUrl(objectKey) {
      if (options.publicUrl) return `${options.publicUrl.replace(/\/+$/, "")}/${uriEncode(objectKey, true)}`;
      // Dated at the start of the UTC day: the same URL all day (cacheable), valid 6 to 7 days.
      const day = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS);
      return presignUrl({ method: "GET", url: objectUrlOf(objectKey), expiresSeconds: MAX_PRESIGN_SECONDS, at: day, credentials });
    },
    async head(objectKey, bytes): Promise<StoredObjectHead | undefined> {
      const response = await send("GET", objectKey, { headers: { range: `bytes=0-${Math.max(0, bytes - 1)}` } });
      if (response.status === 404) {
        await response.body?.cancel();
        return undefined;
      }
      // An empty object has no byte 0: S3 answers 416 to the range.
      if (response.status === 416) {
        await response.body?.cancel();
        return { size: 0, head: new Uint8Array(0) };
      }
      if (response.status !== 200 && response.status !== 206) throw await failure(response, `reading "${objectKey}"`);
      const head = new Uint8Array(await response.arrayBuffer()).subarray(0, bytes);
      const range = /\/(\d+)\s*$/.exec(response.headers.get("content-range") ?? "");
      const size = response.status === 206 && range ? Number(range[1]) : Number(response.headers.get("content-length") ?? head.length);
      return { size, head };
    },
    async read(objectKey) {
      const response = await send("GET", objectKey);
      if (response.status === 404) {
        await response.body?.cancel();
        return undefined;
      }
      if (!response.ok) throw await failure(response, `reading "${objectKey}"`);
      return new Uint8Array(await response.arrayBuffer());
    },
    async put(objectKey, bytes, contentType) {
      const response = await send("PUT", objectKey, { headers: { "content-type": contentType }, body: bytes });
      if (!response.ok) throw await failure(response, `storing "${objectKey}"`);
      await response.body?.cancel();
    },
    async delete(objectKey) {
      const response = await send("DELETE", objectKey);
      // S3 answers 204 whether or not the key existed; some compatibles answer 404.
      if (!response.ok && response.status !== 404) throw await failure(response, `deleting "${objectKey}"`);
      await response.body?.cancel();
    },
    async close() {},
  };
}
