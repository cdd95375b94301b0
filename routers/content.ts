/** Content: `GET /v1/posts`, `GET /v1/replies`, `GET /v1/replies/received` (the account's synced content). */
import { inAccount, keyProcedure, router } from "../core/trpc.ts";
import { listOf } from "../core/schema.ts";
import { listOwnPostsInput, listReceivedRepliesInput, listSentRepliesInput, ownPost, receivedReply, sentReply } from "../core/content/content_schema.ts";
import { listOwnPosts, listReceivedReplies, listSentReplies } from "../core/content/list_own_content.ts";

const SYNCED =
  "Answered from the content sync (every 15 minutes per account; the last 7 days re-read each time so counters stay current, " +
  "a year of history); counters are as of `synced_at`.";

/** The Content tag's procedures. */
export const contentRouter = router({
  listPosts: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/posts",
        tags: ["Content"],
        summary: "List the account's published posts with their counters",
        description:
          "`type=posts` (default) lists originals, quotes and thread continuations; `replies` answers to other accounts; `all` " +
          `both plus reposts (Versioning 4). Newest first, or \`sort=likes\` / \`impressions\`. ${SYNCED} The newest-first ` +
          "list without `since`/`until` starts with the posts and thread parts Threadline published in the last 4 hours that the sync has " +
          "not read yet (`metrics_pending: true`, zero counters, newest first), then the synced posts; `limit` bounds every page and the " +
          "pages walk that one list, so a synced post the pending ones displace opens the next page.",
      },
    })
    .input(listOwnPostsInput)
    .use(inAccount)
    .output(listOf(ownPost))
    .query(({ ctx, input }) => listOwnPosts(ctx, input)),

  listReplies: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/replies",
        tags: ["Content"],
        summary: "List the replies the account sent, newest first",
        description:
          `Replies to other accounts (thread continuations are posts). ${SYNCED} Threadline itself sends no replies to other accounts ` +
          "(Engage is read-only), so `metrics_pending` is always false here.",
      },
    })
    .input(listSentRepliesInput)
    .use(inAccount)
    .output(listOf(sentReply))
    .query(({ ctx, input }) => listSentReplies(ctx, input)),

  listReceivedReplies: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/replies/received",
        tags: ["Content"],
        summary: "List the replies other accounts sent to the account's posts",
        description: `Newest first, or \`sort=most_liked\`; each with the replier's profile and the post it answers. The last 90 days are synced. ${SYNCED}`,
      },
    })
    .input(listReceivedRepliesInput)
    .use(inAccount)
    .output(listOf(receivedReply))
    .query(({ ctx, input }) => listReceivedReplies(ctx, input)),
});
