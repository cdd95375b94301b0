/** A stored dataset row as the API shows it (`DatasetRow` in the OpenAPI document). */
import type { DatasetRowView } from "./dataset_schema.ts";
import type { StoredRow } from "./datasets_queries.ts";

/** The API view of a stored row. */
export function rowView(row: StoredRow): DatasetRowView {
  return {
    position: row.position,
    x_user_id: row.x_user_id,
    handle: row.handle,
    name: row.name,
    bio: row.bio,
    location: row.location,
    website: row.website,
    avatar_url: row.avatar_url,
    followers_count: row.followers_count,
    following_count: row.following_count,
    verified: row.verified,
    can_dm: row.can_dm,
    post_id: row.post_id,
    post_text: row.post_text,
    post_url: row.post_url,
    posted_at: row.posted_at?.toISOString() ?? null,
    likes: row.likes,
    replies: row.replies,
    reposts: row.reposts,
    quotes: row.quotes,
    impressions: row.impressions,
    brief: row.brief,
    hooks: row.hooks,
    message: row.message,
  };
}
