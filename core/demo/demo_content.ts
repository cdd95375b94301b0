/**
 * The demo accounts' synced content (issue 12, scope 6): the first start syncs their year of
 * posts, threads, replies and reposts, the replies they received and 90 days of follower
 * history from the network, so `/v1/posts` and `/v1/posts/analytics` answer at once; a
 * later start only catches up. With the network down (`THREADLINE_FAULTS=x`) the demo
 * starts without it and the sync job fills it in later.
 */
import type { Services } from "../context.ts";
import { syncAccountContent } from "../content/content_sync.ts";
import { NetworkUnavailableError } from "../network/network_errors.ts";

/** Enough pages for a demo account's whole year in one run. */
const DEMO_PAGES = 60;

/** Syncs each of `accountIds` once. */
export async function ensureDemoContent(services: Services, accountIds: readonly string[]): Promise<void> {
  for (const accountId of accountIds) {
    try {
      await syncAccountContent(services, accountId, { pagesPerRun: DEMO_PAGES });
    } catch (error) {
      if (!(error instanceof NetworkUnavailableError)) throw error;
    }
  }
}
