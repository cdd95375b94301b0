/**
 * Bulk queue calls: `POST /v1/scheduled-posts/bulk/retime`, `/bulk/auto-retweet`,
 * `/bulk/delete` (supplement: Queue). Mounted as `bulk` inside the scheduled-posts router;
 * the paths here are complete. Each costs one write whatever the post count (spec Limits 3:
 * the request bucket charges one write per request) and takes no `Idempotency-Key`.
 */
import { inAccount, keyProcedure, router } from "../core/trpc.ts";
import { dataOf } from "../core/schema.ts";
import { bulkAutoRetweetInput, bulkDeleteInput, bulkDeleteResult, bulkRetimeInput, bulkUpdateResult } from "../core/scheduling/bulk_schema.ts";
import { bulkRetime } from "../core/scheduling/bulk_retime.ts";
import { bulkAutoRetweet } from "../core/scheduling/bulk_auto_retweet.ts";
import { bulkDelete } from "../core/scheduling/bulk_delete.ts";

const COMMON =
  "Acts on queued posts of one account (`account_id`, default main): drafts, sent and error posts, posts due or being published, and ids of no post of the account are skipped with a reason. Each id gets a result (`updated`/`deleted`, or `skipped` with a reason) beside the counts. One write and one transaction. Re-running converges.";

/** The three bulk queue endpoints, mounted as `bulk` in the scheduled-posts router. */
export const scheduledPostsBulkRouter = router({
  retime: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/scheduled-posts/bulk/retime",
        tags: ["Scheduling"],
        summary: "Move up to 500 queued posts to new times in one transaction",
        description: `${COMMON} All or none: a time less than 60 s or more than 18 months ahead, or an id sent twice, fails the whole call (400 invalid_parameter) and nothing moves. A move to the time a post already has is skipped as \`unchanged\`.`,
      },
      errors: ["upstream_unavailable"],
    })
    .input(bulkRetimeInput)
    .use(inAccount)
    .output(dataOf(bulkUpdateResult))
    .mutation(({ ctx, input }) => bulkRetime(ctx, input)),

  autoRetweet: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/scheduled-posts/bulk/auto-retweet",
        tags: ["Scheduling"],
        summary: "Add an auto retweet to up to 100 queued posts",
        description: `${COMMON} A post that already has an auto retweet keeps it (skipped as \`has_auto_retweet\`).`,
      },
      errors: ["upstream_unavailable"],
    })
    .input(bulkAutoRetweetInput)
    .use(inAccount)
    .output(dataOf(bulkUpdateResult))
    .mutation(({ ctx, input }) => bulkAutoRetweet(ctx, input)),

  delete: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/scheduled-posts/bulk/delete",
        tags: ["Scheduling"],
        summary: "Delete up to 100 queued posts and refund their post quota",
        description: `${COMMON} Each deleted post gives back exactly the quota unit it took, to the billing period it was taken from.`,
      },
      errors: ["upstream_unavailable"],
    })
    .input(bulkDeleteInput)
    .use(inAccount)
    .output(dataOf(bulkDeleteResult))
    .mutation(({ ctx, input }) => bulkDelete(ctx, input)),
});
