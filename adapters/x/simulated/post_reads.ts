/**
 * Reading posts: by id (generated or written), and the replies, quotes and reposters of
 * one. Generated events and written rows are merged, deleted posts dropped, and the
 * counters of every returned post include what Threadline's users added to it.
 */
import { NetworkNotFoundError, NetworkPrivateError } from "../../../core/network/network_errors.ts";
import type { NetworkPost, NetworkUser, Page, PageRequest } from "../../../core/network/network_records.ts";
import type { RepliesOptions } from "../../../core/network/social_network.ts";
import { replyBackTime } from "./engagements.ts";
import { generatedPost, type GeneratedPost } from "./generated_lookup.ts";
import { lurkerAt, lurkerId } from "./lurkers.ts";
import { isAfter, keysetPage, newestFirst, offsetCursor, pageSize, readOffsetCursor, readTimeCursor, type TimeKey } from "./paging.ts";
import { learnGuests, peopleByIds, profileOfPerson, usernameOf } from "./people.ts";
import { decodePostId } from "./post_ids.ts";
import { engagementRefs, originalRef, replyBackRef, type PostRef } from "./post_refs.ts";
import type { SimulatedContext } from "./simulated_context.ts";
import { writtenEngagementRef, writtenEngagements, writtenRef, writtenReplyBack, writtenReplyBackRef } from "./written_posts.ts";
import { deletedAmong, deletedPostIds, writtenEngagementCounts, writtenPostBySeq, writtenTargeting, type WrittenPostRow } from "./written_queries.ts";

/** A post found by id: its ref and what it is. */
export interface ResolvedPost {
  ref: PostRef;
  generated?: GeneratedPost;
  /** The stored row, for a post written through Threadline. */
  row?: WrittenPostRow;
}

/** The post `id` names as of `now`: NetworkNotFoundError when missing or deleted, NetworkPrivateError when its author is protected. */
export async function resolvePost(ctx: SimulatedContext, id: string, now: number): Promise<ResolvedPost> {
  const resolved = await findPost(ctx, id, now);
  if (!resolved || (await deletedAmong(ctx.sql, [id])).has(id)) throw new NetworkNotFoundError("post", id);
  if (resolved.ref.author >= 0 && ctx.world.pop.isProtected[resolved.ref.author]) throw new NetworkPrivateError("post", id);
  return resolved;
}

async function findPost(ctx: SimulatedContext, id: string, now: number): Promise<ResolvedPost | undefined> {
  const decoded = decodePostId(id);
  if (!decoded) return undefined;
  const { key } = decoded;
  if (key.type !== "written" && key.type !== "written_engagement" && key.type !== "reply_back_written") {
    const generated = generatedPost(ctx.world, id, now);
    return generated && { ref: generated.ref, generated };
  }
  const row = await writtenPostBySeq(ctx.sql, key.seq);
  if (!row || row.deleted_at !== null || row.created_at.getTime() > now) return undefined;
  await learnGuests(ctx, [row.author_id]);
  const usernameOf = usernameLookup(ctx);
  if (key.type === "written") return row.post_id === id ? { ref: writtenRef(ctx.world, row), row } : undefined;
  if (key.type === "written_engagement") {
    const event = writtenEngagements(ctx.world, row)?.events.find((e) => e.user === key.user && e.action === key.action);
    const ref = event && event.ms <= now ? writtenEngagementRef(ctx.world, row, event, usernameOf) : undefined;
    return ref?.id === id ? { ref } : undefined;
  }
  const answer = writtenReplyBack(ctx.world, row);
  const ref = answer && answer.ms <= now ? writtenReplyBackRef(ctx.world, row, answer, usernameOf) : undefined;
  return ref?.id === id ? { ref } : undefined;
}

/** Builds the posts of `refs` as of `now`, adding written replies, quotes and reposts to their counters. */
export async function finishPosts(ctx: SimulatedContext, refs: PostRef[], now: number): Promise<NetworkPost[]> {
  const posts = refs.map((ref) => ref.build(now));
  const counts = await writtenEngagementCounts(
    ctx.sql,
    posts.map((post) => post.id),
    now,
  );
  return posts.map((post) => {
    const added = counts.get(post.id);
    if (!added) return post;
    const { metrics } = post;
    return {
      ...post,
      metrics: { ...metrics, replies: metrics.replies + added.replies, quotes: metrics.quotes + added.quotes, reposts: metrics.reposts + added.reposts },
    };
  });
}

/** One post. */
export async function readPost(ctx: SimulatedContext, id: string): Promise<NetworkPost> {
  const now = ctx.clock.now();
  const [post] = await finishPosts(ctx, [(await resolvePost(ctx, id, now)).ref], now);
  return post;
}

/** The readable posts among `ids`, in order. */
export async function readPosts(ctx: SimulatedContext, ids: readonly string[]): Promise<NetworkPost[]> {
  const now = ctx.clock.now();
  const refs: PostRef[] = [];
  for (const id of ids) {
    try {
      refs.push((await resolvePost(ctx, id, now)).ref);
    } catch (error) {
      if (!(error instanceof NetworkNotFoundError || error instanceof NetworkPrivateError)) throw error;
    }
  }
  return finishPosts(ctx, refs, now);
}

/** Direct replies of a post: newest first, or most liked first. */
export async function repliesPage(ctx: SimulatedContext, postId: string, options: RepliesOptions = {}): Promise<Page<NetworkPost>> {
  const now = ctx.clock.now();
  const target = await resolvePost(ctx, postId, now);
  const { world } = ctx;
  const refs: PostRef[] = [];
  const original = target.generated?.original;
  if (original) {
    refs.push(...engagementRefs(world, original, 1, now));
    const next = world.originals(original.author, original.day).find((post) => post.rootSlot === original.rootSlot && post.part === original.part + 1);
    if (next && next.ms <= now) refs.push(originalRef(world, next));
  }
  const engagement = target.generated?.engagement;
  if (engagement && engagement.event.action === 1) {
    const { target: post, event } = engagement;
    const ms = replyBackTime(world.seed, world.pop, { key1: post.author, key2: post.day * 32 + post.slot, user: event.user, ms: event.ms }, post.author);
    if (ms !== undefined && ms <= now) refs.push(replyBackRef(world, post, event, ms));
  }
  if (target.row) refs.push(...writtenChildren(ctx, target.row, 1, now));
  refs.push(...(await writtenRefs(ctx, await writtenTargeting(ctx.sql, "reply_to_id", postId, now))));
  const live = await withoutDeleted(ctx, refs);
  if (options.sort !== "relevance") return keysetPosts(ctx, live, options, 20, now);
  const limit = pageSize(options.limit, 20, 100);
  const offset = readOffsetCursor(options.cursor);
  const ranked = (await finishPosts(ctx, live, now)).sort(
    (a, b) => b.metrics.likes - a.metrics.likes || newestFirst({ ms: Date.parse(a.createdAt), id: a.id }, { ms: Date.parse(b.createdAt), id: b.id }),
  );
  const items = ranked.slice(offset, offset + limit);
  return offset + limit < ranked.length ? { items, nextCursor: offsetCursor(offset + limit) } : { items };
}

/** Quote posts of a post, newest first. */
export async function quotesPage(ctx: SimulatedContext, postId: string, options: PageRequest = {}): Promise<Page<NetworkPost>> {
  const now = ctx.clock.now();
  const target = await resolvePost(ctx, postId, now);
  const refs: PostRef[] = [];
  if (target.generated?.original) refs.push(...engagementRefs(ctx.world, target.generated.original, 2, now));
  if (target.row) refs.push(...writtenChildren(ctx, target.row, 2, now));
  refs.push(...(await writtenRefs(ctx, await writtenTargeting(ctx.sql, "quoted_id", postId, now))));
  return keysetPosts(ctx, await withoutDeleted(ctx, refs), options, 20, now);
}

/** Accounts that reposted a post, latest first. */
export async function repostersPage(ctx: SimulatedContext, postId: string, options: PageRequest = {}): Promise<Page<NetworkUser>> {
  const now = ctx.clock.now();
  const target = await resolvePost(ctx, postId, now);
  const { world } = ctx;
  const reposts: (TimeKey & { index?: number })[] = [];
  const addEvents = (events: { user: number; action: number; ms: number }[], lurkerTimes: number[], a: number, b: number) => {
    for (const event of events) if (event.action === 3 && event.ms <= now) reposts.push({ ms: event.ms, id: world.pop.ids[event.user], index: event.user });
    lurkerTimes.forEach((ms, j) => {
      if (ms <= now) reposts.push({ ms, id: lurkerId(lurkerAt(world.seed, a, b, j)) });
    });
  };
  const original = target.generated?.original;
  if (original) {
    const set = world.engagements(original);
    addEvents(set.events, set.lurkerReposts, 0x100000 + original.author, original.day * 32 + original.slot);
  }
  if (target.row) {
    const set = writtenEngagements(world, target.row);
    if (set) addEvents(set.events, set.lurkerReposts, 0x200000, target.row.seq);
  }
  for (const row of await writtenTargeting(ctx.sql, "reposted_id", postId, now)) reposts.push({ ms: row.created_at.getTime(), id: row.author_id });
  const cursor = readTimeCursor(options.cursor);
  const page = keysetPage(
    reposts.filter((item) => isAfter(item, cursor)),
    pageSize(options.limit, 100, 1000),
    (item) => item.id,
  );
  const people = await peopleByIds(ctx, page.items);
  const items = people.flatMap((person) => (person ? [profileOfPerson(ctx, person, now)] : []));
  return page.nextCursor ? { items, nextCursor: page.nextCursor } : { items };
}

/** A keyset page of post refs, built. */
export async function keysetPosts(ctx: SimulatedContext, refs: PostRef[], options: PageRequest, fallback: number, now: number): Promise<Page<NetworkPost>> {
  const cursor = readTimeCursor(options.cursor);
  const page = keysetPage(
    refs.filter((ref) => isAfter(ref, cursor)),
    pageSize(options.limit, fallback, 100),
    (ref) => ref,
  );
  const items = await finishPosts(ctx, page.items, now);
  return page.nextCursor ? { items, nextCursor: page.nextCursor } : { items };
}

/** Refs of written rows (learning the handles their texts may need). */
export async function writtenRefs(ctx: SimulatedContext, rows: WrittenPostRow[]): Promise<PostRef[]> {
  await learnGuests(
    ctx,
    rows.map((row) => row.author_id),
  );
  return rows.map((row) => writtenRef(ctx.world, row));
}

/** Drops refs of deleted generated posts. */
export async function withoutDeleted(ctx: SimulatedContext, refs: PostRef[]): Promise<PostRef[]> {
  const deleted = await deletedPostIds(ctx.sql);
  return deleted.size === 0 ? refs : refs.filter((ref) => !deleted.has(ref.id));
}

/** The world's replies (1) or quotes (2) of a written post by `now`, and for replies the answer back to it. */
function writtenChildren(ctx: SimulatedContext, row: WrittenPostRow, action: 1 | 2, now: number): PostRef[] {
  const usernameOf = usernameLookup(ctx);
  const refs = (writtenEngagements(ctx.world, row)?.events ?? [])
    .filter((event) => event.action === action && event.ms <= now)
    .map((event) => writtenEngagementRef(ctx.world, row, event, usernameOf));
  const answer = action === 1 ? writtenReplyBack(ctx.world, row) : undefined;
  if (answer && answer.ms <= now) refs.push(writtenReplyBackRef(ctx.world, row, answer, usernameOf));
  return refs;
}

/** A synchronous handle lookup over what the context knows. */
export function usernameLookup(ctx: SimulatedContext): (id: string) => string {
  return (id) => usernameOf(ctx, id);
}
