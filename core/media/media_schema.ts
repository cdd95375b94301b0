/** `POST /v1/media` fields (spec: POST /v1/media; supplement: Media). */
import { z } from "zod";
import { accountSelection } from "../schema.ts";

/** The body of `POST /v1/media`. */
export const mediaUploadInput = z.object({
  filename: z
    .string({ error: "must be a file's base name" })
    .trim()
    .min(1, "must not be empty")
    .max(255, "must be at most 255 characters")
    // A base name: the client sends `basename(path)` (supplement: Media).
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
    .refine((name) => !/[/\\\u0000-\u001f\u007f]/.test(name), "must be a base name without path separators or control characters")
    .meta({ description: "The file's base name", example: "chart.png" }),
  file_type: z.string({ error: "must be a MIME type" }).min(1, "must not be empty").max(100, "must be at most 100 characters").meta({
    description: "`image/jpeg`, `image/png`, `image/webp` or `image/gif`; anything else (videos too) answers `400 unsupported_media_type`",
    example: "image/png",
  }),
  size: z
    .number({ error: "must be an integer number of bytes" })
    .int("must be an integer number of bytes")
    .min(1, "must be at least 1 byte")
    .meta({ description: "Bytes: up to 5MB (5242880) for JPG, PNG and WEBP, 15MB (15728640) for GIF", example: 48213 }),
  ...accountSelection,
});

/** The body of `POST /v1/media`, parsed. */
export type MediaUploadInput = z.infer<typeof mediaUploadInput>;

/** An announced upload, as `POST /v1/media` answers it. */
export const mediaUpload = z
  .object({
    object_key: z.string().meta({ description: "Attach it to a post part as `parts[].media[].object_key`" }),
    upload_url: z
      .string()
      .meta({ description: "PUT the raw bytes here within 20 minutes, with `Content-Type` equal to `file_type` and no Authorization header" }),
    upload_method: z.literal("PUT"),
    upload_headers: z.record(z.string(), z.string()).meta({ description: "Headers the PUT must carry" }),
    url: z.string().meta({ description: "Where the image can be seen once uploaded" }),
    expires_at: z.string().meta({ description: "When `upload_url` stops working (20 minutes)" }),
    filename: z.string(),
    file_type: z.string(),
    size: z.number().int(),
    account_id: z.string(),
  })
  .meta({ id: "MediaUpload" });

/** An announced upload. */
export type MediaUpload = z.infer<typeof mediaUpload>;

/** The body of `POST /v1/media/from-url` (the tool server's upload-from-URL, spec Errors: `fetch_failed`, `url_not_allowed`). */
export const mediaFromUrlInput = z.object({
  url: z
    .string({ error: "must be an https URL" })
    .trim()
    .min(1, "must not be empty")
    .max(2048, "must be at most 2048 characters")
    .meta({ description: "An https URL of a JPG, PNG, WEBP or GIF image on a public address", example: "https://picsum.photos/id/42/1200/675.jpg" }),
  filename: mediaUploadInput.shape.filename.optional().meta({
    description: "The file's base name; default the URL's last path segment (or `image`) with the real type's extension",
    example: "chart.png",
  }),
  ...accountSelection,
});

/** The body of `POST /v1/media/from-url`, parsed. */
export type MediaFromUrlInput = z.infer<typeof mediaFromUrlInput>;

/** An image downloaded and stored, as `POST /v1/media/from-url` answers it. */
export const storedMedia = z
  .object({
    object_key: z.string().meta({ description: "Attach it to a post part as `parts[].media[].object_key` (within 24 hours, or it is deleted)" }),
    url: z.string().meta({ description: "Where the image can be seen" }),
    source_url: z.string().meta({ description: "The URL the image was downloaded from, after redirects" }),
    filename: z.string(),
    file_type: z.string().meta({ description: "The type the bytes really are" }),
    size: z.number().int(),
    uploaded_at: z.string(),
    account_id: z.string(),
  })
  .meta({ id: "StoredMedia" });

/** An image downloaded and stored. */
export type StoredMedia = z.infer<typeof storedMedia>;
