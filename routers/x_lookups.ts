/** X Lookups: live reads of the public network (spec X Lookups rows; Limits 5, 8). No `account_id`. */
import { z } from "zod";
import { keyProcedure, router } from "../core/trpc.ts";
import { dataOf } from "../core/schema.ts";
import { cursorPagination, xPost, xUser } from "../core/lookups/lookup_records.ts";
import { lookupPostInput, lookupRepliesInput, lookupUserInput, lookupUserPostsInput } from "../core/lookups/lookup_input_schema.ts";
import { lookupPost, lookupReplies, lookupUser, lookupUserPosts } from "../core/lookups/x_lookups.ts";
import type { ErrorCode } from "../core/errors.ts";
import { xUsageInput, xUsageReport as xUsageReportSchema } from "../core/x_usage/x_usage_schema.ts";
import { xUsageReport } from "../core/x_usage/x_usage_report.ts";

const liveErrors: ErrorCode[] = ["lookup_quota_exceeded", "upstream_unavailable", "upstream_error", "upstream_timeout"];
const costs = "Costs enrichment units (request bucket) and, unless answered from the 15-minute cache, the daily live allowance (300 per account per UTC day).";

export const xLookupsRouter = router({
  post: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/x/posts/{id}",
        tags: ["X Lookups"],
        summary: "Look up a public post with its author (and quotes)",
        description: `1 unit, 2 with \`include_quotes\`, all or nothing. ${costs}`,
      },
      errors: ["post_not_found", ...liveErrors],
    })
    .input(lookupPostInput)
    .output(dataOf(xPost.extend({ quotes: z.array(xPost).optional() })))
    .query(({ ctx, input }) => lookupPost(ctx, input)),

  replies: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/x/posts/{id}/replies",
        tags: ["X Lookups"],
        summary: "Direct replies to a public post",
        description: `A flat 3 units. ${costs}`,
      },
      errors: ["post_not_found", ...liveErrors],
    })
    .input(lookupRepliesInput)
    .output(z.object({ data: z.array(xPost), pagination: cursorPagination }))
    .query(({ ctx, input }) => lookupReplies(ctx, input)),

  user: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/x/users/{handle}",
        tags: ["X Lookups"],
        summary: "Look up a public profile by handle",
        description: `1 unit. ${costs}`,
      },
      errors: ["user_not_found", ...liveErrors],
    })
    .input(lookupUserInput)
    .output(dataOf(xUser))
    .query(({ ctx, input }) => lookupUser(ctx, input)),

  userPosts: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/x/users/{handle}/posts",
        tags: ["X Lookups"],
        summary: "A handle's recent posts",
        description: `1 unit when the handle was looked up in the last 15 minutes, else 2. ${costs}`,
      },
      errors: ["user_not_found", ...liveErrors],
    })
    .input(lookupUserPostsInput)
    .output(z.object({ data: z.array(xPost), pagination: cursorPagination }))
    .query(({ ctx, input }) => lookupUserPosts(ctx, input)),

  usage: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/x/usage",
        tags: ["X Lookups"],
        summary: "What your accounts spent on X in a month",
        description:
          "Beyond the spec: for the key's user's own accounts, calls to the X API by kind (X's pay-per-use prices, x-api/getting-started/pricing.mdx, " +
          "or the operator's `X_PRICES`), units (requests for writes, resources returned for reads) and estimated spend in USD, with the user's " +
          "monthly X budget and what is left. App-only reads act as no account and are not in it. Empty on the simulated network.",
      },
      beyondSpec: "The spec's server is billed by the companion service; a self-hosted server pays X per call and reports it.",
    })
    .input(xUsageInput)
    .output(dataOf(xUsageReportSchema))
    .query(({ ctx, input }) => xUsageReport(ctx, input)),
});
