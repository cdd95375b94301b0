/**
 * The inputs of the live X lookups (spec X Lookups rows): a post by its numeric id, a
 * profile by handle, and their pages of at most 100 behind a cursor. No `account_id`.
 */
import { z } from "zod";
import { xHandle } from "../schema.ts";

const postId = z.string().regex(/^[0-9]{1,25}$/, "must be a numeric post id of 1 to 25 digits");
const limit = z
  .number({ error: "must be an integer from 1 to 100" })
  .int()
  .min(1, "must be an integer from 1 to 100")
  .max(100, "must be an integer from 1 to 100")
  .default(20);
const cursor = z.string().max(512).optional().meta({ description: "`pagination.next_cursor` of the previous page" });

/** `GET /v1/x/posts/{id}`: `include_quotes` adds the post's quotes. */
export const lookupPostInput = z.object({ id: postId, include_quotes: z.boolean().default(false) });

/** What a post lookup sends, parsed. */
export type LookupPostInput = z.infer<typeof lookupPostInput>;

/** `GET /v1/x/posts/{id}/replies`: a page of direct replies. */
export const lookupRepliesInput = z.object({ id: postId, limit, cursor, sort: z.enum(["recent", "relevance"]).default("recent") });

/** What a replies lookup sends, parsed. */
export type LookupRepliesInput = z.infer<typeof lookupRepliesInput>;

/** `GET /v1/x/users/{handle}`. */
export const lookupUserInput = z.object({ handle: xHandle });

/** What a profile lookup sends. */
export type LookupUserInput = z.infer<typeof lookupUserInput>;

/** `GET /v1/x/users/{handle}/posts`: a page of the handle's posts, replies and reposts optionally left out. */
export const lookupUserPostsInput = z.object({
  handle: xHandle,
  limit,
  cursor,
  exclude_replies: z.boolean().default(false),
  exclude_reposts: z.boolean().default(false),
});

/** What a handle's posts lookup sends, parsed. */
export type LookupUserPostsInput = z.infer<typeof lookupUserPostsInput>;
