/**
 * Events about scheduled posts (docs/webhooks.md): `post.scheduled`, `post.sent`,
 * `post.failed` carry the post as `GET /v1/scheduled-posts/{id}` answers it, read inside
 * the transaction that made the change; `post.deleted` carries `{ id }` (the post is gone).
 */
import type { Queryable } from "../db/sql.ts";
import { readPost } from "./read_post.ts";
import { recordEvent } from "../events/record_event.ts";

/** Records `type` for post `postId` in `tx`, with the post as it now reads. */
export async function recordPostEvent(tx: Queryable, type: "post.scheduled" | "post.sent" | "post.failed", postId: number, now: Date): Promise<void> {
  const post = await readPost(tx, postId);
  await recordEvent(tx, { accountId: post.account_id, type, objectType: "scheduled_post", objectId: postId, data: post, now });
}

/** Records `post.scheduled` for each of `postIds` (queued or re-timed) in `tx`. */
export async function recordPostsScheduled(tx: Queryable, postIds: readonly number[], now: Date): Promise<void> {
  for (const id of postIds) await recordPostEvent(tx, "post.scheduled", id, now);
}

/** Records `post.deleted` for each of `posts` in `tx` (the transaction deleting them). */
export async function recordPostsDeleted(tx: Queryable, posts: readonly { id: number; accountId: string }[], now: Date): Promise<void> {
  for (const post of posts) {
    await recordEvent(tx, {
      accountId: post.accountId,
      type: "post.deleted",
      objectType: "scheduled_post",
      objectId: post.id,
      data: { id: String(post.id), deleted: true },
      now,
    });
  }
}
