/**
 * Walks pages of network lists within a page budget (ARCHITECTURE "Sync jobs": a bounded
 * number of pages per run, a page never read twice in a run). Every walk of the network
 * that spends a budget of pages (own content and audience syncs, dataset collections)
 * goes through this one walker.
 */
import type { Page } from "./network_records.ts";

/** Where a walk ended: the list's end (`complete`), or the budget's (`stoppedAt`: where to go on). */
export interface WalkEnd {
  complete: boolean;
  stoppedAt?: string;
}

/** A page walker with `budget` pages to spend across its walks. */
export interface PageWalker {
  /** Pages still allowed. */
  left(): number;
  /** Pages read so far. */
  read(): number;
  /**
   * Walks pages of `list` from `cursor` until the list ends (complete), the budget does
   * (stoppedAt) or a page repeats (neither: the network is going round in circles, so
   * nothing may be concluded about what was not read). `take` sees each item and may
   * answer `false` to stop after the current page (a cap reached): the walk then ends
   * with `stoppedAt` at the next page.
   */
  walk<T>(list: string, fetchPage: (cursor: string | undefined) => Promise<Page<T>>, cursor: string | undefined, take: (item: T) => unknown): Promise<WalkEnd>;
  /** Like `walk`, a page at a time: `takePage` answers whether to go on to the next page. */
  walkPages<T>(
    list: string,
    fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
    cursor: string | undefined,
    takePage: (page: Page<T>) => boolean | Promise<boolean>,
  ): Promise<WalkEnd>;
}

/** Builds a walker with `budget` pages (unbounded when infinite). */
export function pageWalker(budget: number): PageWalker {
  let read = 0;
  const seen = new Set<string>();
  const walker: PageWalker = {
    left: () => budget - read,
    read: () => read,
    async walkPages(list, fetchPage, cursor, takePage) {
      let next = cursor;
      for (;;) {
        const key = `${list}:${next ?? ""}`;
        if (seen.has(key)) return { complete: false };
        if (read >= budget) return { complete: false, stoppedAt: next };
        seen.add(key);
        read += 1;
        const page = await fetchPage(next);
        const more = await takePage(page);
        if (!page.nextCursor) return { complete: true };
        next = page.nextCursor;
        if (!more) return { complete: false, stoppedAt: next };
      }
    },
    walk(list, fetchPage, cursor, take) {
      return walker.walkPages(list, fetchPage, cursor, (page) => {
        let more = true;
        for (const item of page.items) if (take(item) === false) more = false;
        return more;
      });
    },
  };
  return walker;
}
