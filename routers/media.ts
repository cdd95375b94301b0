/** Media: `POST /v1/media` (the raw upload route is in adapters/http/media_upload_route.ts). */
import { inAccount, keyProcedure, router } from "../core/trpc.ts";
import { dataOf } from "../core/schema.ts";
import { mediaUpload, mediaUploadInput } from "../core/media/media_schema.ts";
import { createUpload } from "../core/media/create_upload.ts";

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
});
