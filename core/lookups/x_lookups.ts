/**
 * The live X lookups (spec X Lookups rows and Limits 5, 8): `GET /v1/x/posts/{id}`
 * (`include_quotes`), `/x/posts/{id}/replies`, `/x/users/{handle}`,
 * `/x/users/{handle}/posts`. No `account_id`: they read the public network for the
 * key's owner. Units: a post 1 (2 with quotes), replies a flat 3, a profile 1, a
 * handle's posts 1 when the handle was looked up recently, else 2.
 */
import type { KeyContext } from "../context.ts";
import type { NetworkPost, NetworkUser } from "../network/network_records.ts";
import { liveLookup } from "./live_lookup.ts";
import type { LookupPostInput, LookupRepliesInput, LookupUserInput, LookupUserPostsInput } from "./lookup_input_schema.ts";
import { toXPost, toXUser } from "./lookup_records.ts";

/** A post with its author, and its quotes when asked. */
export async function lookupPost(ctx: KeyContext, input: LookupPostInput) {
  const { network } = ctx.services;
  const post = await liveLookup(ctx, {
    cacheKey: `post:${input.id}:${input.include_quotes ? "quotes" : "plain"}`,
    units: input.include_quotes ? 2 : 1,
    fetch: async () => {
      const found = await network.postById(input.id);
      const quotes = input.include_quotes ? (await network.quotes(input.id, { limit: 100 })).items : [];
      const authors = await authorsOf(ctx, [found, ...quotes]);
      return { ...toXPost(found, authors), quotes: input.include_quotes ? quotes.map((quote) => toXPost(quote, authors)) : undefined };
    },
  });
  return { data: post };
}

/** Direct replies to a post, a page at a time. */
export async function lookupReplies(ctx: KeyContext, input: LookupRepliesInput) {
  const { network } = ctx.services;
  return liveLookup(ctx, {
    cacheKey: `replies:${input.id}:${input.sort}:${input.limit}:${input.cursor ?? ""}`,
    units: 3,
    fetch: async () => {
      await network.postById(input.id);
      const page = await network.replies(input.id, { limit: input.limit, cursor: input.cursor, sort: input.sort });
      const authors = await authorsOf(ctx, page.items);
      return {
        data: page.items.map((reply) => toXPost(reply, authors)),
        pagination: { limit: input.limit, has_more: page.nextCursor !== undefined, next_cursor: page.nextCursor ?? null },
      };
    },
  });
}

/** A profile by handle. */
export async function lookupUser(ctx: KeyContext, input: LookupUserInput) {
  const user = await profile(ctx, input.handle);
  return { data: toXUser(user) };
}

/** A handle's recent posts; costs 1 when the handle's profile is cached, else 2. */
export async function lookupUserPosts(ctx: KeyContext, input: LookupUserPostsInput) {
  const { network, lookupCache, clock } = ctx.services;
  const handle = input.handle.toLowerCase();
  const known = lookupCache.get<NetworkUser>(`user:${handle}`, clock.now());
  return liveLookup(ctx, {
    cacheKey: `user-posts:${handle}:${input.limit}:${input.cursor ?? ""}:${input.exclude_replies}:${input.exclude_reposts}`,
    units: known ? 1 : 2,
    fetch: async () => {
      const user = known ?? (await network.userByUsername(handle));
      lookupCache.set(`user:${handle}`, user, clock.now());
      const page = await network.timeline(user.id, {
        limit: input.limit,
        cursor: input.cursor,
        excludeReplies: input.exclude_replies,
        excludeReposts: input.exclude_reposts,
      });
      const authors = await authorsOf(ctx, page.items, [user]);
      return {
        data: page.items.map((post) => toXPost(post, authors)),
        pagination: { limit: input.limit, has_more: page.nextCursor !== undefined, next_cursor: page.nextCursor ?? null },
      };
    },
  });
}

async function profile(ctx: KeyContext, handle: string): Promise<NetworkUser> {
  const key = handle.toLowerCase();
  return liveLookup(ctx, { cacheKey: `user:${key}`, units: 1, fetch: () => ctx.services.network.userByUsername(key) });
}

/** The authors of `posts` in one batched read (plus any already known). */
async function authorsOf(ctx: KeyContext, posts: NetworkPost[], known: NetworkUser[] = []): Promise<Map<string, NetworkUser>> {
  const authors = new Map(known.map((user) => [user.id, user]));
  const missing = [...new Set(posts.map((post) => post.authorId))].filter((id) => !authors.has(id));
  if (missing.length > 0) for (const user of await ctx.services.network.usersByIds(missing)) authors.set(user.id, user);
  return authors;
}
