/** Tag fields and bounds (supplement: Tags; spec: "tag has id, name, color"). */
import { z } from "zod";
import { accountSelection, integerId, paginationInput } from "../schema.ts";

/** The palette a tag color comes from. */
export const TAG_COLORS = ["rose", "amber", "lime", "emerald", "teal", "cyan", "blue", "indigo", "violet", "fuchsia", "slate", "stone"] as const;

/** A tag color. */
export const tagColor = z.enum(TAG_COLORS, { error: `must be one of ${TAG_COLORS.join(", ")}` });

/** A tag name: trimmed, 1 to 40 characters, unique per workspace regardless of case. */
export const tagName = z
  .string({ error: "must be a string of 1 to 40 characters" })
  .trim()
  .min(1, "must not be empty")
  .max(40, "must be at most 40 characters");

/** `GET /v1/tags`: the page. */
export const listTagsInput = z.object({ ...accountSelection, ...paginationInput(100) }).prefault({});

/** The list's page, parsed. */
export type ListTagsInput = z.infer<typeof listTagsInput>;

/** `POST /v1/tags`. */
export const createTagInput = z.object({ name: tagName, color: tagColor.optional().meta({ description: "Default blue" }), ...accountSelection });

/** What a create sends. */
export type CreateTagInput = z.infer<typeof createTagInput>;

/** `PATCH /v1/tags/{id}`: only the fields sent change. */
export const updateTagInput = z.object({ id: integerId, name: tagName.optional(), color: tagColor.optional(), ...accountSelection });

/** What a PATCH sends. */
export type UpdateTagInput = z.infer<typeof updateTagInput>;

/** `DELETE /v1/tags/{id}` (`account_id` narrows the search). */
export const tagByIdInput = z.object({ id: integerId, ...accountSelection });

/** An id-addressed call's input. */
export type TagByIdInput = z.infer<typeof tagByIdInput>;

/** A tag as returned. */
export const tag = z
  .object({
    id: z.number().int(),
    name: z.string(),
    color: tagColor,
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "Tag" });

/** The tag type. */
export type Tag = z.infer<typeof tag>;
