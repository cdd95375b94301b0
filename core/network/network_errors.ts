/**
 * Typed failures of the SocialNetwork port. Adapters translate what they meet (an X API
 * status, a missing simulated user, a fault switch) into these; `networkApiError` turns
 * them into the API's codes in one place.
 */

/** What a lookup was about; picks the API code (`user_not_found`, `post_not_found`, ...). */
export type NetworkResource = "user" | "post" | "list" | "article" | "dm";

/** Why the network refused a write. */
export type NetworkRejection =
  /** Articles need the premium tier (spec: `403 x_premium_required`). */
  | "premium_required"
  /** A per-day network limit (articles: 10 drafts and 5 publishes a day). */
  | "daily_limit"
  /** The same text was already published by this author recently. */
  | "duplicate"
  /** Longer than the author's tier allows. */
  | "too_long"
  /** A reply the original post's author did not summon (X since 2026-02-23). */
  | "reply_restricted"
  /** The acting account is suspended. */
  | "suspended"
  /** The app or the token lacks the access or scope the write needs. */
  | "not_permitted"
  /** The recipient does not accept DMs from this sender. */
  | "dm_closed"
  /** Anything else the network says is malformed (empty post, DM to oneself, ...). */
  | "invalid";

/** Base class: every failure of the port. */
export class NetworkError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "NetworkError";
  }
}

/** The thing asked for does not exist (or no longer does). */
export class NetworkNotFoundError extends NetworkError {
  readonly resource: NetworkResource;
  /** The id or handle asked for. */
  readonly ref: string;
  constructor(resource: NetworkResource, ref: string, message = `Cannot find ${resource} "${ref}" on X`) {
    super(message);
    this.name = "NetworkNotFoundError";
    this.resource = resource;
    this.ref = ref;
  }
}

/** The thing exists but is protected or private. */
export class NetworkPrivateError extends NetworkError {
  readonly resource: NetworkResource;
  readonly ref: string;
  constructor(resource: NetworkResource, ref: string, message = `The ${resource} "${ref}" is private on X`) {
    super(message);
    this.name = "NetworkPrivateError";
    this.resource = resource;
    this.ref = ref;
  }
}

/** The network rate-limited us. */
export class NetworkRateLimitedError extends NetworkError {
  /** Seconds until a retry may succeed. */
  readonly retryAfter: number;
  constructor(retryAfter: number, message = "X rate limit reached") {
    super(message);
    this.name = "NetworkRateLimitedError";
    this.retryAfter = retryAfter;
  }
}

/** The network could not be reached (or a fault switch says so); safe to retry. */
export class NetworkUnavailableError extends NetworkError {
  constructor(message = "X is unreachable", options?: ErrorOptions) {
    super(message, options);
    this.name = "NetworkUnavailableError";
  }
}

/** The network answered something unexpected (a 5xx, a malformed body). */
export class NetworkUpstreamError extends NetworkError {
  /** The upstream HTTP status, when there was one. */
  readonly status?: number;
  constructor(message = "X answered unexpectedly", status?: number, options?: ErrorOptions) {
    super(message, options);
    this.name = "NetworkUpstreamError";
    this.status = status;
  }
}

/** A write did not answer in time and may have completed: read before retrying. */
export class NetworkTimeoutError extends NetworkError {
  constructor(message = "X did not answer in time", options?: ErrorOptions) {
    super(message, options);
    this.name = "NetworkTimeoutError";
  }
}

/** The network refused a write. */
export class NetworkRejectedError extends NetworkError {
  readonly reason: NetworkRejection;
  constructor(reason: NetworkRejection, message: string) {
    super(message);
    this.name = "NetworkRejectedError";
    this.reason = reason;
  }
}

/**
 * The account's credentials are gone: it was never connected, X refused its refresh for good
 * (`reauth_required`), or the configured token acts as another account. Its writes wait until it
 * is connected again (the publisher and the DM sender pause it); elsewhere it is a refusal.
 */
export class NetworkAuthLostError extends NetworkRejectedError {
  /** The account (its network user id) that must be connected again. */
  readonly accountId: string;
  constructor(accountId: string, message: string) {
    super("invalid", message);
    this.name = "NetworkAuthLostError";
    this.accountId = accountId;
  }
}

/** The caller sent something the network cannot use (a cursor it never issued). */
export class NetworkBadRequestError extends NetworkError {
  /** The input field at fault (`cursor`). */
  readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.name = "NetworkBadRequestError";
    this.field = field;
  }
}
