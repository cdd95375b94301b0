/** Tag fields and bounds (supplement: Tags; spec: "tag has id, name, color"). */
import { z } from "zod";

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
