/** Analytics: `GET /v1/posts/analytics`. */
import { inAccount, keyProcedure, router } from "../core/trpc.ts";
import { dataOf } from "../core/schema.ts";
import { postAnalytics, postAnalyticsInput } from "../core/content/content_schema.ts";
import { postAnalytics as analyticsOf } from "../core/content/post_analytics.ts";

/** The Analytics tag's procedures. */
export const analyticsRouter = router({
  posts: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/posts/analytics",
        tags: ["Analytics"],
        summary: "Daily analytics of the account's posts and followers",
        description:
          "One row per UTC day from `since` to `until` (default the 30 UTC days ending today; at most 366 days, else `400 range_too_large`); a day " +
          "with nothing is a row of zeros. `posts` counts originals, quotes and thread continuations, `replies_sent` replies to other " +
          "accounts, `reposts_sent` reposts (Versioning 4: the earlier post count is their sum). Each post's counters (as last synced, " +
          "the same `GET /v1/posts` shows) count on the day it was posted; `totals` is the sum of `days`. `followers` has the count " +
          "recorded at the start and end of the range and its change; each day the count recorded that day.",
      },
      errors: ["range_too_large"],
    })
    .input(postAnalyticsInput)
    .use(inAccount)
    .output(dataOf(postAnalytics))
    .query(({ ctx, input }) => analyticsOf(ctx, input)),
});
