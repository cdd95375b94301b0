/**
 * Scheduling: `GET/POST /v1/scheduled-posts`, `GET/PATCH/DELETE /v1/scheduled-posts/{id}`
 * and the bulk queue calls under `/v1/scheduled-posts/bulk/...`.
 */
import { z } from "zod";
import { inAccount, keyProcedure, router } from "../core/trpc.ts";
import { dataOf, listOf } from "../core/schema.ts";
import { scheduledPost } from "../core/scheduling/scheduled_post_schema.ts";
import { createPostInput, listPostsInput, postByIdInput, updatePostInput } from "../core/scheduling/scheduled_post_input_schema.ts";
import { createPost } from "../core/scheduling/create_post.ts";
import { updatePost } from "../core/scheduling/update_post.ts";
import { deletePost } from "../core/scheduling/delete_post.ts";
import { getPost, listPosts } from "../core/scheduling/list_posts.ts";
import { scheduledPostsBulkRouter } from "./scheduled_posts_bulk.ts";

const SCHEDULING_ERRORS = ["upstream_unavailable"] as const;

export const scheduledPostsRouter = router({
  list: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/scheduled-posts",
        tags: ["Scheduling"],
        summary: "List scheduled posts",
        description:
          "Most recently updated first; with `from`/`to` (inclusive bounds on the scheduled time; drafts have no time and are left out) oldest post time first. No `total`: `has_more` tells whether another page exists.",
      },
      errors: [...SCHEDULING_ERRORS],
    })
    .input(listPostsInput)
    .use(inAccount)
    .output(listOf(scheduledPost))
    .query(({ ctx, input }) => listPosts(ctx, input)),

  create: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/scheduled-posts",
        tags: ["Scheduling"],
        summary: "Save a draft, queue a post or thread, or publish now",
        description:
          "1 to 25 parts (25,000 characters of text in all), each with text or media (up to 4 images or exactly 1 GIF; alt text up to 1,000 characters); `text` is the single-post shorthand. Without `scheduled_for`: a draft. A timestamp 60 s to 18 months ahead: queued (one unit of the post quota; per billing month: basic 100, trial 30, pro 1,000, advanced 3,000, ultra 10,000, enterprise 1,000,000, unless the operator sets the user's own; unscheduling, deleting a queued post or a post the publisher gave up on gives back exactly that unit; `GET /v1/me` reports the quota). `next_slot`: the account's next free queue slot. `now`: published at once (needs `Idempotency-Key`; a retry while the first attempt runs answers 409 idempotency_in_flight, afterwards the first attempt's answer; on an X account that must be connected again, 409 reauth_required and the post stays queued, published once the account is reconnected). A part longer than 280 characters on an account without the network's premium tier is rejected by the scheduling service (400 invalid_request). `auto_dm` (`message` 1-1000 with `[name]`/`[first]`/`[handle]`, `triggers` reply and/or repost as a list or `{ reply, repost }` flags, `max` (or `max_dms`) 1-100, `batch_mode` (queue the people together once an hour), `enabled`; an unknown key is 400) messages the people who reply or repost once the post is sent, each once, through the DM sender and limits; it takes one of the month's `posts_with_auto_dm` slots, and when the plan has no DMs or no slot is left it is stripped, the post is still created and answers `auto_dm_skipped: true`. Answers show that an auto DM is attached, never its text.",
      },
      successStatus: 201,
      idempotent: true,
      errors: [
        "invalid_request",
        "invalid_media",
        "media_not_uploaded",
        "unknown_plug_template",
        "onboarding_required",
        "post_quota_exceeded",
        "upstream_error",
        "upstream_timeout",
        "reauth_required",
        ...SCHEDULING_ERRORS,
      ],
    })
    .input(createPostInput)
    .use(inAccount)
    .output(dataOf(scheduledPost))
    .mutation(({ ctx, input }) => createPost(ctx, input)),

  get: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/scheduled-posts/{id}",
        tags: ["Scheduling"],
        summary: "Read one scheduled post",
        description:
          "Post ids are decimal strings. Without `account_id` the post is looked for among every account the key reaches. Answers `503 upstream_unavailable` while the scheduling service is down.",
      },
      errors: ["not_found", ...SCHEDULING_ERRORS],
    })
    .input(postByIdInput)
    .output(dataOf(scheduledPost))
    .query(({ ctx, input }) => getPost(ctx, input)),

  update: keyProcedure
    .meta({
      openapi: {
        method: "PATCH",
        path: "/v1/scheduled-posts/{id}",
        tags: ["Scheduling"],
        summary: "Change a post",
        description:
          "Only the fields sent change; `text`/`parts` replace every part (media included). `status` moves a post between `draft` and `scheduled` (quota deducted and refunded); a `scheduled_for` alone never promotes a draft. Sent posts and posts being published cannot change (400 invalid_request). `auto_dm: null` removes the auto DM and returns its monthly slot; a new one a plan cap refuses is stripped (`auto_dm_skipped: true`).",
      },
      errors: [
        "not_found",
        "invalid_request",
        "invalid_media",
        "media_not_uploaded",
        "unknown_plug_template",
        "onboarding_required",
        "post_quota_exceeded",
        ...SCHEDULING_ERRORS,
      ],
    })
    .input(updatePostInput)
    .output(dataOf(scheduledPost))
    .mutation(({ ctx, input }) => updatePost(ctx, input)),

  delete: keyProcedure
    .meta({
      openapi: {
        method: "DELETE",
        path: "/v1/scheduled-posts/{id}",
        tags: ["Scheduling"],
        summary: "Delete a post (a queued post's quota unit is refunded)",
        description:
          "Answers `{ data: { id, deleted: true } }`. A post being published cannot be deleted (`400 invalid_request`); deleting a queued post gives back exactly its post-quota unit.",
      },
      errors: ["not_found", "invalid_request", ...SCHEDULING_ERRORS],
    })
    .input(postByIdInput)
    .output(dataOf(z.object({ id: z.string(), deleted: z.literal(true) })))
    .mutation(({ ctx, input }) => deletePost(ctx, input)),

  bulk: scheduledPostsBulkRouter,
});
