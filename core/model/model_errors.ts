/**
 * How a model call fails, typed so endpoints decide refunds and answers in one place
 * (`model_api_error.ts`). Every one of these means no output was produced, so the
 * spec's rule applies: "refund in full when the model fails before output" (AI credits).
 *
 * Messages are shown to API clients: they may name configuration variables and HTTP
 * statuses, never upstream bodies or secrets (those go in `detail`, for logs).
 */

/** Base class of the model's failures. */
export class ModelError extends Error {
  /** What went wrong upstream, for logs only (never sent to clients). */
  readonly detail?: string;

  constructor(message: string, options: { cause?: unknown; detail?: string } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ModelError";
    this.detail = options.detail;
  }
}

/** Why the model cannot be reached. */
export type UnavailableReason = "config" | "unreachable" | "rate_limited" | "fault";

/**
 * The model cannot be used right now: refused credentials or a wrong address (`config`),
 * no connection (`unreachable`), the provider's rate limit (`rate_limited`, with the
 * provider's Retry-After when it gave one), or `THREADLINE_FAULTS=ai` (`fault`).
 */
export class ModelUnavailableError extends ModelError {
  readonly reason: UnavailableReason;
  readonly retryAfterSeconds?: number;

  constructor(message: string, options: { reason: UnavailableReason; retryAfterSeconds?: number; cause?: unknown; detail?: string }) {
    super(message, options);
    this.name = "ModelUnavailableError";
    this.reason = options.reason;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** The model answered but produced no usable output (5xx, malformed JSON, empty text, cancelled). */
export class ModelFailedError extends ModelError {
  /** The provider's HTTP status, when there was one. */
  readonly status?: number;

  constructor(message: string, options: { status?: number; cause?: unknown; detail?: string } = {}) {
    super(message, options);
    this.name = "ModelFailedError";
    this.status = options.status;
  }
}

/** The call's time bound passed before any output. */
export class ModelTimeoutError extends ModelError {
  readonly timeoutMs: number;

  constructor(message: string, options: { timeoutMs: number; cause?: unknown }) {
    super(message, options);
    this.name = "ModelTimeoutError";
    this.timeoutMs = options.timeoutMs;
  }
}

/**
 * The configured engine cannot do this task honestly (translation on the local engine,
 * free-form instructions it cannot follow, images without an image model). The message
 * names what to configure (ARCHITECTURE: "The local model is honest").
 */
export class ModelCapabilityError extends ModelError {
  /** The task or feature that is missing (`translate`, `instructions`, `image`). */
  readonly capability: string;
  /** The configuration that would provide it, e.g. `AI_BASE_URL and AI_MODEL`. */
  readonly requires: string;

  constructor(message: string, options: { capability: string; requires: string }) {
    super(message);
    this.name = "ModelCapabilityError";
    this.capability = options.capability;
    this.requires = options.requires;
  }
}
