/**
 * Uploading media to X with a user-context token, the chunked way X API v2 documents
 * (`x-api/media/quickstart/media-upload-chunked.mdx`): `POST /2/media/upload/initialize`
 * (`media_type`, `total_bytes`, `media_category`: `initialize-media-upload.mdx`), then each
 * chunk to `POST /2/media/upload/:id/append` (`segment_index`, `media`: `append-media-upload.mdx`;
 * `openapi.json` `AppendMediaUploadRequest` takes the chunk as a binary multipart part or
 * base64 in JSON, and JSON is what this client sends), `POST /2/media/upload/:id/finalize`
 * (`finalize-media-upload.mdx`), and while its answer carries `processing_info`, polling
 * `GET /2/media/upload?command=STATUS&media_id=` every `check_after_secs` until the state is
 * `succeeded` or `failed` (`get-media-upload-status.mdx`; GIFs and videos are processed
 * asynchronously). Alt text goes through `POST /2/media/metadata` (`{ id, metadata: {
 * alt_text: { text } } }`, at most 1000 characters: `create-media-metadata.mdx`,
 * `openapi.json` `CreateMediaMetadataMetadataAltText`).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { NetworkRejectedError, NetworkUpstreamError } from "../../../core/network/network_errors.ts";
import type { SocialNetwork, UploadMediaInput } from "../../../core/network/social_network.ts";
import type { XApiContext } from "./x_api_context.ts";
import type { XActor } from "./x_api_client.ts";
import { isXId } from "./x_ids.ts";

/** Bytes per appended chunk: the chunked-upload quickstart's example uses 1 MB chunks. */
export const X_MEDIA_CHUNK_BYTES = 1024 * 1024;

/** X numbers segments 0 to 999 (`openapi.json` `AppendMediaUploadRequest.segment_index`). */
const MAX_SEGMENTS = 1000;

/** Status polls before giving up on X's processing (each waits `check_after_secs`). */
const MAX_STATUS_POLLS = 60;

/** What finalize and status answer (`FinalizeMediaUploadResponseData`, `GetMediaUploadStatusResponseData`). */
interface XMediaUploadData {
  id: string;
  media_key?: string;
  expires_after_secs?: number;
  processing_info?: { state?: string; check_after_secs?: number; progress_percent?: number };
}

/** How the media uploader waits between status polls (tests pass a shorter wait). */
export interface XMediaUploadOptions {
  wait?: (ms: number) => Promise<unknown>;
}

/** The port's media upload over X. */
export function xMediaUpload(ctx: XApiContext, options: XMediaUploadOptions = {}): Required<Pick<SocialNetwork, "uploadMedia">> {
  const { client } = ctx;
  const wait = options.wait ?? ((ms: number) => sleep(ms));
  const subject = (ref: string) => ({ resource: "post" as const, ref });
  return {
    async uploadMedia(input: UploadMediaInput) {
      const category = mediaCategoryOf(input.mimeType);
      const segments = Math.ceil(input.bytes.length / X_MEDIA_CHUNK_BYTES);
      if (segments === 0) throw new NetworkRejectedError("invalid", "X cannot take an empty media file");
      if (segments > MAX_SEGMENTS)
        throw new NetworkRejectedError("invalid", `X takes at most ${MAX_SEGMENTS} chunks; the file has ${input.bytes.length} bytes`);
      // Asked before every request: a long upload or X's processing may outlive an access token (refreshed when due).
      const actor = () => ctx.actorFor(input.authorId);
      const started = await client.data<XMediaUploadData>({
        method: "POST",
        path: "/2/media/upload/initialize",
        body: { media_type: input.mimeType, total_bytes: input.bytes.length, media_category: category },
        actingAs: await actor(),
        subject: subject(""),
      });
      const id = started.data.id;
      if (!isXId(id)) throw new NetworkUpstreamError(`X answered an upload id that is not an id: "${id}"`);
      for (let index = 0; index < segments; index++) {
        const chunk = input.bytes.subarray(index * X_MEDIA_CHUNK_BYTES, (index + 1) * X_MEDIA_CHUNK_BYTES);
        await client.request({
          method: "POST",
          path: `/2/media/upload/${id}/append`,
          body: { segment_index: index, media: Buffer.from(chunk).toString("base64") },
          actingAs: await actor(),
          subject: subject(id),
        });
      }
      const finalized = await client.data<XMediaUploadData>({
        method: "POST",
        path: `/2/media/upload/${id}/finalize`,
        actingAs: await actor(),
        subject: subject(id),
      });
      const ready = await processed(finalized.data, actor);
      if (input.altText) {
        await client.request({
          method: "POST",
          path: "/2/media/metadata",
          body: { id, metadata: { alt_text: { text: input.altText } } },
          actingAs: await actor(),
          subject: subject(id),
        });
      }
      // X says how long the id may be attached (`expires_after_secs`); without it, the initialize answer's.
      const lifeSeconds = ready.expires_after_secs ?? started.data.expires_after_secs ?? 0;
      return { mediaId: id, expiresAt: new Date(ctx.clock.now() + lifeSeconds * 1000) };
    },
  };

  /** Polls STATUS while X processes the media; answers the last data, or throws when processing failed. */
  async function processed(data: XMediaUploadData, actor: () => Promise<XActor>): Promise<XMediaUploadData> {
    let current = data;
    for (let poll = 0; current.processing_info && poll <= MAX_STATUS_POLLS; poll++) {
      const state = current.processing_info.state;
      if (state === "succeeded") return current;
      if (state === "failed") throw new NetworkRejectedError("invalid", `X could not process media "${current.id}"`);
      if (poll === MAX_STATUS_POLLS) break;
      await wait(Math.max(0, current.processing_info.check_after_secs ?? 1) * 1000);
      const status = await client.data<XMediaUploadData>({
        path: "/2/media/upload",
        query: { command: "STATUS", media_id: current.id },
        actingAs: await actor(),
        subject: subject(current.id),
      });
      current = status.data;
    }
    if (current.processing_info && current.processing_info.state !== "succeeded") {
      throw new NetworkUpstreamError(`X is still processing media "${current.id}" after ${MAX_STATUS_POLLS} status checks`);
    }
    return current;
  }
}

/** X's media category for a post's file (`media-upload-chunked.mdx`, "Media categories"). */
function mediaCategoryOf(mimeType: string): "tweet_image" | "tweet_gif" | "tweet_video" {
  if (mimeType === "image/gif") return "tweet_gif";
  if (mimeType.startsWith("video/")) return "tweet_video";
  return "tweet_image";
}
