/** Inspiration: `GET /v1/inspiration`, search of stored public posts (supplement: Inspiration). Owner-scoped: no `account_id`. */
import { keyProcedure, router } from "../core/trpc.ts";
import { inspirationAnswer, inspirationInput } from "../core/inspiration/inspiration_schema.ts";
import { searchInspiration } from "../core/inspiration/search_inspiration.ts";

export const inspirationRouter = router({
  search: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/inspiration",
        tags: ["Inspiration"],
        summary: "Search public posts for inspiration",
        description:
          "Relevance-ranked full-text search of a stored corpus of recent public posts, with engagement, author-size, time, language and topic filters. Owner-scoped: no `account_id`. With a query, weak matches (relevance under 0.01 on `ts_rank_cd`'s 0-1 scale: the query's words scattered more than about eight words apart) and promotional posts (a strong self-promotion score) are dropped, so a page may be short; `has_more` says whether a next page (up to 7) has posts. Pages 1 to 7. Counts as a read.",
      },
    })
    .input(inspirationInput)
    .output(inspirationAnswer)
    .query(({ ctx, input }) => searchInspiration(ctx, input)),
});
