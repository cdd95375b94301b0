/**
 * How far ahead a post may be scheduled (supplement: Scheduling, `scheduled_for`): at least
 * 60 s, at most 18 months. Queue slots are counted within the same window, so the next free
 * slot and a reflow never place a post where a create or update would refuse it.
 */

/** Posts go out at least this far ahead. */
export const MIN_LEAD_SECONDS = 60;
/** ... and at most this many months ahead. */
export const MAX_LEAD_MONTHS = 18;

/** The window a post may be scheduled in, seen at `now`: [from, horizon]. */
export function leadWindow(now: Date): { from: Date; horizon: Date } {
  const horizon = new Date(now);
  horizon.setUTCMonth(horizon.getUTCMonth() + MAX_LEAD_MONTHS);
  return { from: new Date(now.getTime() + MIN_LEAD_SECONDS * 1000), horizon };
}
