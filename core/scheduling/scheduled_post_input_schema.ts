/**
 * What the scheduled-post endpoints take (spec: Scheduled post, Scheduling; supplement:
 * Scheduling): the list's filters, a post by id, and the create and PATCH bodies. The rules
 * between fields that need the request's context (publishing now, drafts, parts against the
 * workspace's media) stay in core/scheduling/create_post.ts, update_post.ts and post_content.ts.
 */
import { z } from "zod";
import { autoDmInput } from "../dm/auto_dm_schema.ts";
import { accountSelection, commaIdList, commaListOf, paginationInput, recordId, timestamp } from "../schema.ts";
import { autoDeleteInput, autoPlugInput, autoRetweetInput, MAX_POST_TAGS, partsInput, POST_STATUSES, postId } from "./scheduled_post_schema.ts";

const TIME_CHOICES = 'must be an ISO-8601 timestamp with Z or a numeric offset, "now" or "next_slot"';

const content = {
  text: z.string().optional().meta({ description: "Single-post shorthand for `parts: [{ text }]`" }),
  parts: partsInput.optional(),
  media: z.unknown().optional().meta({ description: "Not accepted: attach media per part in `parts[].media` (400 invalid_parameter)" }),
  title: z.string().max(300, "must be at most 300 characters").nullable().optional(),
  scratchpad: z.string().max(30_000, "must be at most 30000 characters").nullable().optional(),
  tags: z
    .array(recordId)
    .max(MAX_POST_TAGS, `must have at most ${MAX_POST_TAGS} tag ids`)
    .optional()
    .meta({ description: "Tag ids of the workspace (integers or decimal strings)" }),
  auto_retweet: autoRetweetInput.nullable().optional(),
  auto_delete: autoDeleteInput.nullable().optional(),
  super_followers_only: z.boolean().optional(),
  auto_plug: autoPlugInput
    .nullable()
    .optional()
    .meta({ description: "Reply with a plug template (`GET /v1/plug-templates`) once the first part has `threshold` likes; null removes it" }),
  // docs/areas.md "DM campaigns and auto DM": a plan cap strips it and the post is still saved (`auto_dm_skipped: true`).
  auto_dm: autoDmInput.nullable().optional(),
};

/** `GET /v1/scheduled-posts`. */
export const listPostsInput = z
  .object({
    ...accountSelection,
    status: commaListOf(POST_STATUSES)
      .optional()
      .meta({ description: "Comma list of draft, scheduled, sent, error (default all four; draft includes legacy board drafts)" }),
    tags: commaIdList.optional().meta({ description: "Comma list of tag ids (any of them)" }),
    from: timestamp.optional(),
    to: timestamp.optional(),
    ...paginationInput(20),
  })
  .prefault({});

/** The list's filters, parsed. */
export type ListPostsInput = z.infer<typeof listPostsInput>;

/** A post addressed by id (`account_id` narrows the search). */
export const postByIdInput = z.object({ id: postId, ...accountSelection });

/** An id-addressed call's input. */
export type PostByIdInput = z.infer<typeof postByIdInput>;

/** `POST /v1/scheduled-posts`. */
export const createPostInput = z.object({
  ...content,
  scheduled_for: z.union([timestamp, z.literal("now"), z.literal("next_slot")], { error: TIME_CHOICES }).optional(),
  ...accountSelection,
});

/** What a create sends. */
export type CreatePostInput = z.infer<typeof createPostInput>;

/** `PATCH /v1/scheduled-posts/{id}`: only the fields sent change. */
export const updatePostInput = z.object({
  id: postId,
  ...content,
  scheduled_for: z
    .union([timestamp, z.literal("next_slot")], { error: 'must be an ISO-8601 timestamp with Z or a numeric offset, or "next_slot"' })
    .nullable()
    .optional(),
  status: z.enum(["draft", "scheduled"], { error: "must be draft or scheduled" }).optional(),
  ...accountSelection,
});

/** What a PATCH sends. */
export type UpdatePostInput = z.infer<typeof updatePostInput>;

/** A post's content as a create or PATCH sends it. */
export type PostContentInput = Pick<CreatePostInput, "text" | "parts" | "media">;
