/**
 * The size estimate of a network collection (spec Limits 7: "1 unit for the size estimate
 * plus expected pages, charged before the walk"): the post's counter (replies, quotes,
 * reposts) or the list's member count, read live. It decides `201` (one quick read) or
 * `202` (a background walk) and the enrichment units charged.
 */
import { ApiError } from "../errors.ts";
import { callNetwork } from "../network/call_network.ts";
import type { SocialNetwork } from "../network/social_network.ts";
import type { CollectionTarget } from "./collection_target.ts";
import { COLLECTION_PAGE_SIZE, COLLECTION_SCAN_LIMIT, type WalkSpec } from "./collection_walk.ts";

/** What the estimate read: the expected total (null: unsizable) and a label for the title. */
export interface CollectionEstimate {
  expectedTotal: number | null;
  label: string;
}

/** Reads the size of `source` of `target` (`404 post_not_found` / `x_list_not_found`, `503` ...). */
export async function estimateCollection(network: SocialNetwork, source: WalkSpec["source"], target: CollectionTarget): Promise<CollectionEstimate> {
  if (source === "list_members") {
    const list = await callNetwork(() => network.listById(target.id));
    // Only public lists (spec Engage: "Only public lists are accepted"); a private one reads as missing.
    if (list.private) throw new ApiError("x_list_not_found", `Cannot find public X list "${target.id}"`);
    // A count of 0 may be stale: unsizable, like a post's (walked in the background).
    return { expectedTotal: list.memberCount > 0 ? list.memberCount : null, label: `list "${list.name}"` };
  }
  const post = await callNetwork(() => network.postById(target.id));
  const count = source === "repliers" ? post.metrics.replies : source === "quoters" ? post.metrics.quotes : post.metrics.reposts;
  // A count of 0 may be stale or hidden (X withholds some counters): unsizable, walked in the background.
  return { expectedTotal: count > 0 ? count : null, label: `post ${post.id}` };
}

/** True when the whole collection fits one read of one page (answers `201` at once). */
export function fitsOneRead(expectedTotal: number | null): boolean {
  return expectedTotal !== null && expectedTotal <= COLLECTION_PAGE_SIZE;
}

/** Items a walk is expected to read: every one when filters narrow (up to the scan limit), else about `max_rows`. */
export function expectedReadOf(maxRows: number, narrowed: boolean): number {
  return narrowed ? COLLECTION_SCAN_LIMIT : maxRows;
}

/**
 * Enrichment units (spec Limits 7): 1 for the estimate plus the expected pages,
 * `ceil(min(expected_total, what the walk may read) / 100)`; an unsizable collection is
 * charged one page (its first read), since nothing better is known before the walk.
 */
export function enrichmentUnitsOf(expectedTotal: number | null, expectedRead: number): number {
  if (expectedTotal === null) return 2;
  return 1 + Math.max(1, Math.ceil(Math.min(expectedTotal, expectedRead) / COLLECTION_PAGE_SIZE));
}
