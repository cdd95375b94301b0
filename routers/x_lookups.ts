/** X Lookups: live reads of the public network (spec X Lookups rows; Limits 5, 8). No `account_id`. */
import { z } from "zod";
import { keyProcedure, router } from "../core/trpc.ts";
import { dataOf, xHandle } from "../core/schema.ts";
import { cursorPagination, xPost, xUser } from "../core/lookups/lookup_records.ts";
import { lookupPost, lookupReplies, lookupUser, lookupUserPosts } from "../core/lookups/x_lookups.ts";
import type { ErrorCode } from "../core/errors.ts";

const postId = z.string().regex(/^[0-9]{1,25}$/, "must be a numeric post id of 1 to 25 digits");
const handle = xHandle;
const limit = z
  .number({ error: "must be an integer from 1 to 100" })
  .int()
  .min(1, "must be an integer from 1 to 100")
  .max(100, "must be an integer from 1 to 100")
  .default(20);
const cursor = z.string().max(512).optional().meta({ description: "`pagination.next_cursor` of the previous page" });
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
    .input(z.object({ id: postId, include_quotes: z.boolean().default(false) }))
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
    .input(z.object({ id: postId, limit, cursor, sort: z.enum(["recent", "relevance"]).default("recent") }))
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
    .input(z.object({ handle }))
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
    .input(z.object({ handle, limit, cursor, exclude_replies: z.boolean().default(false), exclude_reposts: z.boolean().default(false) }))
    .output(z.object({ data: z.array(xPost), pagination: cursorPagination }))
    .query(({ ctx, input }) => lookupUserPosts(ctx, input)),
});
