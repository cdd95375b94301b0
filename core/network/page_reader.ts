/**
 * Reads pages of a network list within a budget (ARCHITECTURE "Sync jobs": a bounded number
 * of pages per run, a page never read twice in a run). Every sync (own content, audience)
 * walks the network through this one reader.
 */
import type { Page } from "./network_records.ts";

/** Where a walk ended: the list's end (`complete`), or the budget's (`stoppedAt`: where to go on). */
export interface WalkEnd {
  complete: boolean;
  stoppedAt?: string;
}

/** A page reader with `budget` pages to spend. */
export interface PageReader {
  /** Pages still allowed. */
  left(): number;
  /** Pages read so far. */
  read(): number;
  /**
   * Walks pages of `list` from `cursor` until the list ends (complete), the budget does
   * (stoppedAt) or a page repeats (neither: the network is going round in circles, so
   * nothing may be concluded about what was not read).
   */
  walk<T>(list: string, fetchPage: (cursor: string | undefined) => Promise<Page<T>>, cursor: string | undefined, take: (item: T) => unknown): Promise<WalkEnd>;
}

/**
 * Builds a reader with `budget` pages. `take` may answer `false` to stop the walk after
 * the current page (a cap reached); such a walk ends with `stoppedAt` at the next page.
 */
export function pageReader(budget: number): PageReader {
  let read = 0;
  const seen = new Set<string>();
  return {
    left: () => budget - read,
    read: () => read,
    async walk(list, fetchPage, cursor, take) {
      let next = cursor;
      for (;;) {
        const key = `${list}:${next ?? ""}`;
        if (seen.has(key)) return { complete: false };
        if (read >= budget) return { complete: false, stoppedAt: next };
        seen.add(key);
        read += 1;
        const page = await fetchPage(next);
        let more = true;
        for (const item of page.items) if (take(item) === false) more = false;
        if (!page.nextCursor) return { complete: true };
        next = page.nextCursor;
        if (!more) return { complete: false, stoppedAt: next };
      }
    },
  };
}
