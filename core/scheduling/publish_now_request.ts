/**
 * The request half of publish-now (supplement: Scheduling, "Publish-now mode"): publishes
 * the post the request created through the same publisher as the job (so a retry after a
 * crash reconciles part by part instead of posting twice) and answers the sent post. A
 * post the publisher gave up on answers its reason; a transient network failure leaves it
 * queued (its fallback job or a retry with the same Idempotency-Key finishes it).
 */
import type { KeyContext } from "../context.ts";
import { ApiError, retryableError } from "../errors.ts";
import { publishNow } from "./publish_post.ts";
import { postById } from "./scheduled_posts_queries.ts";
import { readPost } from "./read_post.ts";
import type { ScheduledPost } from "./scheduled_post_schema.ts";

/** Seconds a client should wait before retrying while another attempt is publishing. */
const BUSY_RETRY_SECONDS = 5;

/** Publishes post `postId` now (unless already sent) and answers its record. */
export async function publishNowAndRead(ctx: KeyContext, postId: number): Promise<ScheduledPost> {
  const { sql, network, clock, media } = ctx.services;
  const row = await postById(sql, postId);
  if (!row) throw new ApiError("not_found", `Cannot find scheduled post "${postId}"`);
  if (row.status === "scheduled") {
    const result = await publishNow({ sql, network, clock, media }, { postId, version: row.publish_version });
    if (result.outcome === "reauth_required") {
      throw new ApiError("reauth_required", `The account's X authorisation was lost; connect it again, then retry (the post stays scheduled): ${result.error}`);
    }
    if (result.outcome === "retry") {
      throw new ApiError("upstream_unavailable", `The network did not take the post (${result.error}); it stays queued. Retry with the same Idempotency-Key`);
    }
    if (result.outcome === "busy") {
      throw retryableError("idempotency_in_flight", "The post is still being published; retry with the same Idempotency-Key", BUSY_RETRY_SECONDS);
    }
  }
  const post = await readPost(sql, postId);
  if (post.status === "error") throw new ApiError("upstream_error", `The network refused the post: ${post.error ?? "no reason given"}`);
  if (post.status !== "sent") throw new ApiError("upstream_unavailable", "The post was not published yet; retry with the same Idempotency-Key");
  return post;
}
