/**
 * The MediaLibrary port: a library of viral media posts across platforms (spec Inspiration,
 * `GET /v1/inspiration/media`; supplement "### Inspiration"). Two adapters: a deterministic
 * simulated library (adapters/inspiration/simulated_media_library.ts, the embedded
 * default) and an HTTP client for a hosted source (adapters/inspiration/
 * http_media_library.ts, `INSPIRATION_MEDIA_URL`).
 *
 * The port answers items without any media file or thumbnail URL: the item type has no
 * field for one, and the HTTP adapter keeps only the fields named here.
 */
import type { MediaItem, MediaPlatform, MediaTypeFilter } from "./media_item_schema.ts";

/** One search of the library, already normalised (core/inspiration/media_query.ts). */
export interface MediaLibraryQuery {
  /** Search text; absent: browse the newest items. */
  q?: string;
  /** Platforms to include (never empty). */
  platforms: readonly MediaPlatform[];
  /** Only items posted at or after this time (epoch ms); absent: any time. */
  sinceMs?: number;
  /** The time of the search (epoch ms): nothing posted later is answered. */
  nowMs: number;
  mediaType: MediaTypeFilter;
  /** A content label (lowercase, `_` between words); absent: any. An unknown label matches nothing. */
  contentType?: string;
  /** At most this many items (1 to 120). */
  limit: number;
}

/** The library. */
export interface MediaLibrary {
  /** Search items (with `score`, best first) when `q` is set, else the newest first without `score`. */
  search(query: MediaLibraryQuery): Promise<MediaItem[]>;
}

/** Why the library could not answer: unreachable (`unavailable`), too slow (`timeout`), or a bad answer (`failed`). */
export type MediaLibraryFailure = "unavailable" | "timeout" | "failed";

/** A failure of the port; core maps it to `503`, `504` or `502` (media_search.ts). */
export class MediaLibraryError extends Error {
  readonly failure: MediaLibraryFailure;
  constructor(failure: MediaLibraryFailure, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "MediaLibraryError";
    this.failure = failure;
  }
}
