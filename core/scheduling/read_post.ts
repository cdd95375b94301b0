/** Reads one post as its record (after a write, by id). */
import type { Queryable } from "../db/sql.ts";
import { ApiError } from "../errors.ts";
import type { ScheduledPost } from "./scheduled_post_schema.ts";
import { postById, tagsOfPosts } from "./scheduled_posts_queries.ts";
import { toScheduledPost } from "./post_view.ts";

/** The record of post `id` (`404 not_found` when it is gone). */
export async function readPost(sql: Queryable, id: number): Promise<ScheduledPost> {
  // Both reads go out together (pipelined on one connection, also inside a transaction).
  const [row, tags] = await Promise.all([postById(sql, id), tagsOfPosts(sql, [id])]);
  if (!row) throw new ApiError("not_found", `Cannot find scheduled post "${id}"`);
  return toScheduledPost(row, (tags.get(id) ?? []) as ScheduledPost["tags"]);
}
