/**
 * The Model port (ARCHITECTURE: "The outside world is a port with two adapters"): text
 * generation with token usage and its cost in credits, and image generation for
 * article covers. Adapters: the local deterministic engine (`adapters/ai/local/`) and
 * an OpenAI-compatible client (`adapters/ai/openai_compatible/`). Failures are the
 * typed errors of `model_errors.ts`; `modelApiError` turns them into API answers.
 */
import type { ModelTask } from "./model_task.ts";
import type { TaskInputs } from "./task_inputs.ts";

/** Options every call accepts. */
export interface CallOptions {
  /** The caller gave up (client disconnected): the call ends with `ModelFailedError`. */
  signal?: AbortSignal;
  /** Bound on the whole call, retries included; past it `ModelTimeoutError`. */
  timeoutMs?: number;
}

/** A text job: the task and its structured input, discriminated on `task`. */
export type ModelRequest<T extends ModelTask = ModelTask> = {
  [K in T]: CallOptions & {
    task: K;
    input: TaskInputs[K];
    /** Output bound (default per task: `taskDefaults`). */
    maxTokens?: number;
    /** Sampling temperature for remote models (default per task). */
    temperature?: number;
  };
}[T];

/** Tokens the call consumed. */
export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
}

/** What a text job answered. */
export interface ModelResult {
  /** The output: plain text, or JSON text for the structured tasks (`task_output.ts`). */
  text: string;
  usage: ModelUsage;
  /** Model spend in credits (one credit is one cent), a whole number rounded up. */
  costCredits: number;
  /**
   * The same spend in exact cents, before rounding, when the adapter knows it: a caller
   * making many small calls for one answer (outreach drafts) sums these and rounds once,
   * instead of paying a rounded-up credit per call.
   */
  costCents?: number;
  /** The model that answered (`threadline-local` for the local engine). */
  model: string;
}

/** Image dimensions as `WIDTHxHEIGHT`, e.g. `1536x1024`. */
export type ImageSize = `${number}x${number}`;

/** An image job (article covers). */
export interface ImageRequest extends CallOptions {
  prompt: string;
  /** The headline the image is for (an article's title); the local engine sets it on the cover, remote models read it in `prompt`. */
  title?: string;
  /** Default `1536x1024`, a landscape cover. */
  size?: ImageSize;
}

/** A generated image. */
export interface ImageResult {
  bytes: Uint8Array;
  mimeType: "image/png";
  costCredits: number;
  model: string;
}

/** The model as core sees it. */
export interface Model {
  /** `local` or `openai_compatible`, for logs and `/v1/me`-style diagnostics. */
  readonly engine: "local" | "openai_compatible" | "faulty";
  /** Runs a text job; rejects with a `ModelError` subclass when no output was produced. */
  generate(request: ModelRequest): Promise<ModelResult>;
  /** Generates a PNG; rejects with a `ModelError` subclass. */
  generateImage(request: ImageRequest): Promise<ImageResult>;
}

/** The default cover size: landscape, the shape X shows article covers in. */
export const DEFAULT_IMAGE_SIZE: ImageSize = "1536x1024";
