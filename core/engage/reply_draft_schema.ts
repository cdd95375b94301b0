/**
 * The body of `POST /v1/engage/reply-draft` (supplement: Engage): exactly one of `post_id`
 * (read live) or `post` (the wording, with its author), optional `thoughts` and a tone.
 */
import { z } from "zod";
import { accountSelection } from "../schema.ts";

/** The tones a draft may take (supplement: Engage, reply-draft). */
export const REPLY_TONES = ["engaging", "humorous", "creative", "sarcastic", "inspirational", "concise"] as const;

/** `POST /v1/engage/reply-draft`. */
export const draftReplyInput = z.object({
  post_id: z
    .string()
    .regex(/^[0-9]{1,25}$/, "must be a numeric post id of 1 to 25 digits")
    .optional()
    .meta({ description: "The X post to answer, read live" }),
  post: z.string().trim().min(1, "must not be empty").max(25_000, "must be at most 25000 characters").optional(),
  author_name: z.string().trim().min(1).max(100, "must be at most 100 characters").optional(),
  author_handle: z
    .string()
    .regex(/^@?[A-Za-z0-9_]{1,15}$/, "must be an X handle: 1 to 15 letters, digits or underscores, @ optional")
    .transform((handle) => handle.replace(/^@/, ""))
    .optional(),
  thoughts: z.string().max(2_000, "must be at most 2000 characters").optional(),
  tone: z.enum(REPLY_TONES, { error: `must be one of ${REPLY_TONES.join(", ")}` }).default("engaging"),
  ...accountSelection,
});

/** What a draft request sends, parsed (the handle without `@`, the tone defaulted). */
export type DraftReplyInput = z.infer<typeof draftReplyInput>;
