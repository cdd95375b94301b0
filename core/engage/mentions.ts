/**
 * `GET /v1/engage/mentions` (supplement: Engage): posts that name the account or answer it,
 * read live from the network one page at a time (cursor paging) for a flat 3 feed fetches
 * (Limits 6). Each item says whether it is a direct `reply` to one of the account's own posts
 * or a `mention`, and carries the post it answers with that post's own parent (one more level
 * of ancestry). `sort=top` orders the page by engagement; `latest` keeps the network's newest
 * first. Mentions the account already answered are left out unless `include_replied=true`.
 */
import type { AccountContext } from "../context.ts";
import type { NetworkPost } from "../network/network_records.ts";
import { callNetwork } from "../network/call_network.ts";
import { profilesOf } from "../network/profiles_of.ts";
import { toXPost } from "../lookups/lookup_records.ts";
import { chargeFeedFetches } from "./feed_fetches.ts";
import type { ListMentionsInput } from "./mentions_schema.ts";
import { repliedPostIds } from "./replied_posts.ts";

/** Feed fetches one mentions read costs (Limits 6: "a flat 3"). */
export const MENTION_FETCH_UNITS = 3;

/** Mentions read per page. */
export const MENTIONS_PAGE = 20;

/** One page of the account's mentions. */
export async function listMentions(ctx: AccountContext, input: ListMentionsInput) {
  const release = await chargeFeedFetches(ctx, MENTION_FETCH_UNITS);
  try {
    return await readMentions(ctx, input);
  } catch (error) {
    await release();
    throw error;
  }
}

async function readMentions(ctx: AccountContext, input: ListMentionsInput) {
  const { network } = ctx.services;
  const accountId = ctx.account.id;
  const [page, replied] = await Promise.all([
    callNetwork(() => network.mentions(accountId, { cursor: input.cursor, limit: MENTIONS_PAGE })),
    repliedPostIds(ctx, accountId),
  ]);
  const items = page.items.filter((post) => post.authorId !== accountId && (input.include_replied || !replied.has(post.id)));
  const parents = await postsById(
    ctx,
    items.map((post) => post.replyToId),
  );
  const grandparents = await postsById(
    ctx,
    [...parents.values()].map((post) => post.replyToId),
  );
  const everyone = [...items, ...parents.values(), ...grandparents.values()].map((post) => post.authorId);
  const authors = await callNetwork(() => profilesOf(network, [...new Set(everyone)]));
  const data = items.map((post) => {
    const parent = post.replyToId ? parents.get(post.replyToId) : undefined;
    const grandparent = parent?.replyToId ? grandparents.get(parent.replyToId) : undefined;
    return {
      ...toXPost(post, authors),
      mention_type: post.kind === "reply" && post.replyToUserId === accountId ? ("reply" as const) : ("mention" as const),
      replied: replied.has(post.id),
      parent_post: parent ? { ...toXPost(parent, authors), parent_post: grandparent ? toXPost(grandparent, authors) : null } : null,
    };
  });
  if (input.sort === "top") data.sort((a, b) => engagement(b.metrics) - engagement(a.metrics) || b.created_at.localeCompare(a.created_at));
  return {
    data,
    pagination: { limit: MENTIONS_PAGE, has_more: page.nextCursor !== undefined, next_cursor: page.nextCursor ?? null },
    meta: { account_id: accountId, sort: input.sort, fetch_units: MENTION_FETCH_UNITS },
  };
}

/** The readable posts among `ids` (missing, private and deleted ones left out). */
async function postsById(ctx: AccountContext, ids: (string | null)[]): Promise<Map<string, NetworkPost>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const posts = await callNetwork(() => ctx.services.network.postsByIds(wanted));
  return new Map(posts.map((post) => [post.id, post]));
}

function engagement(metrics: { likes: number; reposts: number; replies: number; quotes: number }): number {
  return metrics.likes + 2 * metrics.reposts + metrics.replies + metrics.quotes;
}
