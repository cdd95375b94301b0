/**
 * The normalised form of a `GET /v1/inspiration/media` query: what the library is asked,
 * and the cache key under which a repeat is free (spec Limits 9: "cached repeats do not
 * count"). Two requests that differ only in case, spacing, platform order or repeated
 * platforms are the same query.
 */
import type { MediaLibraryQuery } from "../ports/media_library.ts";
import { MEDIA_PLATFORMS, type MediaPlatform, type MediaSearchInput, type MediaTypeFilter, type TimeFilter } from "../ports/media_item_schema.ts";
import { DAY_MS } from "../time/durations.ts";

/** A normalised query: the library's question without the time, and its cache key. */
export interface NormalisedMediaQuery {
  mode: "search" | "browse";
  q?: string;
  platforms: MediaPlatform[];
  timeFilter: TimeFilter;
  mediaType: MediaTypeFilter;
  contentType?: string;
  limit: number;
  /** Stable text naming the query; equal keys are the same query. */
  key: string;
}

const TIME_FILTER_MS: Record<TimeFilter, number | undefined> = { all: undefined, "24h": DAY_MS, "7d": 7 * DAY_MS, "30d": 30 * DAY_MS };

/**
 * Normalises `input`: `q` trimmed with runs of spaces collapsed, lowercase (a blank `q`
 * browses, as an omitted one does); platforms in the library's order without repeats (none
 * named: all six); `content_type` lowercase with `_` between words (`Behind the scenes` is
 * `behind_the_scenes`).
 */
export function normaliseMediaQuery(input: MediaSearchInput): NormalisedMediaQuery {
  const q = input.q?.trim().replace(/\s+/g, " ").toLowerCase() || undefined;
  const named = new Set(input.platforms ?? []);
  const platforms = named.size === 0 ? [...MEDIA_PLATFORMS] : MEDIA_PLATFORMS.filter((platform) => named.has(platform));
  const contentType =
    input.content_type
      ?.trim()
      .toLowerCase()
      .replace(/[\s-]+/g, "_") || undefined;
  const parts = { q, platforms, timeFilter: input.time_filter, mediaType: input.media_type, contentType, limit: input.limit };
  return { mode: q === undefined ? "browse" : "search", ...parts, key: JSON.stringify(parts) };
}

/** The library's question for `query` at `nowMs`: the clock decides what `24h` means. */
export function libraryQueryOf(query: NormalisedMediaQuery, nowMs: number): MediaLibraryQuery {
  const windowMs = TIME_FILTER_MS[query.timeFilter];
  return {
    q: query.q,
    platforms: query.platforms,
    sinceMs: windowMs === undefined ? undefined : nowMs - windowMs,
    nowMs,
    mediaType: query.mediaType,
    contentType: query.contentType,
    limit: query.limit,
  };
}
