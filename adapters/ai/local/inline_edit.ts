/**
 * `inline_edit` (supplement section 5: `POST /v1/tools/inline-edit`): the selected text
 * edited by `edit_type`, then by the instruction's directives; only the selection is
 * returned. `hook` on a selection rewrites the selection's first paragraph.
 */
import type { InlineEditInput } from "../../../core/model/task_inputs.ts";
import { ModelFailedError } from "../../../core/model/model_errors.ts";
import { applyDirectives, directivesOf } from "./instructions.ts";
import { rephrase } from "./rephrase.ts";

/** The edited selection. */
export function inlineEdit(input: InlineEditInput): string {
  const directives = directivesOf(input.instruction);
  if (!input.editType && directives.length === 0) {
    throw new ModelFailedError("Inline edit needs an edit type or an instruction");
  }
  const typed = input.editType ? rephrase(input.editType, input.text, input.voice) : input.text;
  return applyDirectives(typed, directives, input.voice);
}
