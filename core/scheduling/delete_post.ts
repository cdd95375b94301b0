/**
 * `DELETE /v1/scheduled-posts/{id}`: removes the post; a queued post gives back exactly
 * the quota unit it took. A sent post's record goes; the network keeps the post.
 */
import { recordPostsDeleted } from "./post_events.ts";
import type { KeyContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { assertSchedulerReachable } from "./scheduling_gate.ts";
import { refundPostQuota } from "../post_quota/post_quota.ts";
import { deletePostRow, postById, publicationStarted } from "./scheduled_posts_queries.ts";
import { reachablePost } from "./post_access.ts";
import type { PostByIdInput } from "./scheduled_post_input_schema.ts";

/** Deletes a post the key can write; answers `{ id, deleted: true }`. */
export async function deletePost(ctx: KeyContext, input: PostByIdInput) {
  assertSchedulerReachable(ctx);
  const { sql } = ctx.services;
  const id = Number(input.id);
  await reachablePost(ctx, sql, id, { accountId: input.account_id, write: true });
  await sql.begin(async (tx) => {
    const row = await postById(tx, id, { forUpdate: true });
    if (!row) throw new ApiError("not_found", `Cannot find scheduled post "${id}"`);
    if (row.status === "scheduled" && (await publicationStarted(tx, id, row.publish_version))) {
      throw new ApiError("invalid_request", `Scheduled post "${id}" is being published and cannot be deleted now`);
    }
    if (row.quota_period_start !== null) {
      await refundPostQuota(tx, row.account_id, { periodStart: row.quota_period_start }, [`post:${id}`], "deleted");
    }
    await deletePostRow(tx, id);
    await recordPostsDeleted(tx, [{ id, accountId: row.account_id }], new Date(ctx.services.clock.now()));
  });
  return { data: { id: input.id, deleted: true as const } };
}
