/**
 * The composer tools (spec Tools; supplement section 5: inline-edit, factcheck). They
 * return text only and write nothing (rule 7); each is metered, typically 1 credit,
 * refunded in full when the model fails before output.
 */
import type { AccountContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { VOICE_PRESETS } from "../model/model_task.ts";
import { parseTaskOutput } from "../model/task_output.ts";
import { modelApiError } from "../model/model_api_error.ts";
import { writingContext } from "./writing_context.ts";
import { runModel } from "./run_model.ts";
import type { FactcheckToolInput, InlineEditToolInput, RephraseToolInput } from "./tools_input_schema.ts";

/** `POST /v1/tools/rephrase`: the whole post rewritten by `type`. */
export async function rephrase(ctx: AccountContext, input: RephraseToolInput) {
  const { voice, rules } = await writingContext(ctx, { ownPosts: VOICE_PRESETS.includes(input.type) });
  const result = await runModel(ctx, { task: input.type, input: { text: input.text, voice, rules } });
  return { data: { text: result.text }, meta: { credits_charged: result.creditsCharged, account_id: ctx.account.id } };
}

/** `POST /v1/tools/inline-edit`: a selection edited by type, instruction or both. */
export async function inlineEdit(ctx: AccountContext, input: InlineEditToolInput) {
  if (!input.instruction && !input.edit_type) {
    throw new ApiError("invalid_parameter", 'Send "instruction", "edit_type" or both');
  }
  const { voice, rules } = await writingContext(ctx, { ownPosts: true });
  const result = await runModel(ctx, {
    task: "inline_edit",
    input: { text: input.text, fullText: input.full_text, instruction: input.instruction, editType: input.edit_type, voice, rules },
  });
  return { data: { text: result.text }, meta: { credits_charged: result.creditsCharged, account_id: ctx.account.id } };
}

/** `POST /v1/tools/factcheck`: `true`, `false` or `unknown`, a one-sentence comment and sources. */
export async function factcheck(ctx: AccountContext, input: FactcheckToolInput) {
  const result = await runModel(ctx, { task: "factcheck", input: { text: input.text } });
  let verdict: ReturnType<typeof parseTaskOutput<"factcheck">>;
  try {
    verdict = parseTaskOutput("factcheck", result.text);
  } catch (error) {
    throw modelApiError(error) ?? error;
  }
  return { data: verdict, meta: { credits_charged: result.creditsCharged, account_id: ctx.account.id } };
}
