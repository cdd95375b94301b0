/**
 * Lengths of time in milliseconds (and the day in seconds, for the limits that count in
 * seconds), defined once for every area and adapter: a day is a UTC day of 24 hours, the
 * unit of the spec's daily allowances, retention periods and rolling windows.
 */

/** Milliseconds in a minute. */
export const MINUTE_MS = 60_000;

/** Milliseconds in an hour. */
export const HOUR_MS = 3_600_000;

/** Milliseconds in a UTC day. */
export const DAY_MS = 86_400_000;

/** Seconds in a UTC day. */
export const DAY_SECONDS = 86_400;
