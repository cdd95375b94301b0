/**
 * `credits.low` (docs/webhooks.md: below a threshold the user sets): recorded in the
 * transaction of the charge that takes the AI credit pool from at least the threshold to
 * below it, at most once per credit period. The user sets the threshold with
 * `PUT /v1/events/settings` (`credits_low_threshold`, null or absent: off).
 */
import type { Queryable } from "../db/sql.ts";
import type { PoolRow } from "./credits_queries.ts";
import { remainingOf } from "./pool_remaining.ts";
import { eventSettingsOfAccount, markCreditsLowAnnounced } from "../events/event_settings_queries.ts";
import { recordEvent } from "../events/record_event.ts";

/**
 * Called by a charge inside its transaction with the pool before and after the movement
 * (the pool row is locked, so charges of one owner pass here one at a time).
 */
export async function noteCreditsMovement(tx: Queryable, before: PoolRow, after: PoolRow, now: Date): Promise<void> {
  const remaining = remainingOf(after);
  if (remaining >= remainingOf(before)) return;
  const settings = await eventSettingsOfAccount(tx, after.owner_id);
  const threshold = settings?.credits_low_threshold;
  if (!settings || threshold === null || threshold === undefined) return;
  if (remainingOf(before) < threshold || remaining >= threshold) return;
  if (settings.credits_low_period_start?.getTime() === after.period_start.getTime()) return;
  await markCreditsLowAnnounced(tx, settings.owner_id, after.period_start);
  const data = {
    remaining: Math.max(0, remaining),
    threshold,
    pool: after.allowance,
    bonus: after.bonus,
    used: after.spent,
    period: after.period,
    period_start: after.period_start.toISOString(),
    period_end: after.period_end.toISOString(),
  };
  await recordEvent(tx, { accountId: after.owner_id, type: "credits.low", objectType: "credits", objectId: after.owner_id, data, now });
}
