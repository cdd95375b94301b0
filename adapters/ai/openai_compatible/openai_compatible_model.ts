/**
 * The Model port over an OpenAI-compatible HTTP API (OpenAI, Azure-style gateways, vLLM,
 * Ollama, LM Studio...): `POST {baseUrl}/chat/completions` for text and
 * `POST {baseUrl}/images/generations` for covers, with `Authorization: Bearer <key>`.
 * Prompts come from core (`buildPrompt`); cost is the reported usage at the configured
 * prices. `hook` answers are spliced ahead of the unchanged rest here, and structured
 * answers are validated here, so a bad answer is a `ModelFailedError` (refunded).
 */
import type { ImageRequest, ImageResult, Model, ModelRequest, ModelResult } from "../../../core/model/model.ts";
import { DEFAULT_IMAGE_SIZE } from "../../../core/model/model.ts";
import { ModelCapabilityError, ModelFailedError } from "../../../core/model/model_errors.ts";
import { centsForUsage, creditsForImage, creditsForUsage, DEFAULT_MODEL_PRICES, estimateTokens, type ModelPrices } from "../../../core/model/model_pricing.ts";
import { buildPrompt } from "../../../core/model/prompts.ts";
import { splitFirstParagraph, withFirstParagraph } from "../../../core/model/first_paragraph.ts";
import { taskDefaults } from "../../../core/model/task_defaults.ts";
import { isStructuredTask, parseTaskOutput } from "../../../core/model/task_output.ts";
import { postJson } from "./post_json.ts";

/** Where and how to reach the model server. */
export interface OpenAiCompatibleOptions {
  /** API root, e.g. `https://api.openai.com/v1` (`AI_BASE_URL`). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <key>` when set (`AI_API_KEY`; local servers often need none). */
  apiKey?: string;
  /** Chat model id (`AI_MODEL`). */
  model: string;
  /** Image model id (`AI_IMAGE_MODEL`); without it covers fail with a capability error. */
  imageModel?: string;
  /** Prices in cents (default `DEFAULT_MODEL_PRICES`). */
  prices?: ModelPrices;
  /** Bound on a text call, retries included (default 60 000 ms). */
  timeoutMs?: number;
  /** Bound on an image call, retries included (default 120 000 ms: images take longer). */
  imageTimeoutMs?: number;
  /** Retries after a 429 or 5xx (default 2). */
  retries?: number;
  /** First backoff step when the server gives no Retry-After (default 500 ms). */
  retryBaseDelayMs?: number;
  /** Longest wait between attempts; a longer Retry-After ends the call at once (default 10 000 ms). */
  maxRetryDelayMs?: number;
  /** The fetch to use (default the global one). */
  fetch?: typeof fetch;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Creates the client. */
export function createOpenAiCompatibleModel(options: OpenAiCompatibleOptions): Model {
  const root = options.baseUrl.replace(/\/+$/, "");
  const prices = options.prices ?? DEFAULT_MODEL_PRICES;
  const transport = {
    apiKey: options.apiKey,
    retries: options.retries ?? 2,
    baseDelayMs: options.retryBaseDelayMs ?? 500,
    maxRetryDelayMs: options.maxRetryDelayMs ?? 10_000,
    fetch: options.fetch ?? fetch,
  };
  return {
    engine: "openai_compatible",
    async generate(request: ModelRequest): Promise<ModelResult> {
      const defaults = taskDefaults(request.task);
      const body = {
        model: options.model,
        messages: buildPrompt(request),
        max_tokens: request.maxTokens ?? defaults.maxTokens,
        temperature: request.temperature ?? defaults.temperature,
      };
      const answer = (await postJson({
        ...transport,
        url: `${root}/chat/completions`,
        body,
        timeoutMs: request.timeoutMs ?? options.timeoutMs ?? 60_000,
        signal: request.signal,
      })) as ChatAnswer;
      const content = answer?.choices?.[0]?.message?.content;
      if (typeof content !== "string") throw new ModelFailedError("The model server's answer had no message content");
      if (!content.trim()) throw new ModelFailedError("The model answered with empty text");
      const usage = {
        inputTokens: count(answer.usage?.prompt_tokens) ?? estimateTokens(body.messages.map((message) => message.content).join("\n")),
        outputTokens: count(answer.usage?.completion_tokens) ?? estimateTokens(content),
      };
      return {
        text: finish(request, content),
        usage,
        costCredits: creditsForUsage(usage, prices),
        costCents: centsForUsage(usage, prices),
        model: typeof answer.model === "string" ? answer.model : options.model,
      };
    },
    async generateImage(request: ImageRequest): Promise<ImageResult> {
      if (!options.imageModel) {
        throw new ModelCapabilityError('Cover images need an image model: configure "AI_IMAGE_MODEL"', { capability: "image", requires: "AI_IMAGE_MODEL" });
      }
      const body: Record<string, unknown> = { model: options.imageModel, prompt: request.prompt, n: 1, size: request.size ?? DEFAULT_IMAGE_SIZE };
      // GPT image models always answer base64 and reject `response_format`; DALL-E and most compatible servers need it.
      if (!/^gpt-image/i.test(options.imageModel)) body.response_format = "b64_json";
      const answer = (await postJson({
        ...transport,
        url: `${root}/images/generations`,
        body,
        timeoutMs: request.timeoutMs ?? options.imageTimeoutMs ?? 120_000,
        signal: request.signal,
      })) as ImageAnswer;
      const encoded = answer?.data?.[0]?.b64_json;
      if (typeof encoded !== "string" || !encoded) throw new ModelFailedError("The image server's answer had no base64 image");
      const bytes = new Uint8Array(Buffer.from(encoded, "base64"));
      if (!PNG_SIGNATURE.every((byte, i) => bytes[i] === byte)) throw new ModelFailedError("The image server's answer was not a PNG");
      return { bytes, mimeType: "image/png", costCredits: creditsForImage(prices), model: options.imageModel };
    },
  };
}

interface ChatAnswer {
  model?: unknown;
  choices?: { message?: { content?: unknown } }[];
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
}

interface ImageAnswer {
  data?: { b64_json?: unknown }[];
}

function count(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** The text callers get: `hook` spliced ahead of the unchanged rest, structured answers validated and normalised. */
function finish(request: ModelRequest, content: string): string {
  if (request.task === "hook") return withFirstParagraph(splitFirstParagraph(request.input.text), content);
  if (isStructuredTask(request.task)) return JSON.stringify(parseTaskOutput(request.task, content));
  return content.trim();
}
