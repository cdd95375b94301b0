/**
 * `GET /v1/inspiration/media` (spec Inspiration; supplement "### Inspiration"; Limits 9):
 * searches the library when `q` is given (`meta.mode: "search"`, items with `score`), else
 * browses the newest items (`meta.mode: "browse"`). Owner-scoped: no `account_id`, no
 * personalisation. A repeat of the same normalised query by the same account within
 * 15 minutes answers the stored items for free (`meta.cached: true`); anything else is a
 * fresh search, taken from the burst and the daily allowance before the library is asked,
 * so an unknown `content_type` (zero items) still counts.
 */
import type { KeyContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import type { MediaItem, MediaSearchInput } from "../ports/media_item_schema.ts";
import { MediaLibraryError } from "../ports/media_library.ts";
import { libraryQueryOf, normaliseMediaQuery } from "./media_query.ts";
import { chargeFreshSearch } from "./media_search_limits.ts";
import { cachedMediaSearch, storeMediaSearch } from "./media_search_queries.ts";

/** How long a search answers its repeats (Threadline's choice; the X lookups' "about 15 minutes"). */
export const MEDIA_SEARCH_CACHE_MS = 15 * 60_000;

/** The endpoint's answer. */
export interface MediaSearchAnswer {
  data: MediaItem[];
  meta: { mode: "search" | "browse"; cached: boolean };
}

/** Answers one search or browse, from the cache when it is a repeat. */
export async function searchInspirationMedia(ctx: KeyContext, input: MediaSearchInput): Promise<MediaSearchAnswer> {
  const { sql, clock, mediaLibrary } = ctx.services;
  const query = normaliseMediaQuery(input);
  const ownerId = ctx.principal.mainAccountId;
  const cached = await cachedMediaSearch(sql, ownerId, query.key, new Date(clock.now()));
  if (cached !== undefined) return { data: cached, meta: { mode: query.mode, cached: true } };

  const release = await chargeFreshSearch(ctx);
  const nowMs = clock.now();
  let items: MediaItem[];
  try {
    items = await mediaLibrary.search(libraryQueryOf(query, nowMs));
  } catch (error) {
    if (!(error instanceof MediaLibraryError)) throw error;
    // Nothing came back from the library: the search costs no daily unit.
    if (error.failure !== "failed") await release();
    throw libraryApiError(error);
  }
  // The port's contract, held here too: search results carry a score, browse results none.
  const data = items.slice(0, query.limit).map(({ score, ...item }) => (query.mode === "search" ? { ...item, score: score ?? 0 } : item));
  await storeMediaSearch(sql, ownerId, query.key, data, new Date(nowMs), new Date(nowMs + MEDIA_SEARCH_CACHE_MS));
  return { data, meta: { mode: query.mode, cached: false } };
}

/** The library's failures as the API's upstream codes. */
function libraryApiError(error: MediaLibraryError): ApiError {
  if (error.failure === "timeout") return new ApiError("upstream_timeout", error.message);
  if (error.failure === "unavailable") return new ApiError("upstream_unavailable", error.message);
  return new ApiError("upstream_error", error.message);
}
