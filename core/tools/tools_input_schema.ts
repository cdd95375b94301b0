/**
 * The inputs of the composer tools (`POST /v1/tools/rephrase`, `/inline-edit`, `/factcheck`):
 * the text to work on, bounded like a post (25,000 characters) or a selection (4,000).
 */
import { z } from "zod";
import { accountSelection } from "../schema.ts";
import { INLINE_EDIT_TYPES, REPHRASE_TYPES } from "../model/model_task.ts";

const postText = (max: number) => z.string().min(1, "must not be empty").max(max, `must be at most ${max} characters`);

/** `POST /v1/tools/rephrase`: the whole post and the rewrite's type. */
export const rephraseToolInput = z.object({ type: z.enum(REPHRASE_TYPES), text: postText(25_000), ...accountSelection });

/** What a rephrase sends. */
export type RephraseToolInput = z.infer<typeof rephraseToolInput>;

/** `POST /v1/tools/inline-edit`: the selection, the post around it, and an instruction, a type or both. */
export const inlineEditToolInput = z.object({
  text: postText(4_000),
  full_text: z.string().max(25_000).optional(),
  instruction: z.string().min(1).max(1_000).optional(),
  edit_type: z.enum(INLINE_EDIT_TYPES).optional(),
  ...accountSelection,
});

/** What an inline edit sends. */
export type InlineEditToolInput = z.infer<typeof inlineEditToolInput>;

/** `POST /v1/tools/factcheck`: the claim. */
export const factcheckToolInput = z.object({ text: postText(4_000), ...accountSelection });

/** What a factcheck sends. */
export type FactcheckToolInput = z.infer<typeof factcheckToolInput>;
