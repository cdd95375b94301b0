/** A stored feed in the API's shape, with what one fetch of it costs (spec Limits 6). */
import type { EngageFeed } from "./feed_schema.ts";
import type { FeedRow } from "./feeds_queries.ts";

/**
 * Members a contact-list feed reads per fetch. A list with more members is read a slice at
 * a time, rotating through them, and such a fetch counts 3 (Limits 6: "a list feed that
 * rotates its members counts 3"). An X list is served by the network as one stream of its
 * members' posts, so it never rotates.
 */
export const ROTATION_SLICE = 10;

/** Feed-bucket units one fetch of `row` costs. */
export function fetchUnits(row: Pick<FeedRow, "type" | "list_member_count">): 1 | 3 {
  return row.type === "list" && (row.list_member_count ?? 0) > ROTATION_SLICE ? 3 : 1;
}

/** The feed as the API answers it. */
export function toFeed(row: FeedRow): EngageFeed {
  return {
    id: String(row.id),
    name: row.name,
    type: row.type,
    keywords: row.keywords,
    x_list_id: row.x_list_id,
    x_list_name: row.x_list_name,
    list_id: row.list_id,
    active: row.active,
    fetch_units: fetchUnits(row),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
