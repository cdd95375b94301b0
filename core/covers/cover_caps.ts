/**
 * Per-plan cover caps (supplement: Articles, `POST /v1/articles/{id}/cover`: "daily/monthly
 * cover caps `429` with `remaining_day`/`remaining_month`"). The numbers are Threadline's
 * choice (the source shows none), documented in docs/choices.md and the OpenAPI document. They are
 * counted per credit owner (the account owner, as credits are) in PostgreSQL from the
 * generations themselves, per UTC day and UTC calendar month; a generation that failed was
 * refunded and does not count. The answer is `429 ai_action_limited` (the spec's code for
 * a per-period action cap) with `scope: "account"`, `cap` (`day` or `month`),
 * `remaining_day`, `remaining_month`, `retry_after`, `reset_at` and `Retry-After`.
 */
import type { Queryable } from "../db/sql.ts";
import { type ApiError, retryableError } from "../errors.ts";
import { coverCountsSince, lockCoverCaps } from "./cover_queries.ts";
import { DAY_MS } from "../time/durations.ts";

/** Covers a plan allows per UTC day and per UTC calendar month. */
export interface CoverCaps {
  day: number;
  month: number;
}

/** Every plan's caps; a plan not listed gets `basic`'s. */
export const COVER_CAPS: Readonly<Record<string, CoverCaps>> = {
  trial: { day: 2, month: 5 },
  basic: { day: 5, month: 30 },
  pro: { day: 10, month: 100 },
  advanced: { day: 25, month: 300 },
  ultra: { day: 50, month: 1_000 },
  enterprise: { day: 1_000, month: 20_000 },
};

/** The caps of plan `planId`. */
export function coverCapsOf(planId: string): CoverCaps {
  return COVER_CAPS[planId] ?? COVER_CAPS.basic;
}

/**
 * Inside the transaction that records a generation: locks the owner's caps and throws
 * `429 ai_action_limited` when the day or the month is used up.
 */
export async function assertCoverCaps(tx: Queryable, ownerId: string, caps: CoverCaps, nowMs: number): Promise<void> {
  await lockCoverCaps(tx, ownerId);
  const now = new Date(nowMs);
  const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const used = await coverCountsSince(tx, ownerId, { dayStart, monthStart });
  const remaining = { remaining_day: Math.max(0, caps.day - used.day), remaining_month: Math.max(0, caps.month - used.month) };
  if (remaining.remaining_month === 0) {
    const resetAt = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    throw capError("month", caps.month, resetAt, nowMs, remaining);
  }
  if (remaining.remaining_day === 0) throw capError("day", caps.day, dayStart.getTime() + DAY_MS, nowMs, remaining);
}

function capError(
  cap: "day" | "month",
  limit: number,
  resetAtMs: number,
  nowMs: number,
  remaining: { remaining_day: number; remaining_month: number },
): ApiError {
  const resetAt = Math.ceil(resetAtMs / 1000);
  const period = cap === "day" ? "UTC day" : "UTC month";
  const message = `Cover cap reached: ${limit} covers per ${period} on this plan; more from "${new Date(resetAtMs).toISOString().replace(".000Z", "Z")}"`;
  return retryableError("ai_action_limited", message, Math.max(1, resetAt - Math.floor(nowMs / 1000)), {
    scope: "account",
    cap,
    ...remaining,
    reset_at: resetAt,
  });
}
