/**
 * The answers to a refused allowance, one builder per code family, so an area turns a
 * refusal into the spec's envelope in one line (spec Errors: the rows of
 * `ai_action_limited`, `lookup_quota_exceeded`, `collection_quota_exceeded` and
 * `dm_limit_reached`, and "Special cases"). Each takes the refusal of
 * `consumeAllowances` or `consumeRolling` and sets `Retry-After` (header) and
 * `retry_after` (envelope) to the seconds until units come back.
 *
 * @example
 * const outcome = await consumeAllowances(ctx, owner, [{ spec: DATASET_COLLECTIONS, units: 1 }]);
 * if (outcome.status !== "allowed") throw collectionQuotaError(outcome);
 */
import { ApiError, retryableError } from "../errors.ts";
import type { AllowanceRefusal } from "./allowance_outcome.ts";
import { type TokenBucketState, windowStart } from "../ports/counters.ts";
import { DAY_SECONDS } from "../time/durations.ts";

/**
 * Retry-After when the counters could not answer (spec rule 9: refuse). Short, because
 * the store is usually back within seconds (Redis reconnects in the background), and a
 * client told to wait until midnight would be punished for our outage; the spec calls
 * this variant's `retry_after` "short" (Errors, Special cases).
 */
const UNVERIFIABLE_RETRY_SECONDS = 30;

/** A `scope` of `dm_limit_reached`: the period whose allowance is used (spec DM limits). */
export type DmLimitScope = "day" | "month" | (string & {});

/**
 * `429 ai_action_limited` (spec: per-day action cap; AI credits, Limits 11) with `scope`,
 * `retry_after`, `reset_at` and `Retry-After`.
 *
 * Counters that cannot be verified answer the same code with `scope: "platform"` and a
 * `reset_at` 30 s ahead: the spec tells clients that a platform refusal "is not about the
 * account's own quota; wait for `reset_at` and retry", which is exactly what to do, and
 * every client already handles this code (a 503 would name an unrelated dependency).
 */
export function actionCapError(refusal: AllowanceRefusal): ApiError {
  if (refusal.status === "unverifiable") {
    const resetAt = Math.ceil(refusal.checkedAt / 1000) + UNVERIFIABLE_RETRY_SECONDS;
    const message = `Action cap could not be verified right now; retry after "${isoSeconds(resetAt)}"`;
    return retryableError("ai_action_limited", message, UNVERIFIABLE_RETRY_SECONDS, { scope: "platform", reset_at: resetAt });
  }
  const { blocked } = refusal;
  const message =
    blocked.scope === "platform"
      ? `Platform-wide ceiling "${blocked.name}" reached; this is not your account's quota, retry after "${isoSeconds(blocked.resetAt)}"`
      : `Action cap "${blocked.name}" reached for this account (${blocked.limit} allowed); retry after "${isoSeconds(blocked.resetAt)}"`;
  return retryableError("ai_action_limited", message, secondsUntil(blocked.resetAt, refusal.checkedAt), {
    scope: blocked.scope,
    reset_at: blocked.resetAt,
  });
}

/**
 * `429 lookup_quota_exceeded` in the spec's three variants (Errors, Special cases): own
 * allowance used (`limit`, `reset_at`, `retry_after`), platform-wide allowance used (no
 * `limit`), counter unverifiable (no `limit`, short `retry_after`). `reset_at` is the
 * next UTC midnight (Limits 8). `bare: true` is the triage endpoint's form, whose body
 * "has only code and message"; its `Retry-After` header stays, being no part of the body.
 */
export function lookupQuotaError(refusal: AllowanceRefusal, options: { bare?: boolean } = {}): ApiError {
  let message: string;
  let retryAfter: number;
  const extra: Record<string, number> = {};
  if (refusal.status === "unverifiable") {
    retryAfter = UNVERIFIABLE_RETRY_SECONDS;
    message = `Live lookup allowance could not be verified right now; retry in ${retryAfter} s`;
    extra.reset_at = nextUtcMidnight(refusal.checkedAt);
  } else {
    const { blocked } = refusal;
    retryAfter = secondsUntil(blocked.resetAt, refusal.checkedAt);
    if (blocked.scope === "account") {
      message = `Daily live lookup allowance used (${blocked.limit} per account per UTC day); resets at "${isoSeconds(blocked.resetAt)}"`;
      extra.limit = blocked.limit;
    } else {
      message = `Platform-wide live lookup allowance used for today; resets at "${isoSeconds(blocked.resetAt)}"`;
    }
    extra.reset_at = blocked.resetAt;
  }
  if (options.bare) return new ApiError("lookup_quota_exceeded", message, {}, { "Retry-After": String(retryAfter) });
  return retryableError("lookup_quota_exceeded", message, retryAfter, extra);
}

/**
 * `429 collection_quota_exceeded` (spec Limits 7: 10 collections per account per day,
 * reset at midnight UTC) with `limit`, `reset_at` and `retry_after`; an unverifiable
 * counter answers the same code without `limit` and with a short `retry_after`, as the
 * spec's lookup variant does.
 */
export function collectionQuotaError(refusal: AllowanceRefusal): ApiError {
  if (refusal.status === "unverifiable") {
    const message = `Dataset collection allowance could not be verified right now; retry in ${UNVERIFIABLE_RETRY_SECONDS} s`;
    return retryableError("collection_quota_exceeded", message, UNVERIFIABLE_RETRY_SECONDS, { reset_at: nextUtcMidnight(refusal.checkedAt) });
  }
  const { blocked } = refusal;
  const extra: Record<string, number> = blocked.scope === "account" ? { limit: blocked.limit, reset_at: blocked.resetAt } : { reset_at: blocked.resetAt };
  const message = `Daily dataset collection allowance used (${blocked.limit} per account per UTC day); resets at "${isoSeconds(blocked.resetAt)}"`;
  return retryableError("collection_quota_exceeded", message, secondsUntil(blocked.resetAt, refusal.checkedAt), extra);
}

/**
 * `429 dm_limit_reached` with `scope` (`day` for the rolling 24-hour bulk allowance,
 * `month` for the monthly one), `retry_after` and `Retry-After` (spec Errors; DM limits).
 * On `day` the message names the spec's remedy: resend with `spread: true`.
 */
export function dmLimitError(refusal: AllowanceRefusal, options: { scope: DmLimitScope }): ApiError {
  const { scope } = options;
  if (refusal.status === "unverifiable") {
    const message = `DM allowance could not be verified right now; retry in ${UNVERIFIABLE_RETRY_SECONDS} s`;
    return retryableError("dm_limit_reached", message, UNVERIFIABLE_RETRY_SECONDS, { scope });
  }
  const { blocked } = refusal;
  const remedy = scope === "day" ? `; resend with "spread": true to place the overflow over coming days` : "";
  const message = `DM allowance for the ${scope} used (${blocked.limit} allowed); room again at "${isoSeconds(blocked.resetAt)}"${remedy}`;
  return retryableError("dm_limit_reached", message, secondsUntil(blocked.resetAt, refusal.checkedAt), { scope });
}

/** What an endpoint's own limit is called in an answer: the `bucket` field and the words for its units. */
export interface LimitNames {
  /** The `bucket` of the envelope, as request-bucket refusals name theirs (`reads`, `writes`). */
  bucket: string;
  /** The units in words, plural: `fresh inspiration media searches`. */
  units: string;
}

/**
 * `429 rate_limited` for an endpoint's own daily allowance (spec Limits 9: inspiration
 * media's 500 fresh searches per UTC day), naming the `bucket` as request buckets do, with
 * `limit`, `reset_at` (the next UTC midnight), `retry_after` and `Retry-After`; counters
 * that cannot be verified answer the same code with a short retry (rule 9: refuse).
 */
export function rateLimitedAllowanceError(refusal: AllowanceRefusal, names: LimitNames): ApiError {
  if (refusal.status === "unverifiable") {
    const message = `The allowance of ${names.units} could not be verified right now; retry in ${UNVERIFIABLE_RETRY_SECONDS} s`;
    return retryableError("rate_limited", message, UNVERIFIABLE_RETRY_SECONDS, { bucket: names.bucket, reset_at: nextUtcMidnight(refusal.checkedAt) });
  }
  const { blocked } = refusal;
  const message = `Daily allowance used: ${blocked.limit} ${names.units} per account per UTC day; resets at "${isoSeconds(blocked.resetAt)}"`;
  return retryableError("rate_limited", message, secondsUntil(blocked.resetAt, refusal.checkedAt), {
    bucket: names.bucket,
    limit: blocked.limit,
    reset_at: blocked.resetAt,
  });
}

/**
 * `429 rate_limited` for a refused token bucket (spec Limits 9: "burst of 20 refilling one
 * per 3 seconds"): `bucket`, `limit` (the burst), `reset_at` (when the next unit is there)
 * and `retry_after` / `Retry-After` (whole seconds until then).
 */
export function tokenBucketError(state: TokenBucketState, checkedAtMs: number, names: LimitNames): ApiError {
  const retryAfter = Math.max(1, Math.ceil(state.retryAfterMs / 1000));
  const message = `Too many ${names.units}: ${state.burst} at once, then one every ${state.intervalMs / 1000} s; retry in ${retryAfter} s`;
  return retryableError("rate_limited", message, retryAfter, {
    bucket: names.bucket,
    limit: state.burst,
    reset_at: Math.ceil((checkedAtMs + state.retryAfterMs) / 1000),
  });
}

/** Whole seconds from `checkedAtMs` to `resetAt` (epoch seconds), at least 1. */
function secondsUntil(resetAt: number, checkedAtMs: number): number {
  return Math.max(1, Math.ceil(resetAt - checkedAtMs / 1000));
}

function nextUtcMidnight(ms: number): number {
  return windowStart(ms, DAY_SECONDS) + DAY_SECONDS;
}

/** `2025-06-02T00:00:00Z`: epoch seconds as an RFC 3339 UTC time without milliseconds. */
function isoSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(".000Z", "Z");
}
