/**
 * Model spend in credits: one credit is one cent of model spend (spec: AI credits), so
 * a call costs its tokens at the configured per-1K-token prices, rounded up to a whole
 * credit. Prices are in cents, per 1,000 tokens (`AI_PRICE_INPUT_PER_1K`,
 * `AI_PRICE_OUTPUT_PER_1K`) and per image (`AI_PRICE_IMAGE`).
 */
import type { ModelUsage } from "./model.ts";

/** Prices in cents. */
export interface ModelPrices {
  /** Cents per 1,000 input (prompt) tokens. */
  inputPer1K: number;
  /** Cents per 1,000 output (completion) tokens. */
  outputPer1K: number;
  /** Cents per generated image. */
  image: number;
}

/**
 * Defaults: a mid-tier hosted model's list prices ($2.50 and $10 per million tokens,
 * $0.04 per standard image), so a rephrase (a few hundred tokens each way) costs 1
 * credit, as the spec says it "typically" does. Operators set their provider's prices.
 */
export const DEFAULT_MODEL_PRICES: ModelPrices = { inputPer1K: 0.25, outputPer1K: 1, image: 4 };

/** Whole credits for `usage` at `prices`: the exact cents, rounded up; zero tokens cost nothing. */
export function creditsForUsage(usage: ModelUsage, prices: Pick<ModelPrices, "inputPer1K" | "outputPer1K">): number {
  return creditsForCents(centsForUsage(usage, prices));
}

/** The exact cents `usage` costs at `prices` (not rounded). */
export function centsForUsage(usage: ModelUsage, prices: Pick<ModelPrices, "inputPer1K" | "outputPer1K">): number {
  return (tokens(usage.inputTokens) * prices.inputPer1K + tokens(usage.outputTokens) * prices.outputPer1K) / 1000;
}

/** Whole credits for `cents` of spend: rounded up; nothing costs nothing. */
export function creditsForCents(cents: number): number {
  if (!(cents > 0)) return 0;
  // Float sums such as 0.1 + 0.2 land a hair above the true value; do not round that up a whole credit.
  return Math.ceil(cents - 1e-9);
}

/** Whole credits for one image at `prices`. */
export function creditsForImage(prices: Pick<ModelPrices, "image">): number {
  return prices.image > 0 ? Math.ceil(prices.image - 1e-9) : 0;
}

/**
 * A token estimate for text whose tokenizer is unknown: about four characters per
 * token, the usual rule of thumb for English with BPE tokenizers. Used by the local
 * engine and for providers that omit `usage`.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function tokens(count: number): number {
  return Number.isFinite(count) && count > 0 ? count : 0;
}
