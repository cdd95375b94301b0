/**
 * The jobs the Model port does, named once so both engines, the prompts and the
 * endpoints agree. The 13 rephrase types are the spec's (Tools: `POST /v1/tools/rephrase`);
 * the rest are the other AI helpers the spec and supplement describe.
 */

/** The 13 `type` values of `POST /v1/tools/rephrase`, in the spec's order. */
export const REPHRASE_TYPES = [
  "improve",
  "hook",
  "engaging",
  "humorous",
  "positive",
  "creative",
  "sarcastic",
  "inspirational",
  "grammar",
  "translate",
  "clarity",
  "details",
  "concise",
] as const;

/** A rephrase `type`. */
export type RephraseType = (typeof REPHRASE_TYPES)[number];

/**
 * "The first eight are style presets written in the account's own voice; `grammar`,
 * `translate`, `clarity`, `details`, `concise` leave the voice alone" (spec: Tools).
 */
export const VOICE_PRESETS: readonly RephraseType[] = REPHRASE_TYPES.slice(0, 8);

/** The `edit_type` values of `POST /v1/tools/inline-edit` (supplement section 5). */
export const INLINE_EDIT_TYPES = [
  "grammar",
  "translate",
  "hook",
  "details",
  "concise",
  "engaging",
  "humorous",
  "creative",
  "sarcastic",
  "inspirational",
] as const;

/** An inline-edit `edit_type`. */
export type InlineEditType = (typeof INLINE_EDIT_TYPES)[number];

/** Every task the Model port accepts: the rephrase types, then the other helpers. */
export const MODEL_TASKS = [
  ...REPHRASE_TYPES,
  "inline_edit",
  "factcheck",
  "remix",
  "draft",
  "reply_draft",
  "outreach_message",
  "keyword_suggestion",
  "icp_expansion",
  "style_guide",
  "lead_scoring",
  "profile_research",
  "dataset_refine",
] as const;

/** A job for the model. */
export type ModelTask = (typeof MODEL_TASKS)[number];

/** Whether `task` is one of the 13 rephrase types. */
export function isRephraseType(task: string): task is RephraseType {
  return (REPHRASE_TYPES as readonly string[]).includes(task);
}
