/**
 * Chooses the Model adapter from the configuration: the OpenAI-compatible client when
 * `AI_BASE_URL` is set, else the local deterministic engine (the embedded default);
 * `THREADLINE_FAULTS=ai` replaces either with one that always fails.
 */
import type { Model } from "../../core/model/model.ts";
import { DEFAULT_MODEL_PRICES, type ModelPrices } from "../../core/model/model_pricing.ts";
import type { ThreadlineConfig } from "../runtime/config.ts";
import { createFaultyModel } from "./faulty_model.ts";
import { createLocalModel } from "./local/local_model.ts";
import { createOpenAiCompatibleModel } from "./openai_compatible/openai_compatible_model.ts";

/** The configuration fields the model reads. */
export type ModelConfig = Pick<
  ThreadlineConfig,
  "aiBaseUrl" | "aiApiKey" | "aiModel" | "aiImageModel" | "aiPriceInputPer1K" | "aiPriceOutputPer1K" | "aiPriceImage" | "aiTimeoutMs" | "aiImageTimeoutMs"
>;

/** The model for `config`; `faulty` is `THREADLINE_FAULTS=ai`. */
export function openModel(config: ModelConfig, faulty = false): Model {
  if (faulty) return createFaultyModel();
  // The AI_PRICE_* prices are the provider's; the local engine keeps its fixed, documented price.
  if (!config.aiBaseUrl) return createLocalModel();
  // No default model: compatible servers name theirs differently, and a guess fails only at the first call.
  if (!config.aiModel) throw new Error('"AI_MODEL" is required when "AI_BASE_URL" is set');
  const prices: ModelPrices = {
    inputPer1K: checked("AI_PRICE_INPUT_PER_1K", config.aiPriceInputPer1K, 0) ?? DEFAULT_MODEL_PRICES.inputPer1K,
    outputPer1K: checked("AI_PRICE_OUTPUT_PER_1K", config.aiPriceOutputPer1K, 0) ?? DEFAULT_MODEL_PRICES.outputPer1K,
    image: checked("AI_PRICE_IMAGE", config.aiPriceImage, 0) ?? DEFAULT_MODEL_PRICES.image,
  };
  return createOpenAiCompatibleModel({
    baseUrl: config.aiBaseUrl,
    apiKey: config.aiApiKey,
    model: config.aiModel,
    imageModel: config.aiImageModel,
    prices,
    timeoutMs: checked("AI_TIMEOUT_MS", config.aiTimeoutMs, 1),
    imageTimeoutMs: checked("AI_IMAGE_TIMEOUT_MS", config.aiImageTimeoutMs, 1),
  });
}

/** A typo must not make every call free (a NaN price) or unbounded (a NaN timeout): refuse it at startup. */
function checked(name: string, value: number | undefined, minimum: number): number | undefined {
  if (value !== undefined && !(Number.isFinite(value) && value >= minimum))
    throw new Error(`"${name}" must be a number of at least ${minimum}, got "${value}"`);
  return value;
}
