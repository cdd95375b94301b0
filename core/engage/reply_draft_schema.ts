/**
 * The body of `POST /v1/engage/reply-draft` (supplement: Engage): exactly one of `post_id`
 * (read live) or `post` (the wording, with its author), optional `thoughts` and a tone.
 * `post` is the wording as a string with `author_name`/`author_handle` beside it, or the
 * object the real service's CLI sends (`engage:reply-draft --text --author --handle`:
 * `post: { text, author_name, author_handle }`); both name the same draft.
 */
import { z } from "zod";
import { crossFieldRule } from "../cross_field_rule.ts";
import { accountSelection } from "../schema.ts";

/** The tones a draft may take (supplement: Engage, reply-draft). */
export const REPLY_TONES = ["engaging", "humorous", "creative", "sarcastic", "inspirational", "concise"] as const;

const postText = z.string().trim().min(1, "must not be empty").max(25_000, "must be at most 25000 characters");
const authorName = z.string().trim().min(1).max(100, "must be at most 100 characters");
const authorHandle = z
  .string()
  .regex(/^@?[A-Za-z0-9_]{1,15}$/, "must be an X handle: 1 to 15 letters, digits or underscores, @ optional")
  .transform((handle) => handle.replace(/^@/, ""));

/** `POST /v1/engage/reply-draft`. */
export const draftReplyInput = z
  .object({
    post_id: z
      .string()
      .regex(/^[0-9]{1,25}$/, "must be a numeric post id of 1 to 25 digits")
      .optional()
      .meta({ description: "The X post to answer, read live" }),
    post: z
      .union([postText, z.strictObject({ text: postText, author_name: authorName.optional(), author_handle: authorHandle.optional() })], {
        error: "must be the post's text, or an object { text, author_name, author_handle }",
      })
      .optional()
      .meta({ description: "The post's wording; or `{ text, author_name, author_handle }`, the form the real service's CLI sends" }),
    author_name: authorName.optional(),
    author_handle: authorHandle.optional(),
    thoughts: z.string().max(2_000, "must be at most 2000 characters").optional(),
    tone: z.enum(REPLY_TONES, { error: `must be one of ${REPLY_TONES.join(", ")}` }).default("engaging"),
    ...accountSelection,
  })
  .check(
    crossFieldRule((input, fail) => {
      if (typeof input.post !== "object") return;
      for (const field of ["author_name", "author_handle"] as const) {
        if (input[field] !== undefined) fail([field], `send the author inside "post" or beside it, not both`);
      }
    }),
  );

/** What a draft request sends, parsed (the handle without `@`, the tone defaulted). */
export type DraftReplyInput = z.infer<typeof draftReplyInput>;

/** The wording and author a request names, whichever form `post` took; undefined for `post_id`. */
export function postWording(input: DraftReplyInput): { text: string; authorName?: string; authorHandle?: string } | undefined {
  if (input.post === undefined) return undefined;
  if (typeof input.post === "string") return { text: input.post, authorName: input.author_name, authorHandle: input.author_handle };
  return { text: input.post.text, authorName: input.post.author_name, authorHandle: input.post.author_handle };
}
