/**
 * The media types uploads may have and their size bounds (spec: POST /v1/media, "JPG,
 * PNG, WEBP up to 5MB, GIF up to 15MB"; Errors: `unsupported_media_type` "not JPG, PNG,
 * WEBP or GIF; videos too", `media_too_large`), and the magic numbers that tell what
 * bytes really are, so a declared type is never taken on trust.
 */
import { ApiError } from "../errors.ts";

/** One accepted media type. */
export interface MediaType {
  mime: "image/jpeg" | "image/png" | "image/webp" | "image/gif";
  /** The file extension object keys carry. */
  extension: "jpg" | "png" | "webp" | "gif";
  /** Largest accepted size in bytes (5MB images, 15MB GIFs; MB read as MiB). */
  maxBytes: number;
  /** Name used in messages. */
  label: string;
}

const MB = 1024 * 1024;

/** The accepted types by MIME string. */
export const MEDIA_TYPES: Readonly<Record<MediaType["mime"], MediaType>> = {
  "image/jpeg": { mime: "image/jpeg", extension: "jpg", maxBytes: 5 * MB, label: "JPG" },
  "image/png": { mime: "image/png", extension: "png", maxBytes: 5 * MB, label: "PNG" },
  "image/webp": { mime: "image/webp", extension: "webp", maxBytes: 5 * MB, label: "WEBP" },
  "image/gif": { mime: "image/gif", extension: "gif", maxBytes: 15 * MB, label: "GIF" },
};

/** How many first bytes `detectMediaType` needs. */
export const MAGIC_BYTES = 16;

/** The accepted type named `mime` (any case), or `400 unsupported_media_type`. */
export function mediaTypeOf(mime: string): MediaType {
  const known = MEDIA_TYPES[mime.trim().toLowerCase() as MediaType["mime"]];
  if (known) return known;
  const video = /^video\//i.test(mime.trim()) ? "videos are not supported; " : "";
  throw new ApiError("unsupported_media_type", `Unsupported "file_type" "${mime}": ${video}use image/jpeg, image/png, image/webp or image/gif`);
}

/** `400 media_too_large` unless `size` bytes fit the type's bound. */
export function assertMediaSize(type: MediaType, size: number, what = "The file"): void {
  if (size > type.maxBytes) {
    throw new ApiError("media_too_large", `${what} has ${size} bytes; a ${type.label} may have at most ${type.maxBytes} bytes (${type.maxBytes / MB}MB)`);
  }
}

/** The accepted type the bytes really are (by magic number), or undefined. */
export function detectMediaType(head: Uint8Array): MediaType | undefined {
  const starts = (offset: number, ...bytes: number[]) => bytes.every((byte, i) => head[offset + i] === byte);
  const ascii = (offset: number, text: string) => starts(offset, ...[...text].map((c) => c.charCodeAt(0)));
  if (starts(0, 0xff, 0xd8, 0xff)) return MEDIA_TYPES["image/jpeg"];
  if (starts(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return MEDIA_TYPES["image/png"];
  if (ascii(0, "GIF87a") || ascii(0, "GIF89a")) return MEDIA_TYPES["image/gif"];
  if (ascii(0, "RIFF") && ascii(8, "WEBP")) return MEDIA_TYPES["image/webp"];
  return undefined;
}

/**
 * Checks stored bytes against what was declared: empty (`media_not_uploaded`), not an
 * accepted image or another type than declared (`unsupported_media_type`), over the
 * type's bound (`media_too_large`). Answers the real type.
 */
export function checkStoredBytes(objectKey: string, declared: MediaType, size: number, head: Uint8Array): MediaType {
  if (size === 0) throw new ApiError("media_not_uploaded", `Media "${objectKey}" is an empty file; upload the bytes again`);
  const real = detectMediaType(head);
  if (!real) throw new ApiError("unsupported_media_type", `Media "${objectKey}" is not a JPG, PNG, WEBP or GIF image (its bytes say otherwise)`);
  if (real.mime !== declared.mime) {
    throw new ApiError("unsupported_media_type", `Media "${objectKey}" holds a ${real.label} image but "${declared.mime}" was declared`);
  }
  assertMediaSize(real, size, `Media "${objectKey}"`);
  return real;
}
