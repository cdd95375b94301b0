/**
 * The media upload endpoints of the fake X API, as X API v2 documents them
 * (`x-api/media/quickstart/media-upload-chunked.mdx` and the pages of each step):
 * `POST /2/media/upload/initialize` answers an id and `expires_after_secs`, `POST
 * /2/media/upload/:id/append` stores a segment (`segment_index`, `media` base64 in JSON),
 * `POST /2/media/upload/:id/finalize` answers `processing_info` (`pending`, `check_after_secs`)
 * for a GIF or video and none for an image, `GET /2/media/upload?command=STATUS&media_id=`
 * moves a processed file `pending` -> `in_progress` -> `succeeded` one check at a time, and
 * `POST /2/media/metadata` stores alt text. `POST /2/tweets` (x_write_routes.ts) asks
 * `attachable` before it attaches ids.
 */
import type { Clock } from "../../../core/clock.ts";
import { FakeParameterError, type XAnswer } from "./x_problems.ts";
import { ok, type Route } from "./x_route.ts";

/** `openapi.json` `InitializeMediaUploadRequest.media_category` and `media_type` (the ones a post uses). */
const CATEGORIES = new Set(["tweet_image", "tweet_gif", "tweet_video", "amplify_video"]);
const MEDIA_TYPES = new Set([
  "image/jpeg",
  "image/gif",
  "image/png",
  "image/webp",
  "image/bmp",
  "image/pjpeg",
  "image/tiff",
  "video/mp4",
  "video/webm",
  "video/quicktime",
]);

/** One upload the fake holds. */
export interface FakeXMediaItem {
  id: string;
  userId: string;
  mediaType: string;
  category: string;
  totalBytes: number;
  segments: Map<number, Buffer>;
  state: "uploading" | "pending" | "in_progress" | "succeeded";
  expiresAtMs: number;
  altText?: string;
}

/** The fake's uploads, for tests to look at. */
export interface FakeXMedia {
  /** Uploads started (`initialize` calls answered). */
  uploads: number;
  items: Map<string, FakeXMediaItem>;
  /** Why `id` cannot be attached by `userId` now, or undefined when it can. */
  refusal(id: string, userId: string): string | undefined;
}

/** Creates the store; ids last `expiresAfterSecs` (the quickstart's finalize example: 86400). */
export function createFakeXMedia(clock: Clock, expiresAfterSecs = 86_400): FakeXMedia & { expiresAfterSecs: number } {
  const items = new Map<string, FakeXMediaItem>();
  return {
    uploads: 0,
    items,
    expiresAfterSecs,
    refusal(id, userId) {
      const item = items.get(id);
      if (!item || item.userId !== userId) return `Media id ${id} is not known`;
      if (item.expiresAtMs <= clock.now()) return `Media id ${id} has expired`;
      if (item.state !== "succeeded") return `Media id ${id} is not ready (${item.state})`;
      return undefined;
    },
  };
}

const invalid = (parameter: string, value: unknown, message: string) => new FakeParameterError(parameter, String(value), message);

/** The media routes over `media`. */
export function mediaRoutes(media: ReturnType<typeof createFakeXMedia>, clock: Clock): Route[] {
  const owned = (id: string, userId: string | undefined): FakeXMediaItem => {
    const item = media.items.get(id);
    if (!item || item.userId !== userId) throw invalid("id", id, `Media id ${id} is not known`);
    return item;
  };
  const data = (item: FakeXMediaItem) => ({
    id: item.id,
    media_key: `${item.category === "tweet_image" ? 3 : item.category === "tweet_gif" ? 16 : 7}_${item.id}`,
    expires_after_secs: Math.max(0, Math.floor((item.expiresAtMs - clock.now()) / 1000)),
    ...(item.state === "succeeded" && item.category === "tweet_image" ? {} : item.state === "uploading" ? {} : { processing_info: processingInfo(item) }),
  });
  const processingInfo = (item: FakeXMediaItem) =>
    item.state === "succeeded"
      ? { state: "succeeded", progress_percent: 100 }
      : { state: item.state, check_after_secs: 1, progress_percent: item.state === "pending" ? 0 : 50 };
  return [
    {
      method: "POST",
      pattern: /^\/2\/media\/upload\/initialize$/,
      userContext: true,
      async handle(c): Promise<XAnswer> {
        const body = c.body ?? {};
        if (!MEDIA_TYPES.has(body.media_type)) throw invalid("media_type", body.media_type, "The `media_type` field is not a supported media type");
        if (!Number.isInteger(body.total_bytes) || body.total_bytes <= 0)
          throw invalid("total_bytes", body.total_bytes, "The `total_bytes` field must be a positive integer");
        const category =
          body.media_category ?? (body.media_type === "image/gif" ? "tweet_gif" : String(body.media_type).startsWith("video/") ? "tweet_video" : "tweet_image");
        if (!CATEGORIES.has(category)) throw invalid("media_category", category, "The `media_category` field is not a supported category");
        media.uploads++;
        const id = String(1_880_000_000_000_000_000n + BigInt(media.items.size + 1));
        const item: FakeXMediaItem = {
          id,
          userId: c.userId!,
          mediaType: body.media_type,
          category,
          totalBytes: body.total_bytes,
          segments: new Map(),
          state: "uploading",
          expiresAtMs: clock.now() + media.expiresAfterSecs * 1000,
        };
        media.items.set(id, item);
        return ok({ data: { id, media_key: data(item).media_key, expires_after_secs: media.expiresAfterSecs } });
      },
    },
    {
      method: "POST",
      pattern: /^\/2\/media\/upload\/(\d+)\/append$/,
      userContext: true,
      async handle(c) {
        const item = owned(c.params[0], c.userId);
        if (item.state !== "uploading") throw invalid("id", item.id, `Media id ${item.id} is already finalized`);
        const index = c.body?.segment_index;
        if (!Number.isInteger(index) || index < 0 || index > 999) throw invalid("segment_index", index, "The `segment_index` field must be between 0 and 999");
        if (typeof c.body?.media !== "string" || c.body.media === "") throw invalid("media", "", "The `media` field is required");
        item.segments.set(index, Buffer.from(c.body.media, "base64"));
        return ok({ data: { expires_at: Math.floor(item.expiresAtMs / 1000) } });
      },
    },
    {
      method: "POST",
      pattern: /^\/2\/media\/upload\/(\d+)\/finalize$/,
      userContext: true,
      async handle(c) {
        const item = owned(c.params[0], c.userId);
        const size = [...item.segments.values()].reduce((sum, segment) => sum + segment.length, 0);
        if (size !== item.totalBytes) throw invalid("id", item.id, `Media id ${item.id} has ${size} of ${item.totalBytes} bytes`);
        // An image is ready at once; a GIF or video is processed asynchronously.
        item.state = item.category === "tweet_image" ? "succeeded" : "pending";
        return ok({ data: { ...data(item), size } });
      },
    },
    {
      method: "GET",
      pattern: /^\/2\/media\/upload$/,
      userContext: true,
      async handle(c) {
        if (c.url.searchParams.get("command") !== "STATUS")
          throw invalid("command", c.url.searchParams.get("command"), "The `command` parameter must be STATUS");
        const item = owned(c.url.searchParams.get("media_id") ?? "", c.userId);
        if (item.state === "pending") item.state = "in_progress";
        else if (item.state === "in_progress") item.state = "succeeded";
        return ok({ data: data(item) });
      },
    },
    {
      method: "POST",
      pattern: /^\/2\/media\/metadata$/,
      userContext: true,
      async handle(c) {
        const item = owned(String(c.body?.id ?? ""), c.userId);
        const text = c.body?.metadata?.alt_text?.text;
        if (typeof text !== "string" || text.length > 1000) throw invalid("metadata.alt_text.text", text, "The alt text must be at most 1000 characters");
        item.altText = text;
        return ok({ data: { id: item.id, associated_metadata: true } });
      },
    },
  ];
}
