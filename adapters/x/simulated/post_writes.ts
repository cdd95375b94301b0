/**
 * Publishing, deleting and reposting on the simulated network, stored through the Sql
 * port (migration 0007). The network's own rules apply as X applies them: 280
 * characters without a premium tier (25,000 with one), at most 4 media, no empty post,
 * no identical text twice within a day; a client token makes a publish idempotent.
 */
import { NetworkNotFoundError, NetworkRejectedError } from "../../../core/network/network_errors.ts";
import type { NetworkPost } from "../../../core/network/network_records.ts";
import type { FindPublishedQuery, PublishPostInput } from "../../../core/network/social_network.ts";
import { generatedPost } from "./generated_lookup.ts";
import { decodePostId, encodePostId } from "./post_ids.ts";
import { idOfPerson, peopleByUsernames, premiumOfPerson, requirePerson, usernameOf } from "./people.ts";
import { finishPosts, readPost, writtenRefs } from "./post_reads.ts";
import type { SimulatedContext } from "./simulated_context.ts";
import { parseTime } from "./time_units.ts";
import { DAY_MS } from "../../../core/time/durations.ts";
import { keepStatisticsFresh } from "../../../core/db/fresh_statistics.ts";
import {
  deleteGeneratedPost,
  deleteWrittenPost,
  insertWrittenPost,
  liveRepost,
  nextWriteSeq,
  publishWrittenPost,
  writtenPostBySeq,
  writtenPostByText,
  writtenPostByToken,
  type WrittenPostRow,
} from "./written_queries.ts";

/** What an article post carries. */
export interface ArticleLink {
  id: string;
  title: string;
}

/** Publishes a post as `input.authorId` (see the module comment for the rules). */
export async function publishPost(ctx: SimulatedContext, input: PublishPostInput, article?: ArticleLink): Promise<NetworkPost> {
  const { sql } = ctx;
  const now = ctx.clock.now();
  const author = await requirePerson(ctx, input.authorId);
  const text = input.text ?? "";
  const media = input.mediaKeys ?? [];
  if (text.trim() === "" && media.length === 0) throw new NetworkRejectedError("invalid", "A post needs text or media");
  if (media.length > 4) throw new NetworkRejectedError("invalid", "A post carries at most 4 media");
  const max = premiumOfPerson(ctx, author) === "none" ? 280 : 25_000;
  if ([...text].length > max) throw new NetworkRejectedError("too_long", `Post text is longer than ${max} characters`);
  const target = input.replyToId === undefined ? undefined : await readPostUnlessPublished(ctx, input, input.replyToId);
  const quoted = input.quoteOfId === undefined ? undefined : await readPostUnlessPublished(ctx, input, input.quoteOfId);
  if (target === PUBLISHED || quoted === PUBLISHED) return built(ctx, (await writtenPostByToken(sql, input.authorId, input.token!))!, now);
  const named = [...text.matchAll(/(?<![\w@])@([A-Za-z0-9_]{1,15})/g)].map((match) => match[1]);
  const mentioned = new Set<string>();
  if (target && target.authorId !== input.authorId) mentioned.add(target.authorId);
  for (const person of await peopleByUsernames(ctx, named)) {
    if (person) mentioned.add(idOfPerson(ctx, person));
  }
  mentioned.delete(input.authorId);
  const continuation = target !== undefined && target.authorId === input.authorId && target.kind === "post";
  // One statement: the token's post if any, else the duplicate check, else the insert.
  const publication = await publishWrittenPost(sql, {
    row: {
      author_id: input.authorId,
      kind: target ? (continuation ? "post" : "reply") : quoted ? "quote" : "post",
      text,
      media_keys: media,
      reply_to_id: target?.id ?? null,
      reply_to_user_id: target?.authorId ?? null,
      quoted_id: quoted?.id ?? null,
      reposted_id: null,
      conversation_id: target?.conversationId ?? null,
      is_thread_continuation: continuation,
      mentioned_ids: [...mentioned],
      article_id: article?.id ?? null,
      article_title: article?.title ?? null,
      client_token: input.token ?? null,
      created_at: new Date(now),
    },
    idBase: encodePostId({ type: "written", seq: 0 }, now),
    ...(text.trim() === "" ? {} : { duplicateSince: new Date(now - DAY_MS) }),
  });
  if (publication.outcome === "duplicate") throw new NetworkRejectedError("duplicate", "This text was already published in the last 24 hours");
  if (publication.outcome === "inserted") {
    // A burst of publications (posts due in the same minute) fills network_posts within
    // seconds; the token and duplicate checks of the next ones must not be planned as scans
    // of a table the planner believes small. Not from inside a transaction: on a pool of one
    // connection (embedded) the analyze would wait for the connection its caller holds.
    if (ctx.sql === ctx.pool) await keepStatisticsFresh(ctx.pool, "network_posts", 1);
    return builtFresh(ctx, publication.row, now);
  }
  // Another call with the same token won the insert: answer with its post.
  const stored =
    publication.outcome === "existing" ? publication.row : input.token === undefined ? undefined : await writtenPostByToken(sql, input.authorId, input.token);
  if (!stored) throw new NetworkRejectedError("invalid", "The post could not be stored");
  return built(ctx, stored, now);
}

/** Marks a post the token already published (its reply target may be gone since). */
const PUBLISHED = Symbol("published");

/**
 * The post `id` a new post answers or quotes; when it is gone but the token already
 * published this post, `PUBLISHED` (a retry answers what it published, as before it looked).
 */
async function readPostUnlessPublished(ctx: SimulatedContext, input: PublishPostInput, id: string): Promise<NetworkPost | typeof PUBLISHED> {
  try {
    return await readPost(ctx, id);
  } catch (error) {
    if (error instanceof NetworkNotFoundError && input.token !== undefined && (await writtenPostByToken(ctx.sql, input.authorId, input.token)))
      return PUBLISHED;
    throw error;
  }
}

/** A live written post matching the query (token, or exact text within a window). */
export async function findPublished(ctx: SimulatedContext, query: FindPublishedQuery): Promise<NetworkPost | undefined> {
  const now = ctx.clock.now();
  let row: WrittenPostRow | undefined;
  if (query.token !== undefined) row = await writtenPostByToken(ctx.sql, query.authorId, query.token);
  else if (query.text !== undefined) row = await writtenPostByText(ctx.sql, query.authorId, query.text, new Date(parseTime(query.since) ?? now - DAY_MS));
  return row && built(ctx, row, now);
}

/** Deletes one of the author's posts (written or generated); deleting again is a no-op. */
export async function deletePost(ctx: SimulatedContext, authorId: string, postId: string): Promise<void> {
  const now = ctx.clock.now();
  const decoded = decodePostId(postId);
  if (decoded?.key.type === "written") {
    const row = await writtenPostBySeq(ctx.sql, decoded.key.seq);
    if (!row || row.post_id !== postId) throw new NetworkNotFoundError("post", postId);
    if (row.author_id !== authorId) throw new NetworkRejectedError("invalid", `Post "${postId}" belongs to another account`);
    await deleteWrittenPost(ctx.sql, row.seq, new Date(now));
    return;
  }
  const generated = decoded && generatedPost(ctx.world, postId, now);
  const owner = generated ? ctx.world.pop.ids[generated.ref.author] : decoded ? (await readPost(ctx, postId).catch(() => undefined))?.authorId : undefined;
  if (!owner) throw new NetworkNotFoundError("post", postId);
  if (owner !== authorId) throw new NetworkRejectedError("invalid", `Post "${postId}" belongs to another account`);
  await deleteGeneratedPost(ctx.sql, postId, authorId, new Date(now));
}

/** Reposts `postId` as `userId`, or answers the live repost already there. */
export async function repost(ctx: SimulatedContext, userId: string, postId: string): Promise<NetworkPost> {
  const now = ctx.clock.now();
  await requirePerson(ctx, userId);
  const existing = await liveRepost(ctx.sql, userId, postId);
  if (existing) return built(ctx, existing, now);
  const target = await readPost(ctx, postId);
  const seq = await nextWriteSeq(ctx.sql);
  const id = encodePostId({ type: "written", seq }, now);
  const row = await insertWrittenPost(ctx.sql, {
    seq,
    post_id: id,
    author_id: userId,
    kind: "repost",
    text: `RT @${usernameOf(ctx, target.authorId)}: ${target.text}`,
    media_keys: [],
    reply_to_id: null,
    reply_to_user_id: null,
    quoted_id: null,
    reposted_id: target.id,
    conversation_id: id,
    is_thread_continuation: false,
    mentioned_ids: [target.authorId],
    article_id: null,
    article_title: null,
    client_token: null,
    created_at: new Date(now),
  });
  const stored = row ?? (await liveRepost(ctx.sql, userId, postId));
  if (!stored) throw new NetworkRejectedError("invalid", "The repost could not be stored");
  return built(ctx, stored, now);
}

/** Undoes `userId`'s live repost of `postId` (no-op when there is none). */
export async function undoRepost(ctx: SimulatedContext, userId: string, postId: string): Promise<void> {
  const existing = await liveRepost(ctx.sql, userId, postId);
  if (existing) await deleteWrittenPost(ctx.sql, existing.seq, new Date(ctx.clock.now()));
}

async function built(ctx: SimulatedContext, row: WrittenPostRow, now: number): Promise<NetworkPost> {
  const [post] = await finishPosts(ctx, await writtenRefs(ctx, [row]), now);
  return post;
}

/** `built` for a post inserted just now: nothing written answers it yet, so no engagement is counted. */
async function builtFresh(ctx: SimulatedContext, row: WrittenPostRow, now: number): Promise<NetworkPost> {
  const [ref] = await writtenRefs(ctx, [row]);
  return ref.build(now);
}
