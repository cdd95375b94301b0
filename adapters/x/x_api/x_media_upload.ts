/**
 * Media upload to X API v2, as the account (user context with `media.write`): `POST
 * /2/media/upload/initialize`, `POST /2/media/upload/:id/append` per chunk, `POST
 * /2/media/upload/:id/finalize`, then `GET /2/media/upload?command=STATUS` while X processes
 * (x-api/media/quickstart/media-upload-chunked.mdx), and alt text through `POST
 * /2/media/metadata` (x-api/media/create-media-metadata.mdx). The id X answers is what `POST
 * /2/tweets` attaches in `media.media_ids`; it expires `expires_after_secs` after initialize.
 */
import { NetworkRejectedError, NetworkUpstreamError } from "../../../core/network/network_errors.ts";
import type { MediaUploadInput, SocialNetwork, UploadedMedia } from "../../../core/network/social_network.ts";
import type { XApiContext } from "./x_api_context.ts";

/** Bytes per APPEND: 1 MB, the chunk size of X's chunked-upload quickstart (media-upload-chunked.mdx). */
export const X_MEDIA_CHUNK_BYTES = 1024 * 1024;

/** `segment_index` is 0 to 999 (openapi.json AppendMediaUploadRequest). */
const MAX_SEGMENTS = 1000;

/** Status polls before giving up on X's processing. */
const MAX_STATUS_POLLS = 60;

/** X's processing state of an upload (openapi.json MediaUploadResponseDataProcessingInfo). */
interface XProcessingInfo {
  state?: "pending" | "in_progress" | "failed" | "succeeded";
  check_after_secs?: number;
  error?: { message?: string; name?: string };
}

/** The `data` of initialize, finalize and status answers (openapi.json MediaUploadResponseData). */
interface XMediaUploadData {
  id: string;
  media_key?: string;
  expires_after_secs?: number;
  processing_info?: XProcessingInfo;
}

/** X's media category for a MIME type: tweet_image, tweet_gif or tweet_video (best-practices.mdx "Media category"). */
export function xMediaCategory(mimeType: string): "tweet_image" | "tweet_gif" | "tweet_video" {
  if (mimeType === "image/gif") return "tweet_gif";
  if (mimeType.startsWith("video/")) return "tweet_video";
  return "tweet_image";
}

/** The port's media upload over X. */
export function xMediaUpload(ctx: XApiContext, sleep: (ms: number) => Promise<void> = defaultSleep): Pick<SocialNetwork, "uploadMedia"> {
  const { client } = ctx;
  return {
    async uploadMedia(input: MediaUploadInput): Promise<UploadedMedia> {
      const actor = await ctx.actorFor(input.authorId);
      const subject = { resource: "post" as const, ref: "" };
      const segments = Math.ceil(input.bytes.byteLength / X_MEDIA_CHUNK_BYTES);
      if (segments > MAX_SEGMENTS) throw new NetworkRejectedError("invalid", `X takes at most ${MAX_SEGMENTS} chunks of one upload`);
      const startedAt = ctx.clock.now();
      const init = await client.data<XMediaUploadData>({
        method: "POST",
        path: "/2/media/upload/initialize",
        body: { media_type: input.mimeType, total_bytes: input.bytes.byteLength, media_category: xMediaCategory(input.mimeType) },
        actingAs: actor,
        subject,
      });
      const id = init.data.id;
      for (let index = 0; index < Math.max(segments, 1); index++) {
        const chunk = input.bytes.subarray(index * X_MEDIA_CHUNK_BYTES, (index + 1) * X_MEDIA_CHUNK_BYTES);
        // The JSON body carries the chunk base64-encoded (openapi.json: `media` as format byte).
        await client.request({
          method: "POST",
          path: `/2/media/upload/${id}/append`,
          body: { media: base64Of(chunk), segment_index: index },
          actingAs: actor,
          subject,
        });
      }
      let done = await client.data<XMediaUploadData>({ method: "POST", path: `/2/media/upload/${id}/finalize`, actingAs: actor, subject });
      // GIFs and video are processed asynchronously: poll STATUS after check_after_secs until succeeded or failed.
      for (let poll = 0; isProcessing(done.data.processing_info); poll++) {
        if (poll >= MAX_STATUS_POLLS) throw new NetworkUpstreamError(`X is still processing media "${id}" after ${MAX_STATUS_POLLS} checks`);
        await sleep(Math.max(0, done.data.processing_info?.check_after_secs ?? 1) * 1000);
        done = await client.data<XMediaUploadData>({ path: "/2/media/upload", query: { media_id: id, command: "STATUS" }, actingAs: actor, subject });
      }
      if (done.data.processing_info?.state === "failed") {
        const reason = done.data.processing_info.error?.message ?? "no reason given";
        throw new NetworkRejectedError("invalid", `X could not process media "${id}": ${reason}`);
      }
      if (input.altText) {
        await client.request({
          method: "POST",
          path: "/2/media/metadata",
          body: { id, metadata: { alt_text: { text: input.altText } } },
          actingAs: actor,
          subject,
        });
      }
      const expiresAfterSecs = done.data.expires_after_secs ?? init.data.expires_after_secs;
      return {
        mediaId: id,
        expiresAt: expiresAfterSecs === undefined ? null : new Date(startedAt + expiresAfterSecs * 1000).toISOString(),
      };
    },
  };
}

function isProcessing(info: XProcessingInfo | undefined): boolean {
  return info?.state === "pending" || info?.state === "in_progress";
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function base64Of(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
