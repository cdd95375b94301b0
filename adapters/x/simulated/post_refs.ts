/**
 * References to generated posts: an id and a time (enough to order and page) and how
 * to build the full record when a page is actually returned. Originals, the replies,
 * quotes and reposts of the world's people, and authors answering replies.
 */
import type { NetworkPost, PostMetrics } from "../../../core/network/network_records.ts";
import { drawVirality, metricsAt, potentialOf } from "./engagement_model.ts";
import { replyBackTime, type Engagement } from "./engagements.ts";
import { hash32 } from "./hash.ts";
import type { OriginalPost } from "./original_posts.ts";
import { encodePostId } from "./post_ids.ts";
import { createRandom } from "./prng.ts";
import { followersAt, LANGS } from "./population.ts";
import { writeText } from "./text_generator.ts";
import { dayOf, isoTime } from "./time_units.ts";
import { TOPICS } from "./vocabulary_topics.ts";
import type { World } from "./world.ts";

/** A post found by a query, built only if it is returned. */
export interface PostRef {
  id: string;
  ms: number;
  /** Index of the author in the population, or -1 for a post written through Threadline. */
  author: number;
  build(now: number): NetworkPost;
}

const NO_METRICS: PostMetrics = { likes: 0, replies: 0, reposts: 0, quotes: 0, impressions: 0, bookmarks: 0 };

/** An original post or thread part. */
export function originalRef(world: World, post: OriginalPost): PostRef {
  return {
    id: post.id,
    ms: post.ms,
    author: post.author,
    build(now) {
      const { pop } = world;
      const set = world.engagements(post);
      const counts = { replies: 0, quotes: 0, reposts: 0 };
      for (const event of set.events) {
        if (event.ms > now) break;
        if (event.action === 1) counts.replies++;
        else if (event.action === 2) counts.quotes++;
        else counts.reposts++;
      }
      for (const ms of set.lurkerReposts) if (ms <= now) counts.reposts++;
      const sameThread = world.originals(post.author, post.day).filter((other) => other.rootSlot === post.rootSlot);
      const next = sameThread.find((other) => other.part === post.part + 1);
      if (next && next.ms <= now) counts.replies++;
      const previous = sameThread.find((other) => other.part === post.part - 1);
      const authorId = pop.ids[post.author];
      return {
        id: post.id,
        authorId,
        text: world.text(post),
        createdAt: isoTime(post.ms),
        kind: "post",
        conversationId: sameThread.find((other) => other.slot === post.rootSlot)?.id ?? post.id,
        replyToId: previous?.id ?? null,
        replyToUserId: previous ? authorId : null,
        quotedId: null,
        repostedId: null,
        isThreadContinuation: post.part > 0,
        mentionedUserIds: post.mention >= 0 ? [pop.ids[post.mention]] : [],
        lang: LANGS[post.lang],
        metrics: metricsAt(world.potential(post), now - post.ms, counts),
        media: post.media
          ? [{ key: `${post.id}_1`, type: "photo", url: `https://x.com/${pop.usernames[post.author]}/status/${post.id}/photo/1`, altText: null }]
          : [],
        article: null,
      };
    },
  };
}

/** A reply (1), quote (2) or repost (3) by a circle member of `target`'s author. */
export function engagementRef(world: World, target: OriginalPost, event: Engagement): PostRef {
  const id = encodePostId(
    { type: "engagement", action: event.action, user: event.user, author: target.author, slot: target.slot, dayOffset: dayOf(event.ms) - target.day },
    event.ms,
  );
  return {
    id,
    ms: event.ms,
    author: event.user,
    build(now) {
      const { pop, seed } = world;
      const targetAuthor = pop.usernames[target.author];
      const key = { key1: target.author, key2: target.day * 32 + target.slot, user: event.user, ms: event.ms };
      const base = {
        id,
        authorId: pop.ids[event.user],
        createdAt: isoTime(event.ms),
        replyToId: null,
        replyToUserId: null,
        quotedId: null,
        repostedId: null,
        isThreadContinuation: false,
        media: [],
        article: null,
      };
      if (event.action === 3) {
        return {
          ...base,
          kind: "repost",
          text: `RT @${targetAuthor}: ${world.text(target)}`,
          conversationId: id,
          repostedId: target.id,
          mentionedUserIds: [pop.ids[target.author]],
          lang: LANGS[target.lang],
          metrics: NO_METRICS,
        };
      }
      const r = createRandom(hash32(seed, key.key1, key.key2, event.user, 0x7e48));
      const topic = TOPICS[target.topic];
      const text = writeText(r, event.action === 1 ? "reply" : "quote", {
        topic,
        subject: topic.subjects[target.subject],
        lang: LANGS[pop.lang[event.user]],
        handles: { a: targetAuthor },
      });
      const potential = potentialOf(followersAt(pop, event.user, event.ms), drawVirality(r), event.action === 1 ? 0.25 : 0.6);
      const answered = event.action === 1 ? replyBackTime(seed, pop, key, target.author) : undefined;
      const metrics = metricsAt(potential, now - event.ms, { replies: answered !== undefined && answered <= now ? 1 : 0, reposts: 0, quotes: 0 });
      if (event.action === 2) {
        return { ...base, kind: "quote", text, conversationId: id, quotedId: target.id, mentionedUserIds: [], lang: LANGS[pop.lang[event.user]], metrics };
      }
      const root = world.original(target.author, target.day, target.rootSlot) ?? target;
      return {
        ...base,
        kind: "reply",
        text,
        conversationId: root.id,
        replyToId: target.id,
        replyToUserId: pop.ids[target.author],
        mentionedUserIds: [pop.ids[target.author]],
        lang: LANGS[pop.lang[event.user]],
        metrics,
      };
    },
  };
}

/** `target`'s author answering the reply `reply` at `ms`. */
export function replyBackRef(world: World, target: OriginalPost, reply: Engagement, ms: number): PostRef {
  const id = encodePostId({ type: "reply_back", user: reply.user, author: target.author, slot: target.slot, dayOffset: dayOf(ms) - target.day }, ms);
  return {
    id,
    ms,
    author: target.author,
    build(now) {
      const { pop, seed } = world;
      const replyId = engagementRef(world, target, reply).id;
      const r = createRandom(hash32(seed, target.author, target.day * 32 + target.slot, reply.user, 0x7e49));
      const topic = TOPICS[target.topic];
      const root = world.original(target.author, target.day, target.rootSlot) ?? target;
      return {
        id,
        authorId: pop.ids[target.author],
        text: writeText(r, "reply_back", {
          topic,
          subject: topic.subjects[target.subject],
          lang: LANGS[pop.lang[target.author]],
          handles: { a: pop.usernames[reply.user] },
        }),
        createdAt: isoTime(ms),
        kind: "reply",
        conversationId: root.id,
        replyToId: replyId,
        replyToUserId: pop.ids[reply.user],
        quotedId: null,
        repostedId: null,
        isThreadContinuation: false,
        mentionedUserIds: [pop.ids[reply.user]],
        lang: LANGS[pop.lang[target.author]],
        metrics: metricsAt(potentialOf(followersAt(pop, target.author, ms), drawVirality(r), 0.15), now - ms, { replies: 0, reposts: 0, quotes: 0 }),
        media: [],
        article: null,
      };
    },
  };
}

/** Replies, quotes and reposts a post has received by `now`, oldest first, as refs (reposts by lurkers excluded). */
export function engagementRefs(world: World, target: OriginalPost, action: 1 | 2 | 3, now: number): PostRef[] {
  return world
    .engagements(target)
    .events.filter((event) => event.action === action && event.ms <= now)
    .map((event) => engagementRef(world, target, event));
}

/** Author replies to the replies of `target` landing on `day` by `now`. */
export function replyBacksOn(world: World, target: OriginalPost, day: number, now: number): PostRef[] {
  const refs: PostRef[] = [];
  for (const event of world.engagements(target).events) {
    if (event.action !== 1) continue;
    const ms = replyBackTime(
      world.seed,
      world.pop,
      { key1: target.author, key2: target.day * 32 + target.slot, user: event.user, ms: event.ms },
      target.author,
    );
    if (ms !== undefined && ms <= now && dayOf(ms) === day) refs.push(replyBackRef(world, target, event, ms));
  }
  return refs;
}
