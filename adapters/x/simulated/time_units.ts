/** Days as the world counts them: UTC days since the Unix epoch. */
import { DAY_MS } from "../../../core/time/durations.ts";

/** The UTC day number of an instant. */
export function dayOf(ms: number): number {
  return Math.floor(ms / DAY_MS);
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
