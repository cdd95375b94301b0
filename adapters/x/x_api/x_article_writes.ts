/**
 * Publishing an article through X's Articles API (docs.x.com, "Articles"): `POST
 * /2/articles/draft` with the title and the body as DraftJS content
 * (markdown_content_state.ts), then `POST /2/articles/:id/publish`, which answers the
 * id of the post carrying the article; that post is read back for its time and link.
 * Both need a user-context token, and X allows articles on premium tiers only (its
 * refusal maps to `premium_required`). The cover is not sent: X takes a cover only as
 * media uploaded through its own media endpoint. A retry with the same token reuses
 * this process's draft and answers a finished article again (X has no client tokens).
 */
import { NetworkRejectedError } from "../../../core/network/network_errors.ts";
import type { NetworkArticle } from "../../../core/network/network_records.ts";
import { postUrl } from "../../../core/network/post_url.ts";
import type { SocialNetwork } from "../../../core/network/social_network.ts";
import { markdownContentState } from "./markdown_content_state.ts";
import type { XApiContext } from "./x_api_context.ts";
import { TWEET_PARAMS } from "./x_api_fields.ts";
import type { XTweet } from "./x_api_types.ts";
import { postFromX } from "./x_post_record.ts";
import { isoTime } from "./x_text.ts";

/** The port's article publishing over X. */
export function xArticleWrites(ctx: XApiContext): Pick<SocialNetwork, "publishArticle"> {
  const drafts = new Map<string, string>();
  const finished = new Map<string, NetworkArticle>();
  return {
    async publishArticle(input) {
      const title = input.title.trim();
      if (title === "") throw new NetworkRejectedError("invalid", "An article needs a title");
      const key = input.token === undefined ? undefined : `${input.authorId}:${input.token}`;
      const done = key === undefined ? undefined : finished.get(key);
      if (done) return done;
      const actor = await ctx.actorFor(input.authorId);
      const subject = { resource: "article" as const, ref: input.token ?? title };
      let draftId = key === undefined ? undefined : drafts.get(key);
      if (draftId === undefined) {
        const draft = await ctx.client.data<{ id: string }>({
          method: "POST",
          path: "/2/articles/draft",
          body: { title, content_state: markdownContentState(input.markdown) },
          actingAs: actor,
          subject,
        });
        draftId = draft.data.id;
        if (key !== undefined) drafts.set(key, draftId);
      }
      const published = await ctx.client.data<{ post_id: string }>({ method: "POST", path: `/2/articles/${draftId}/publish`, actingAs: actor, subject });
      const postId = published.data.post_id;
      const article = await ctx.client
        .data<XTweet>({ path: `/2/tweets/${postId}`, query: TWEET_PARAMS, actingAs: actor, subject: { resource: "post", ref: postId } })
        .then((body): NetworkArticle => {
          const post = postFromX(body.data, body.includes);
          const username = body.includes?.users?.find((user) => user.id === post.authorId)?.username;
          return {
            // The article link on the post names the article; the draft id is X's answer otherwise.
            id: post.article && post.article.id !== post.id ? post.article.id : draftId,
            authorId: input.authorId,
            postId,
            url: username ? postUrl(username, postId) : `https://x.com/i/status/${postId}`,
            title: post.article?.title || title,
            publishedAt: post.createdAt,
          };
        })
        // Published is published: a failed read-back must not turn it into a failure (a retry would publish twice).
        .catch(
          (): NetworkArticle => ({
            id: draftId,
            authorId: input.authorId,
            postId,
            url: `https://x.com/i/status/${postId}`,
            title,
            publishedAt: isoTime(undefined, ctx.clock.now()),
          }),
        );
      if (key !== undefined) finished.set(key, article);
      return article;
    },
  };
}
