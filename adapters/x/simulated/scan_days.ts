/** Walks a newest-first list one UTC day at a time until enough items are found. */
import type { PostRef } from "./post_refs.ts";

/**
 * Collects refs from `fromDay` down to `toDay` that `keep` accepts, stopping after the
 * first day that brings the count to `want`: every ref of an older day is older than
 * all collected, so the newest `want` are among them.
 */
export function scanDays(fromDay: number, toDay: number, want: number, keep: (ref: PostRef) => boolean, refsOn: (day: number) => PostRef[]): PostRef[] {
  const found: PostRef[] = [];
  for (let day = fromDay; day >= toDay && found.length < want; day--) {
    for (const ref of refsOn(day)) if (keep(ref)) found.push(ref);
  }
  return found;
}
