/** Analytics: `GET /v1/posts/analytics`. */
import { inAccount, keyProcedure, router } from "../core/trpc.ts";
import { dataOf } from "../core/schema.ts";
import { postAnalytics, postAnalyticsInput } from "../core/content/content_schema.ts";
import { postAnalytics as analyticsOf } from "../core/content/post_analytics.ts";
import { bestTimes, bestTimesInput } from "../core/content/best_times_schema.ts";
import { bestTimesToPost } from "../core/content/best_times.ts";

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

  bestTimes: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/posts/best-times",
        tags: ["Analytics"],
        summary: "Best times to post, from the account's own posts",
        description:
          "The account's originals, quotes and thread starts of the last `days` (default 90), grouped by weekday and hour in `timezone` (default the " +
          "account's queue time zone, so the answer lines up with queue slots). Each slot has its posts, impressions and engagements per post and a " +
          "`score`: impressions per post, pulled toward the account's average with the weight of 3 posts, over that average (1 is average). `best` " +
          "holds up to 5 slots with at least 3 posts, best first; it is empty until the account has posted enough. Counters are as last synced (`GET /v1/posts`).",
      },
      beyondSpec: "The spec's analytics are daily totals; when to post is the question a scheduler's user asks of them.",
    })
    .input(bestTimesInput)
    .use(inAccount)
    .output(dataOf(bestTimes))
    .query(({ ctx, input }) => bestTimesToPost(ctx, input)),
});
