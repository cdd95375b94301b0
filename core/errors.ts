/**
 * The one table of error codes and their HTTP statuses (spec: Errors, "Codes with
 * status"; statuses the spec leaves open come from the supplement's table or are
 * chosen here and documented in the OpenAPI document).
 */
export const ERROR_STATUS = {
  invalid_parameter: 400,
  invalid_request: 400,
  invalid_media: 400,
  media_not_uploaded: 400,
  unsupported_media_type: 400,
  media_too_large: 400,
  fetch_failed: 400,
  url_not_allowed: 400,
  range_too_large: 400,
  system_list_read_only: 400,
  system_list_not_supported: 400,
  mirror_rejected: 400,
  article_title_required: 400,
  not_enough_posts: 400,
  // Status chosen here (the spec shows none): a template id the request named is not one
  // of the workspace's, a bad parameter rather than a missing resource of the path.
  unknown_plug_template: 400,
  unauthorized: 401,
  invalid_api_key: 401,
  insufficient_scope: 403,
  writes_main_account_only: 403,
  editor_restricted: 403,
  onboarding_required: 403,
  post_quota_exceeded: 403,
  x_premium_required: 403,
  cap_reached: 403,
  // Chosen here (the supplement shows no status): the user's plan has no DMs, a permission
  // the plan withholds, like `x_premium_required`.
  dm_not_in_plan: 403,
  account_not_found: 404,
  not_found: 404,
  // Threadline's own: a known /v1 path called with a method it does not serve.
  method_not_allowed: 405,
  list_not_found: 404,
  worker_not_found: 404,
  agent_not_found: 404,
  // Statuses the spec leaves "not shown"; the supplement gives 404 for these lookups.
  x_list_not_found: 404,
  suggestion_not_found: 404,
  contact_not_found: 404,
  note_not_found: 404,
  member_not_found: 404,
  user_not_found: 404,
  post_not_found: 404,
  feed_not_found: 404,
  lead_not_found: 404,
  signal_not_found: 404,
  cover_style_not_found: 404,
  // Threadline's own (docs/webhooks.md, webhooks are beyond the spec): an endpoint or one of its
  // deliveries the key's user does not have.
  webhook_not_found: 404,
  delivery_not_found: 404,
  idempotency_key_reuse: 409,
  idempotency_in_flight: 409,
  dataset_not_ready: 409,
  feed_limit_reached: 409,
  duplicate_name: 409,
  duplicate_signal: 409,
  collection_in_progress: 409,
  cover_gen_in_progress: 409,
  // Chosen here: a state conflict on the article, not a malformed request.
  article_not_editable: 409,
  article_not_scheduled: 409,
  // Chosen here (the supplement shows no status): the account's network authorisation was
  // lost, a state of the account to resolve (reconnect it) before retrying, not a bad request.
  reauth_required: 409,
  // Threadline's own (docs/x.md, connecting accounts is beyond the spec): the X account that
  // approved a connection is already another user's account on this server.
  x_account_in_use: 409,
  // Threadline's own (the spec names no status for it; ARCHITECTURE, request path step 1):
  // a JSON body over 1 MiB, refused without buffering it.
  payload_too_large: 413,
  // Threadline's own: request headers past Node's limit (16 KB), refused before any routing.
  request_headers_too_large: 431,
  scrape_failed: 422,
  rate_limited: 429,
  media_quota_exceeded: 429,
  ai_credits_exhausted: 429,
  ai_action_limited: 429,
  lookup_quota_exceeded: 429,
  collection_quota_exceeded: 429,
  dm_limit_reached: 429,
  // Threadline's own (docs/webhooks.md, event streams are beyond the spec): the key or the user
  // already holds the most open `GET /v1/events` streams allowed.
  stream_limit_reached: 429,
  internal_error: 500,
  upstream_error: 502,
  generation_failed: 502,
  x_publish_failed: 502,
  media_not_configured: 503,
  // Threadline's own, in the spirit of `media_not_configured`: no X app (X_CLIENT_ID) to connect accounts with.
  x_oauth_not_configured: 503,
  accounts_unavailable: 503,
  upstream_unavailable: 503,
  upstream_timeout: 504,
} as const;

/** Characters of anything an error message quotes back (`"..."`: a value, a path, an instruction). */
export const MAX_QUOTED_CHARS = 100;

/** Characters of a whole message, a backstop for text echoed without quotes. */
const MAX_MESSAGE_CHARS = 500;

/**
 * `message` with each quoted run cut to {@link MAX_QUOTED_CHARS} and the whole to 500
 * characters ("…" marks a cut). Every API error goes through here, so no field, route or
 * model refusal can echo a 100,000-character value back (a slow, large answer to a bad request).
 */
export function boundedMessage(message: string): string {
  const quoted = message.replace(/"([^"]*)"/g, (whole, inner: string) => (inner.length > MAX_QUOTED_CHARS ? `"${cut(inner, MAX_QUOTED_CHARS)}…"` : whole));
  return quoted.length > MAX_MESSAGE_CHARS ? `${cut(quoted, MAX_MESSAGE_CHARS - 1)}…` : quoted;
}

/** The first `length` UTF-16 units of `text`, never ending inside a surrogate pair. */
function cut(text: string, length: number): string {
  const head = text.slice(0, length);
  return /[\uD800-\uDBFF]$/.test(head) ? head.slice(0, -1) : head;
}

/** A machine-readable error code from the spec. */
export type ErrorCode = keyof typeof ERROR_STATUS;

/** Extra envelope fields some errors carry (`retry_after`, `dataset_status`, ...). */
export type ErrorExtra = Record<string, string | number | boolean | null>;

/**
 * An error the API answers with `{ error: { code, message, ...extra } }`.
 * `headers` travel with it (for example `Retry-After`).
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly extra: ErrorExtra;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, extra: ErrorExtra = {}, headers: Record<string, string> = {}) {
    super(boundedMessage(message));
    this.name = "ApiError";
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.extra = extra;
    this.headers = headers;
  }

  /** The REST body: exactly `{ error: { code, message, ...extra } }`. */
  toBody(): { error: Record<string, unknown> } {
    return { error: { code: this.code, message: this.message, ...this.extra } };
  }
}

/**
 * The two legacy subscription answers whose `error` is a plain string
 * (spec: Errors, "Legacy string exception").
 */
export class LegacyStringError extends Error {
  readonly status: 403 | 500;
  constructor(status: 403 | 500, text: string) {
    super(text);
    this.name = "LegacyStringError";
    this.status = status;
  }

  /** The REST body: `{ error: "<code>: <text>" }`. */
  toBody(): { error: string } {
    return { error: this.message };
  }
}

/** Builds the rate-limit style error with `Retry-After` and `error.retry_after`. */
export function retryableError(code: ErrorCode, message: string, retryAfter: number, extra: ErrorExtra = {}): ApiError {
  const seconds = Math.max(1, Math.ceil(retryAfter));
  return new ApiError(code, message, { ...extra, retry_after: seconds }, { "Retry-After": String(seconds) });
}
