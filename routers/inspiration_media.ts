/** Inspiration media: `GET /v1/inspiration/media` (supplement "### Inspiration"; spec Limits 9). Owner-scoped: no `account_id`. */
import { z } from "zod";
import { keyProcedure, router } from "../core/trpc.ts";
import { mediaItem, mediaSearchInput } from "../core/ports/media_item_schema.ts";
import { searchInspirationMedia } from "../core/inspiration/media_search.ts";

export const inspirationMediaRouter = router({
  media: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/inspiration/media",
        tags: ["Inspiration"],
        summary: "Search or browse a library of viral media posts across platforms",
        description:
          'With `q`, a search ranked by relevance (`meta.mode: "search"`, each item with a `score` from 0 to 1, best first); without it, the newest items (`meta.mode: "browse"`, no `score`). ' +
          "Owner-scoped: no `account_id`, no personalisation. `platforms` omitted or empty means all six; another value is `400 invalid_parameter`; `time_filter` counts back from the server's clock. " +
          "Items carry captions, a summary, engagement counts (null where the platform shows no such count) and `source_url`, never a media file or thumbnail URL. " +
          "Fresh searches are limited per account (counted for the key owner's main account, like every allowance) to a burst of 20 refilling one per 3 s (a token bucket) and to 500 per UTC day: " +
          "over either, `429 rate_limited` with `bucket` (`inspiration_media_burst` or `inspiration_media_daily`), `limit`, `reset_at`, `retry_after` and `Retry-After`; both fail closed when the counters cannot answer (`retry_after` 30). " +
          "The same query (the same filters and `limit`; case and spacing of `q` and the order of `platforms` do not matter) from the same account within 15 minutes answers the stored result (`meta.cached: true`) and counts against neither limit. " +
          "An unknown `content_type` answers no items and still counts. A search the hosted library never answered (`503 upstream_unavailable`, `504 upstream_timeout`) gives its daily unit back; a failing answer is `502 upstream_error`.",
      },
      errors: ["rate_limited", "upstream_unavailable", "upstream_error", "upstream_timeout"],
      toolName: "inspiration_media",
    })
    .input(mediaSearchInput)
    .output(z.object({ data: z.array(mediaItem), meta: z.object({ mode: z.enum(["search", "browse"]), cached: z.boolean() }) }))
    .query(({ ctx, input }) => searchInspirationMedia(ctx, input)),
});
