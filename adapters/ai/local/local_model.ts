/**
 * The local deterministic engine, the embedded default (ARCHITECTURE: "The local model is
 * honest"): every task is a rule-based transform a reader can trace (see each task's
 * file), the same input always gives the same output, and what it cannot do honestly
 * (translation, free-form instructions it has no rule for) fails with a
 * `ModelCapabilityError` naming the model to configure.
 *
 * Costs: tokens are estimated at four characters each (input: the request's fields as
 * JSON; output: the text) and priced like the default remote model, so a typical call
 * costs 1 credit and the credit path is exercised offline.
 */
import type { ImageRequest, ImageResult, Model, ModelRequest, ModelResult } from "../../../core/model/model.ts";
import { DEFAULT_IMAGE_SIZE } from "../../../core/model/model.ts";
import { applyAccountRules } from "./account_rules.ts";
import { ModelFailedError } from "../../../core/model/model_errors.ts";
import { centsForUsage, creditsForImage, creditsForUsage, DEFAULT_MODEL_PRICES, estimateTokens, type ModelPrices } from "../../../core/model/model_pricing.ts";
import { expandIcp, suggestKeywords } from "./audience_terms.ts";
import { coverPng } from "./cover_png.ts";
import { draft } from "./draft.ts";
import { factcheck } from "./factcheck.ts";
import { inlineEdit } from "./inline_edit.ts";
import { scoreLeadCandidates } from "./lead_scoring.ts";
import { researchProfile } from "./profile_research.ts";
import { judgeRows } from "./dataset_refine.ts";
import { outreachMessage } from "./outreach_message.ts";
import { rephrase } from "./rephrase.ts";
import { remix } from "./remix.ts";
import { replyDraft } from "./reply_draft.ts";
import { styleGuide } from "./style_guide.ts";

/** The `model` the local engine reports. */
export const LOCAL_MODEL_NAME = "threadline-local";

/** Options of the local engine. */
export interface LocalModelOptions {
  /** Prices in cents (default: the remote defaults, `DEFAULT_MODEL_PRICES`). */
  prices?: ModelPrices;
}

/** Creates the local engine. */
export function createLocalModel(options: LocalModelOptions = {}): Model {
  const prices = options.prices ?? DEFAULT_MODEL_PRICES;
  return {
    engine: "local",
    async generate(request: ModelRequest): Promise<ModelResult> {
      throwIfCancelled(request.signal);
      const text = run(request);
      if (!text.trim()) throw new ModelFailedError(`The local engine produced no text for "${request.task}"`);
      const usage = { inputTokens: estimateTokens(JSON.stringify(request.input)), outputTokens: estimateTokens(text) };
      return { text, usage, costCredits: creditsForUsage(usage, prices), costCents: centsForUsage(usage, prices), model: LOCAL_MODEL_NAME };
    },
    async generateImage(request: ImageRequest): Promise<ImageResult> {
      throwIfCancelled(request.signal);
      const bytes = coverPng(request.prompt, request.size ?? DEFAULT_IMAGE_SIZE, request.title);
      const kind = request.title?.trim() ? "title-cover" : "abstract-cover";
      return { bytes, mimeType: "image/png", costCredits: creditsForImage(prices), model: `${LOCAL_MODEL_NAME}-${kind}` };
    },
  };
}

function run(request: ModelRequest): string {
  const text = write(request);
  // The writing tasks carry the account's rules; the structured ones do not.
  return "rules" in request.input ? applyAccountRules(text, request.input.rules) : text;
}

function write(request: ModelRequest): string {
  switch (request.task) {
    case "inline_edit":
      return inlineEdit(request.input);
    case "factcheck":
      return JSON.stringify(factcheck(request.input));
    case "remix":
      return remix(request.input);
    case "draft":
      return draft(request.input);
    case "reply_draft":
      return replyDraft(request.input);
    case "outreach_message":
      return outreachMessage(request.input);
    case "keyword_suggestion":
      return JSON.stringify(suggestKeywords(request.input));
    case "icp_expansion":
      return JSON.stringify(expandIcp(request.input));
    case "style_guide":
      return styleGuide(request.input);
    case "lead_scoring":
      return JSON.stringify(scoreLeadCandidates(request.input));
    case "profile_research":
      return JSON.stringify(researchProfile(request.input));
    case "dataset_refine":
      return JSON.stringify(judgeRows(request.input));
    default:
      return rephrase(request.task, request.input.text, request.input.voice);
  }
}

function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ModelFailedError("The model call was cancelled before it started", { cause: signal.reason });
}
