/**
 * The demo world's Engage feeds (docs/areas.md "Engage"; shared/spec/demo_world.md `engage.*`):
 * on A's main account a keywords feed "AI builders" (the open one when A had none) and a
 * list feed on the network's public demo list. Re-runs find them by name and leave them.
 * The list's name is read from the network when it answers (`THREADLINE_FAULTS=x` leaves it
 * null); without network fixtures there is no list feed.
 */
import type { Services } from "../context.ts";
import { NetworkError } from "../network/network_errors.ts";
import { feedIdNamed, insertFeed, lockAccountFeeds } from "../engage/feeds_queries.ts";
import type { FeedSourceColumns } from "../engage/feeds_queries.ts";

const KEYWORDS_FEED = "AI builders";
const LIST_FEED = "Industry voices";

/** A's demo feeds: `keywords_feed` and, with network fixtures, `list_feed` (ids as the API spells them). */
export interface DemoEngage {
  keywords_feed: string;
  list_feed?: string;
}

/** Ensures A's demo feeds. */
export async function ensureDemoEngage(services: Services, accountId: string): Promise<DemoEngage> {
  const none = { keywords: null, x_list_id: null, x_list_name: null, list_id: null };
  const keywordsFeed = await ensureFeed(services, accountId, KEYWORDS_FEED, { ...none, type: "keywords", keywords: ["AI agents", "LLM evals"] });
  const listId = services.network.demoFixtures?.().public_list_id;
  if (!listId) return { keywords_feed: keywordsFeed };
  const listFeed = await ensureFeed(services, accountId, LIST_FEED, {
    ...none,
    type: "x_list",
    x_list_id: listId,
    x_list_name: await listName(services, listId),
  });
  return { keywords_feed: keywordsFeed, list_feed: listFeed };
}

async function ensureFeed(services: Services, accountId: string, name: string, source: FeedSourceColumns): Promise<string> {
  const { sql, clock } = services;
  const existing = await feedIdNamed(sql, accountId, name);
  if (existing !== undefined) return String(existing);
  const id = await sql.begin(async (tx) => {
    const { hasActive } = await lockAccountFeeds(tx, accountId);
    return insertFeed(tx, { accountId, name, active: !hasActive, source }, new Date(clock.now()));
  });
  return String(id);
}

async function listName(services: Services, listId: string): Promise<string | null> {
  try {
    return (await services.network.listById(listId)).name;
  } catch (error) {
    if (error instanceof NetworkError) return null;
    throw error;
  }
}
