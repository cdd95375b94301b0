/**
 * The demo accounts' synced content (docs/areas.md "Content and analytics") and audience (docs/areas.md "Audience"):
 * the first start syncs their year of posts, threads, replies and reposts, the replies they
 * received and 90 days of follower history from the network, then the main account's
 * followers, following, repliers and reposters, so `/v1/posts`, `/v1/posts/analytics` and
 * `/v1/audience/{kind}` answer at once; a later start only catches up. With the network
 * down (`THREADLINE_FAULTS=x`) the demo starts without them and the sync jobs fill them in
 * later.
 */
import type { Services } from "../context.ts";
import { syncAccountAudience } from "../audience/audience_sync.ts";
import { syncAccountContent } from "../content/content_sync.ts";
import { NetworkUnavailableError } from "../network/network_errors.ts";

/** Enough pages for a demo account's whole year in one run. */
const DEMO_PAGES = 60;

/** Enough pages per list for the demo main account's followers, following and reposters in one run. */
const DEMO_AUDIENCE_PAGES = 100;

/**
 * Syncs the content of each of `accountIds` once, and the audience of the first (the main
 * account): about a second per account (thousands of followers become contacts), so the
 * others' audience is left to the sync job to keep first start fast.
 */
export async function ensureDemoContent(services: Services, accountIds: readonly string[]): Promise<void> {
  for (const [index, accountId] of accountIds.entries()) {
    try {
      await syncAccountContent(services, accountId, { pagesPerRun: DEMO_PAGES });
      // After the content: the engagers are counted from the replies the content sync stored.
      // A network failure here pauses the lists (no throw); the job resumes them.
      if (index === 0) await syncAccountAudience(services, accountId, { pagesPerRun: DEMO_AUDIENCE_PAGES });
    } catch (error) {
      if (!(error instanceof NetworkUnavailableError)) throw error;
    }
  }
}
