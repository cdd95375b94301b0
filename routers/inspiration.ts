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
          "Relevance-ranked full-text search of a stored corpus of recent public posts, with engagement, author-size, time, language and topic filters. Weak and promotional matches are dropped, so a page may be short; `has_more` does not need a full page. Pages 1 to 7. Counts as a read.",
      },
    })
    .input(inspirationInput)
    .output(inspirationAnswer)
    .query(({ ctx, input }) => searchInspiration(ctx, input)),
});
