/**
 * The next free queue slot (supplement: Queue; `scheduled_for: "next_slot"` on post
 * create and update): the first slot time at least 60 s ahead (the least lead a post may
 * have) that no queued post of the account sits on exactly.
 */
import type { Queryable } from "../db/sql.ts";
import { ApiError } from "../errors.ts";
import { MAX_LEAD_MONTHS, leadWindow } from "./lead_window.ts";
import { effectiveQueueSettings } from "./queue_defaults.ts";
import { queuedTimesFrom, queueSettingsOf } from "./queue_queries.ts";
import { slotOccurrences } from "./slot_occurrences.ts";

/**
 * The first free slot of `accountId` at or after `now` + 60 s and within 18 months.
 * Throws `400 invalid_parameter` (naming `scheduled_for`) when the account has no slots
 * or every slot within 18 months is taken.
 */
export async function nextFreeSlot(sql: Queryable, accountId: string, now: Date): Promise<Date> {
  const settings = effectiveQueueSettings(await queueSettingsOf(sql, accountId));
  if (settings.slots.every((slot) => slot.days.length === 0)) {
    throw new ApiError(
      "invalid_parameter",
      'Invalid "scheduled_for": "next_slot" needs queue slots, and this account has none; add slots with PATCH /v1/queue-settings or send a time',
    );
  }
  const { from, horizon } = leadWindow(now);
  const taken = new Set((await queuedTimesFrom(sql, accountId, from)).map((time) => time.getTime()));
  for (const instant of slotOccurrences(settings.slots, settings.timezone, from.getTime(), horizon.getTime())) {
    if (!taken.has(instant)) return new Date(instant);
  }
  throw new ApiError(
    "invalid_parameter",
    `Invalid "scheduled_for": every queue slot in the next ${MAX_LEAD_MONTHS} months is taken; send a time instead of "next_slot"`,
  );
}
