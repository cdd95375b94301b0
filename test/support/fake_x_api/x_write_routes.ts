/**
 * The write endpoints of the fake X API, as the account the user-context token acts
 * as: posts (`POST /2/tweets`, `DELETE /2/tweets/:id`), reposts, DMs and articles
 * (`POST /2/articles/draft`, then `/publish`). Like X, each answers only ids and
 * flags, never the full object.
 */
import { FakeParameterError, type XAnswer } from "./x_problems.ts";
import { ok, type Route, type RouteContext } from "./x_route.ts";

const FORBIDDEN_AS_OTHER: XAnswer = {
  status: 403,
  body: { title: "Forbidden", detail: "You are not permitted to perform this action.", type: "about:blank", status: 403 },
};

/** The POST and DELETE routes. */
export const WRITE_ROUTES: Route[] = [
  {
    method: "POST",
    pattern: /^\/2\/tweets$/,
    userContext: true,
    async handle(c) {
      const body = c.body ?? {};
      if (typeof body.text !== "string") throw new FakeParameterError("text", String(body.text), "The `text` field is required");
      // X attaches only media ids its upload answered, processed and unexpired (x_media_routes.ts).
      for (const id of body.media?.media_ids ?? []) {
        const refusal = c.media.refusal(String(id), c.userId!);
        if (refusal) throw new FakeParameterError("media.media_ids", String(id), refusal);
      }
      const post = await c.network.publishPost({
        authorId: c.userId!,
        text: body.text,
        replyToId: body.reply?.in_reply_to_tweet_id,
        quoteOfId: body.quote_tweet_id,
        mediaKeys: body.media?.media_ids,
      });
      return ok({ data: { id: post.id, text: post.text, edit_history_tweet_ids: [post.id] } }, 201);
    },
  },
  {
    method: "DELETE",
    pattern: /^\/2\/tweets\/(\d+)$/,
    userContext: true,
    async handle(c) {
      await c.network.deletePost(c.userId!, c.params[0]);
      return ok({ data: { deleted: true } });
    },
  },
  {
    method: "POST",
    pattern: /^\/2\/users\/(\d+)\/retweets$/,
    userContext: true,
    async handle(c) {
      if (!actsAs(c)) return FORBIDDEN_AS_OTHER;
      await c.network.repost(c.userId!, String(c.body?.tweet_id ?? ""));
      return ok({ data: { retweeted: true } });
    },
  },
  {
    method: "DELETE",
    pattern: /^\/2\/users\/(\d+)\/retweets\/(\d+)$/,
    userContext: true,
    async handle(c) {
      if (!actsAs(c)) return FORBIDDEN_AS_OTHER;
      await c.network.undoRepost(c.userId!, c.params[1]);
      return ok({ data: { retweeted: false } });
    },
  },
  {
    method: "POST",
    pattern: /^\/2\/dm_conversations\/with\/(\d+)\/messages$/,
    userContext: true,
    async handle(c) {
      const dm = await c.network.sendDm({ senderId: c.userId!, recipientId: c.params[0], text: String(c.body?.text ?? "") });
      return ok({ data: { dm_conversation_id: [dm.senderId, dm.recipientId].sort().join("-"), dm_event_id: dm.id } }, 201);
    },
  },
  {
    method: "POST",
    pattern: /^\/2\/articles\/draft$/,
    userContext: true,
    async handle(c) {
      const title = String(c.body?.title ?? "");
      const blocks: { text?: string }[] = c.body?.content_state?.blocks ?? [];
      const id = String(1_870_000_000_000_000_000n + BigInt(c.drafts.size + 1));
      c.drafts.set(id, { authorId: c.userId!, title, markdown: blocks.map((block) => block.text ?? "").join("\n\n") });
      return ok({ data: { id, title } }, 201);
    },
  },
  {
    method: "POST",
    pattern: /^\/2\/articles\/(\d+)\/publish$/,
    userContext: true,
    async handle(c) {
      const draft = c.drafts.get(c.params[0]);
      if (!draft || draft.authorId !== c.userId)
        return { status: 404, body: { title: "Not Found Error", detail: "Could not find the article draft.", type: "about:blank", status: 404 } };
      // The draft id is the client token: publishing a draft again answers the same post.
      const article = await c.network.publishArticle({ authorId: draft.authorId, title: draft.title, markdown: draft.markdown, token: `draft:${c.params[0]}` });
      return ok({ data: { post_id: article.postId } });
    },
  },
];

function actsAs(c: RouteContext): boolean {
  return c.params[0] === c.userId;
}
