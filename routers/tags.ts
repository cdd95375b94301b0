/** Tags: `GET/POST /v1/tags`, `PATCH/DELETE /v1/tags/{id}`. */
import { z } from "zod";
import { inAccount, keyProcedure, router } from "../core/trpc.ts";
import { dataOf, listOf } from "../core/schema.ts";
import { createTagInput, listTagsInput, tag, tagByIdInput, updateTagInput } from "../core/tags/tag_schema.ts";
import { createTag, deleteTag, listTags, updateTag } from "../core/tags/tags.ts";

export const tagsRouter = router({
  list: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/tags",
        tags: ["Tags"],
        summary: "List the workspace's tags by name",
        description: "Tags are workspace-wide: a main account and its linked accounts share one set.",
      },
    })
    .input(listTagsInput)
    .use(inAccount)
    .output(listOf(tag))
    .query(({ ctx, input }) => listTags(ctx, input)),

  create: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/tags",
        tags: ["Tags"],
        summary: "Create a tag",
        description: "Names are unique regardless of case (`409 duplicate_name`); `color` defaults to blue. `Idempotency-Key` is accepted, never required.",
      },
      successStatus: 201,
      errors: ["duplicate_name"],
      // Not in the spec's list of idempotent POSTs; accepted here as well (never required).
      idempotent: true,
    })
    .input(createTagInput)
    .use(inAccount)
    .output(dataOf(tag))
    .mutation(({ ctx, input }) => createTag(ctx, input)),

  update: keyProcedure
    .meta({
      openapi: {
        method: "PATCH",
        path: "/v1/tags/{id}",
        tags: ["Tags"],
        summary: "Rename or recolor a tag",
        description:
          "Only the fields sent change; an empty body answers `400 invalid_parameter`. Names stay unique regardless of case (`409 duplicate_name`). Without `account_id` the tag is looked for among every account the key reaches.",
      },
      errors: ["not_found", "duplicate_name"],
    })
    .input(updateTagInput)
    .output(dataOf(tag))
    .mutation(({ ctx, input }) => updateTag(ctx, input)),

  delete: keyProcedure
    .meta({
      openapi: {
        method: "DELETE",
        path: "/v1/tags/{id}",
        tags: ["Tags"],
        summary: "Delete a tag and remove it from every post",
        description: "Answers `200 { data: { id, deleted: true } }`. Without `account_id` the tag is looked for among every account the key reaches.",
      },
      errors: ["not_found"],
    })
    .input(tagByIdInput)
    .output(dataOf(z.object({ id: z.number().int(), deleted: z.literal(true) })))
    .mutation(({ ctx, input }) => deleteTag(ctx, input)),
});
