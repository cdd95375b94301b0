/** Days and minutes as the world counts them: UTC days since the Unix epoch. */

/** Milliseconds in a minute. */
export const MINUTE = 60_000;
/** Milliseconds in an hour. */
export const HOUR = 3_600_000;
/** Milliseconds in a day. */
export const DAY = 86_400_000;

/** The UTC day number of an instant. */
export function dayOf(ms: number): number {
  return Math.floor(ms / DAY);
}

/** ISO-8601 with milliseconds, as X API v2 writes times. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** Parses an optional ISO-8601 time to epoch ms. */
export function parseTime(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}
