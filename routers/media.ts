/** Media: `POST /v1/media` (the raw upload route is in adapters/http/media_upload_route.ts). */
import { inAccount, keyProcedure, router } from "../core/trpc.ts";
import { dataOf } from "../core/schema.ts";
import { mediaFromUrlInput, mediaUpload, mediaUploadInput, storedMedia } from "../core/media/media_schema.ts";
import { createUpload } from "../core/media/create_upload.ts";
import { uploadFromUrl } from "../core/media/upload_from_url.ts";

/** The Media tag's procedures. */
export const mediaRouter = router({
  createUpload: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/media",
        tags: ["Media"],
        summary: "Announce an image upload and get a URL to PUT its bytes to",
        description:
          "JPG, PNG and WEBP up to 5MB, GIF up to 15MB (videos are not supported). Then `PUT` the raw bytes to `upload_url` " +
          "within 20 minutes, with `Content-Type` equal to `file_type` and no Authorization header. With the local store " +
          "that URL is this server's `PUT /v1/media/uploads/{object_key}?expires=..&signature=..`, which checks the bytes' " +
          "real type and size (answering `unsupported_media_type`, `media_too_large`, `media_not_uploaded` for an empty body, " +
          "`unauthorized` for a changed or expired URL) and stores nothing it refuses; `GET` on that path (`url`) shows the " +
          "image. With S3 the URL is a presigned bucket URL and the bytes are checked when a post first attaches `object_key`. " +
          "100 accepted uploads per API key per UTC day; uploads no post attached within 24 hours are deleted.",
      },
      successStatus: 201,
      errors: ["unsupported_media_type", "media_too_large", "media_quota_exceeded", "media_not_configured"],
    })
    .input(mediaUploadInput)
    .use(inAccount)
    .output(dataOf(mediaUpload))
    .mutation(({ ctx, input }) => createUpload(ctx, input)),

  uploadFromUrl: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/media/from-url",
        tags: ["Media"],
        summary: "Download an image from an https URL and store it as an upload",
        description:
          "The tool server's upload-from-URL, also served over REST. GETs `url` (https only; no embedded credentials; every " +
          "address the host resolves to must be public: private, loopback, link-local, reserved and multicast ranges, IPv4 and " +
          "IPv6, are refused with `url_not_allowed`, checked on the address actually connected to and again on each of at most 3 " +
          "redirects). A failed download, an HTTP error, a timeout (10 s), a 4th redirect or a body over 15MB answers " +
          "`fetch_failed`. The bytes must be a JPG, PNG or WEBP up to 5MB or a GIF up to 15MB (`unsupported_media_type`, " +
          "`media_too_large`, checked on the bytes, whatever the server's `Content-Type`). Counts as one of the key's 100 uploads " +
          "per UTC day (checked before downloading; refusals are not counted). The answer's `object_key` attaches to a post " +
          "part like any upload. The operator can allow named hosts (`OUTBOUND_ALLOW_HOSTS`), which may then be private or use " +
          "http. Send an `Idempotency-Key` to make a retry answer the first result instead of downloading again.",
      },
      successStatus: 201,
      idempotent: true,
      toolName: "upload_media_from_url",
      beyondSpec: "The spec's tool server uploads from a URL (Errors: fetch_failed, url_not_allowed); REST clients get the same operation",
      errors: ["url_not_allowed", "fetch_failed", "unsupported_media_type", "media_too_large", "media_quota_exceeded", "media_not_configured"],
    })
    .input(mediaFromUrlInput)
    .use(inAccount)
    .output(dataOf(storedMedia))
    .mutation(({ ctx, input }) => uploadFromUrl(ctx, input)),
});
