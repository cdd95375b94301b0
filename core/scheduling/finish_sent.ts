/**
 * The publisher's last step (publish_post.ts): a post whose parts are all on the network is
 * marked `sent`, with its `post.sent` event and its follow-ups, in one transaction. The posts
 * finishing in one loop turn share that transaction and its four statements (a burst of
 * posts due in one minute finishes in batches, not a transaction each).
 */
import type { Sql } from "../db/sql.ts";
import { perTurn } from "../db/turn_batches.ts";
import { recordEvents } from "../events/record_event.ts";
import { armFollowUps } from "./post_follow_ups.ts";
import { markPostsSent, type SentPost } from "./publish_queries.ts";
import { readPosts } from "./read_post.ts";

/**
 * Marks `post` sent if its caller still holds it (its last part recorded `published`
 * either way), records `post.sent` with the post as it now reads and arms its follow-ups,
 * all in one transaction shared with the posts finishing in the same loop turn. Answers
 * whether the caller still held it.
 */
export const finishSent: (sql: Sql, post: SentPost) => Promise<boolean> = perTurn(finishSentPosts);

/** `finishSent` for many posts in one transaction; answers, in order, whether each was held. */
export async function finishSentPosts(sql: Sql, posts: readonly SentPost[]): Promise<boolean[]> {
  const sent = await sql.begin(async (tx) => {
    const held = await markPostsSent(tx, posts);
    if (held.size === 0) return held;
    const ids = [...held.keys()];
    const [records] = await Promise.all([readPosts(tx, ids), armFollowUps(tx, ids)]);
    const at = new Map(posts.map((post) => [post.claim.postId, post.at]));
    await recordEvents(
      tx,
      records.map((post) => ({
        accountId: post.account_id,
        type: "post.sent",
        objectType: "scheduled_post",
        objectId: post.id,
        data: post,
        now: at.get(Number(post.id))!,
      })),
    );
    return held;
  });
  // Holders are per call: a stale caller of a post another call holds is told so.
  return posts.map((post) => sent.get(post.claim.postId) === post.claim.holder);
}
