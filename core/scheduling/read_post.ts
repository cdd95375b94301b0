/** Reads posts as their records (after a write, by id). */
import type { Queryable } from "../db/sql.ts";
import { ApiError } from "../errors.ts";
import type { ScheduledPost } from "./scheduled_post_schema.ts";
import { postById, postsByIds, tagsOfPosts } from "./scheduled_posts_queries.ts";
import { toScheduledPost } from "./post_view.ts";

/** The record of post `id` (`404 not_found` when it is gone). */
export async function readPost(sql: Queryable, id: number): Promise<ScheduledPost> {
  // Both reads go out together (pipelined on one connection, also inside a transaction).
  const [row, tags] = await Promise.all([postById(sql, id), tagsOfPosts(sql, [id])]);
  if (!row) throw new ApiError("not_found", `Cannot find scheduled post "${id}"`);
  return toScheduledPost(row, (tags.get(id) ?? []) as ScheduledPost["tags"]);
}

/** The records of the posts among `ids` that exist, in `ids` order. */
export async function readPosts(sql: Queryable, ids: readonly number[]): Promise<ScheduledPost[]> {
  const [rows, tags] = await Promise.all([postsByIds(sql, ids), tagsOfPosts(sql, ids)]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toScheduledPost(row, (tags.get(id) ?? []) as ScheduledPost["tags"])] : [];
  });
}
