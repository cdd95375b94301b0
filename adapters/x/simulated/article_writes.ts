/**
 * Publishing articles. X allows articles only on premium tiers and limits each account to
 * 10 article drafts and 5 publishes a UTC day (spec: Articles, "breaches surface as 502
 * x_publish_failed"); every attempt makes a draft, a success publishes it as a post that
 * carries the article. A retry with the same token resumes the same draft.
 */
import { NetworkRejectedError } from "../../../core/network/network_errors.ts";
import type { NetworkArticle } from "../../../core/network/network_records.ts";
import type { PublishArticleInput } from "../../../core/network/social_network.ts";
import { postUrl } from "../../../core/network/post_url.ts";
import { hashText } from "./hash.ts";
import { premiumOfPerson, requirePerson, usernameOf } from "./people.ts";
import { publishPost } from "./post_writes.ts";
import type { SimulatedContext } from "./simulated_context.ts";
import { isoTime } from "./time_units.ts";
import { DAY_MS } from "../../../core/time/durations.ts";
import {
  articleByToken,
  articleCountsSince,
  insertArticleDraft,
  lockAuthorArticles,
  markArticlePublished,
  nextWriteSeq,
  type ArticleRow,
} from "./written_queries.ts";

/** Article drafts and publishes one account may make per UTC day on X. */
export const ARTICLE_LIMITS = { drafts: 10, publishes: 5 } as const;

const ARTICLE_BASE = 1_880_000_000_000_000_000n;

/** Publishes an article as `input.authorId`. */
export async function publishArticle(ctx: SimulatedContext, input: PublishArticleInput): Promise<NetworkArticle> {
  const author = await requirePerson(ctx, input.authorId);
  if (premiumOfPerson(ctx, author) === "none") throw new NetworkRejectedError("premium_required", "Articles need an X Premium tier");
  const title = input.title.trim();
  if (title === "") throw new NetworkRejectedError("invalid", "An article needs a title");
  // A refusal after the draft is made is returned, not thrown: throwing would roll the draft back.
  const outcome = await ctx.pool.begin(async (tx): Promise<NetworkArticle | NetworkRejectedError> => {
    const sql = tx;
    // One publisher per author at a time, so two attempts cannot both pass the daily limits.
    await lockAuthorArticles(sql, hashText(`article:${input.authorId}`));
    const now = ctx.clock.now();
    const token = input.token ?? null;
    let draft: ArticleRow | undefined = token === null ? undefined : await articleByToken(sql, input.authorId, token);
    if (draft?.status === "published" && draft.post_id && draft.published_at) return articleOf(ctx, draft);
    const counts = await articleCountsSince(sql, input.authorId, new Date(Math.floor(now / DAY_MS) * DAY_MS));
    if (!draft) {
      if (counts.drafts >= ARTICLE_LIMITS.drafts) {
        throw new NetworkRejectedError("daily_limit", `X allows ${ARTICLE_LIMITS.drafts} article drafts a day`);
      }
      const seq = await nextWriteSeq(sql);
      draft = await insertArticleDraft(sql, {
        seq,
        article_id: String(ARTICLE_BASE + BigInt(seq)),
        author_id: input.authorId,
        title,
        markdown: input.markdown,
        cover_url: input.coverUrl ?? null,
        client_token: token,
        created_at: new Date(now),
      });
    }
    if (counts.published >= ARTICLE_LIMITS.publishes) {
      // The draft stays, as on X; a later retry with the same token publishes it.
      return new NetworkRejectedError("daily_limit", `X allows ${ARTICLE_LIMITS.publishes} article publishes a day`);
    }
    const post = await publishPost(
      { ...ctx, sql },
      { authorId: input.authorId, text: `${title}\n\nhttps://x.com/i/article/${draft.article_id}`, token: token === null ? undefined : `article:${token}` },
      { id: draft.article_id, title },
    );
    return articleOf(ctx, await markArticlePublished(sql, draft.seq, post.id, new Date(now)));
  });
  if (outcome instanceof NetworkRejectedError) throw outcome;
  return outcome;
}

function articleOf(ctx: SimulatedContext, row: ArticleRow): NetworkArticle {
  return {
    id: row.article_id,
    authorId: row.author_id,
    postId: row.post_id!,
    url: postUrl(usernameOf(ctx, row.author_id), row.post_id!),
    title: row.title,
    publishedAt: isoTime(row.published_at!.getTime()),
  };
}
