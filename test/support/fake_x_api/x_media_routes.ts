/**
 * X's media upload state machine, as the fake X server serves it (x-api/media/*.mdx): initialize
 * answers an id and `expires_after_secs`, append stores segments, finalize answers
 * `processing_info` (pending with `check_after_secs` for GIFs and video, none for images),
 * STATUS moves pending -> in_progress -> succeeded as time passes, metadata stores alt text.
 * `POST /2/tweets` asks `attachable` before accepting `media.media_ids`.
 */
import type { Clock } from "../../../core/clock.ts";
import { invalidRequest, type XAnswer } from "./x_problems.ts";
import { ok, type Route } from "./x_route.ts";

/** The life of an upload here: one day, the fake's choice (X's chunked quickstart shows an answer of `expires_after_secs: 1295999`); tests move the clock past it. */
export const FAKE_MEDIA_EXPIRES_AFTER_SECS = 86_400;

/** One upload session. */
export interface FakeMediaUpload {
  id: string;
  userId: string;
  mediaType: string;
  category: string;
  totalBytes: number;
  segments: Map<number, number>;
  createdAt: number;
  finalizedAt?: number;
  altText?: string;
}

/** The uploads the fake holds, shared by the media routes and `POST /2/tweets`. */
export interface FakeXMedia {
  uploads: Map<string, FakeMediaUpload>;
  /** Uploads initialized so far (tests assert that a retry does not upload again). */
  initialized: number;
  /** Milliseconds on the fake's clock from finalize to each processing step of a GIF or video. */
  processingStepMs: number;
  /** Why `ids` cannot be attached to a post by `userId`, or undefined when they can. */
  refusal(ids: string[], userId: string): XAnswer | undefined;
}

/** Creates the fake's media store. */
export function createFakeXMedia(clock: Clock, processingStepMs = 1000): FakeXMedia {
  const media: FakeXMedia = {
    uploads: new Map(),
    initialized: 0,
    processingStepMs,
    refusal(ids, userId) {
      for (const id of ids) {
        const upload = media.uploads.get(id);
        if (!upload || upload.userId !== userId) return invalidRequest("media.media_ids", id, `Your media IDs are invalid.`);
        if (expired(upload, clock)) return invalidRequest("media.media_ids", id, `Media id ${id} has expired`);
        if (stateOf(upload, media, clock) !== "succeeded") return invalidRequest("media.media_ids", id, `Media id ${id} is not ready yet`);
      }
      return undefined;
    },
  };
  return media;
}

function asynchronous(upload: FakeMediaUpload): boolean {
  return upload.category !== "tweet_image";
}

function expired(upload: FakeMediaUpload, clock: Clock): boolean {
  return clock.now() >= upload.createdAt + FAKE_MEDIA_EXPIRES_AFTER_SECS * 1000;
}

function stateOf(upload: FakeMediaUpload, media: FakeXMedia, clock: Clock): "uploading" | "pending" | "in_progress" | "succeeded" {
  if (upload.finalizedAt === undefined) return "uploading";
  if (!asynchronous(upload)) return "succeeded";
  const elapsed = clock.now() - upload.finalizedAt;
  if (elapsed < media.processingStepMs) return "pending";
  if (elapsed < 2 * media.processingStepMs) return "in_progress";
  return "succeeded";
}

function dataOf(upload: FakeMediaUpload, media: FakeXMedia, clock: Clock): Record<string, unknown> {
  const left = Math.max(0, Math.floor((upload.createdAt + FAKE_MEDIA_EXPIRES_AFTER_SECS * 1000 - clock.now()) / 1000));
  const state = stateOf(upload, media, clock);
  const size = [...upload.segments.values()].reduce((sum, n) => sum + n, 0);
  return {
    id: upload.id,
    media_key: `${upload.category === "tweet_image" ? 3 : upload.category === "tweet_gif" ? 16 : 7}_${upload.id}`,
    size,
    expires_after_secs: left,
    ...(asynchronous(upload) && state !== "uploading"
      ? { processing_info: { state, ...(state === "succeeded" ? { progress_percent: 100 } : { check_after_secs: Math.ceil(media.processingStepMs / 1000) }) } }
      : {}),
  };
}

let nextId = 1_880_028_106_020_515_840n;

/** The media routes over `media`. */
export function mediaRoutes(media: FakeXMedia): Route[] {
  const owned = (id: string, userId: string | undefined) => {
    const upload = media.uploads.get(id);
    return upload && upload.userId === userId ? upload : undefined;
  };
  const missing = (id: string): XAnswer => invalidRequest("media_id", id, `Media id ${id} not found`);
  return [
    {
      method: "POST",
      pattern: /^\/2\/media\/upload\/initialize$/,
      userContext: true,
      async handle(c) {
        const body = c.body ?? {};
        const id = String(nextId++);
        media.initialized++;
        media.uploads.set(id, {
          id,
          userId: c.userId!,
          mediaType: String(body.media_type ?? ""),
          category: String(body.media_category ?? "tweet_image"),
          totalBytes: Number(body.total_bytes ?? 0),
          segments: new Map(),
          createdAt: c.clock.now(),
        });
        return ok({ data: { id, media_key: `3_${id}`, expires_after_secs: FAKE_MEDIA_EXPIRES_AFTER_SECS } });
      },
    },
    {
      method: "POST",
      pattern: /^\/2\/media\/upload\/(\d+)\/append$/,
      userContext: true,
      async handle(c) {
        const upload = owned(c.params[0], c.userId);
        if (!upload) return missing(c.params[0]);
        const bytes = Buffer.from(String(c.body?.media ?? ""), "base64").byteLength;
        upload.segments.set(Number(c.body?.segment_index), bytes);
        return ok({ data: { expires_at: Math.floor(upload.createdAt / 1000) + FAKE_MEDIA_EXPIRES_AFTER_SECS } });
      },
    },
    {
      method: "POST",
      pattern: /^\/2\/media\/upload\/(\d+)\/finalize$/,
      userContext: true,
      async handle(c) {
        const upload = owned(c.params[0], c.userId);
        if (!upload) return missing(c.params[0]);
        const size = [...upload.segments.values()].reduce((sum, n) => sum + n, 0);
        if (size !== upload.totalBytes)
          return invalidRequest("total_bytes", String(upload.totalBytes), `File size mismatch: received ${size} of ${upload.totalBytes} bytes`);
        upload.finalizedAt = c.clock.now();
        return ok({ data: dataOf(upload, media, c.clock) });
      },
    },
    {
      method: "GET",
      pattern: /^\/2\/media\/upload$/,
      userContext: true,
      async handle(c) {
        const id = c.url.searchParams.get("media_id") ?? "";
        const upload = owned(id, c.userId);
        if (!upload) return missing(id);
        return ok({ data: dataOf(upload, media, c.clock) });
      },
    },
    {
      method: "POST",
      pattern: /^\/2\/media\/metadata$/,
      userContext: true,
      async handle(c) {
        const id = String(c.body?.id ?? "");
        const upload = owned(id, c.userId);
        if (!upload) return missing(id);
        upload.altText = c.body?.metadata?.alt_text?.text;
        return ok({ data: { id, associated_metadata: true } });
      },
    },
  ];
}
