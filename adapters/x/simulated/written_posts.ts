/**
 * Posts Threadline's users wrote, as the world sees them: the stored row as a post, and
 * the engagement it draws from the author's circle (replies, quotes and reposts arrive
 * over the next hours, as for any post; a reply to someone in the world may be answered
 * back). That engagement lives only on the written post's side: the engagers' own
 * timelines are derived without reading the database.
 */
import { drawVirality, metricsAt, potentialOf } from "./engagement_model.ts";
import { engagementsOf, replyBackTime, type Engageable, type Engagement, type EngagementSet } from "./engagements.ts";
import { hash32 } from "./hash.ts";
import { encodePostId, MAX_ENGAGED_SEQ } from "./post_ids.ts";
import { createRandom } from "./prng.ts";
import { followersAt, LANGS } from "./population.ts";
import type { PostRef } from "./post_refs.ts";
import { writeText } from "./text_generator.ts";
import { isoTime } from "./time_units.ts";
import { TOPICS } from "./vocabulary_topics.ts";
import type { World } from "./world.ts";
import type { WrittenPostRow } from "./written_queries.ts";

/** Handle of any account id (world people and Threadline's accounts alike). */
export type UsernameOf = (id: string) => string;

/** Hash keys of written post `seq` (distinct from generated posts': key1 >= 2^17). */
function keysOf(seq: number): { key1: number; key2: number } {
  return { key1: 0x20000 + Math.floor(seq / 2 ** 24), key2: seq % 2 ** 24 };
}

/** The written post as something the author's circle can engage with (own posts and quotes of world people). */
export function writtenEngageable(world: World, row: WrittenPostRow): Engageable | undefined {
  const author = world.pop.byId.get(row.author_id);
  if (author === undefined || world.pop.isProtected[author] || (row.kind !== "post" && row.kind !== "quote") || row.seq > MAX_ENGAGED_SEQ) return undefined;
  const { key1, key2 } = keysOf(row.seq);
  const ms = row.created_at.getTime();
  const r = createRandom(hash32(world.seed, key1, key2, 0x77));
  const factor = row.is_thread_continuation ? 0.35 : row.media_keys.length > 0 ? 1.25 : 1;
  return { author, ms, key1, key2, potential: potentialOf(followersAt(world.pop, author, ms), drawVirality(r), factor) };
}

/** The engagement events a written post draws (none for replies, reposts and guests' posts). */
export function writtenEngagements(world: World, row: WrittenPostRow): EngagementSet | undefined {
  const engageable = writtenEngageable(world, row);
  return engageable && engagementsOf(world.seed, world.pop, world.graph(), engageable);
}

/** When the author replied to answers a written reply, if they do. */
export function writtenReplyBack(world: World, row: WrittenPostRow): { author: number; ms: number } | undefined {
  if (row.kind !== "reply" || row.reply_to_user_id === null || row.reply_to_user_id === row.author_id) return undefined;
  const author = world.pop.byId.get(row.reply_to_user_id);
  if (author === undefined) return undefined;
  const ms = replyBackTime(world.seed, world.pop, { ...keysOf(row.seq), user: 0, ms: row.created_at.getTime() }, author);
  return ms === undefined ? undefined : { author, ms };
}

/** The written post itself. */
export function writtenRef(world: World, row: WrittenPostRow): PostRef {
  const ms = row.created_at.getTime();
  return {
    id: row.post_id,
    ms,
    author: -1,
    build(now) {
      const author = world.pop.byId.get(row.author_id);
      const counts = { replies: 0, quotes: 0, reposts: 0 };
      const set = writtenEngagements(world, row);
      for (const event of set?.events ?? []) {
        if (event.ms > now) break;
        if (event.action === 1) counts.replies++;
        else if (event.action === 2) counts.quotes++;
        else counts.reposts++;
      }
      for (const at of set?.lurkerReposts ?? []) if (at <= now) counts.reposts++;
      const answered = writtenReplyBack(world, row);
      if (answered && answered.ms <= now) counts.replies++;
      const keys = keysOf(row.seq);
      const r = createRandom(hash32(world.seed, keys.key1, keys.key2, 0x77));
      const factor = row.kind === "repost" ? 0 : row.kind === "reply" ? 0.25 : 1;
      const followers = author === undefined ? 0 : followersAt(world.pop, author, ms);
      const potential = writtenEngageable(world, row)?.potential ?? potentialOf(followers, drawVirality(r), factor);
      return {
        id: row.post_id,
        authorId: row.author_id,
        text: row.text,
        createdAt: isoTime(ms),
        kind: row.kind,
        conversationId: row.conversation_id,
        replyToId: row.reply_to_id,
        replyToUserId: row.reply_to_user_id,
        quotedId: row.quoted_id,
        repostedId: row.reposted_id,
        isThreadContinuation: row.is_thread_continuation,
        mentionedUserIds: row.mentioned_ids,
        lang: author === undefined ? "en" : LANGS[world.pop.lang[author]],
        metrics: metricsAt(potential, now - ms, counts),
        media: row.media_keys.map((key) => ({ key, type: "photo" as const, url: null, altText: null })),
        article: row.article_id && row.article_title !== null ? { id: row.article_id, title: row.article_title } : null,
      };
    },
  };
}

/** A world person's reply (1), quote (2) or repost (3) of a written post. */
export function writtenEngagementRef(world: World, row: WrittenPostRow, event: Engagement, usernameOf: UsernameOf): PostRef {
  const id = encodePostId({ type: "written_engagement", action: event.action, user: event.user, seq: row.seq }, event.ms);
  return {
    id,
    ms: event.ms,
    author: event.user,
    build(now) {
      const { pop, seed } = world;
      const authorHandle = usernameOf(row.author_id);
      const keys = keysOf(row.seq);
      const r = createRandom(hash32(seed, keys.key1, keys.key2, event.user, 0x7e4a));
      const author = pop.byId.get(row.author_id) ?? 0;
      const topic = TOPICS[pop.topic[author]];
      const lang = LANGS[pop.lang[event.user]];
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
        lang,
      };
      if (event.action === 3) {
        return {
          ...base,
          kind: "repost",
          text: `RT @${authorHandle}: ${row.text}`,
          conversationId: id,
          repostedId: row.post_id,
          mentionedUserIds: [row.author_id],
          metrics: metricsAt(potentialOf(0, 0), 0, { replies: 0, reposts: 0, quotes: 0 }),
        };
      }
      const text = writeText(r, event.action === 1 ? "reply" : "quote", { topic, subject: r.pick(topic.subjects), lang, handles: { a: authorHandle } });
      const metrics = metricsAt(potentialOf(followersAt(pop, event.user, event.ms), drawVirality(r), event.action === 1 ? 0.25 : 0.6), now - event.ms, {
        replies: 0,
        reposts: 0,
        quotes: 0,
      });
      return event.action === 1
        ? {
            ...base,
            kind: "reply",
            text,
            conversationId: row.conversation_id,
            replyToId: row.post_id,
            replyToUserId: row.author_id,
            mentionedUserIds: [row.author_id],
            metrics,
          }
        : { ...base, kind: "quote", text, conversationId: id, quotedId: row.post_id, mentionedUserIds: [], metrics };
    },
  };
}

/** The answer to a written reply by the author it replied to. */
export function writtenReplyBackRef(world: World, row: WrittenPostRow, answer: { author: number; ms: number }, usernameOf: UsernameOf): PostRef {
  const id = encodePostId({ type: "reply_back_written", seq: row.seq }, answer.ms);
  return {
    id,
    ms: answer.ms,
    author: answer.author,
    build(now) {
      const { pop, seed } = world;
      const keys = keysOf(row.seq);
      const r = createRandom(hash32(seed, keys.key1, keys.key2, 0x7e4b));
      const topic = TOPICS[pop.topic[answer.author]];
      const lang = LANGS[pop.lang[answer.author]];
      return {
        id,
        authorId: pop.ids[answer.author],
        text: writeText(r, "reply_back", { topic, subject: r.pick(topic.subjects), lang, handles: { a: usernameOf(row.author_id) } }),
        createdAt: isoTime(answer.ms),
        kind: "reply",
        conversationId: row.conversation_id,
        replyToId: row.post_id,
        replyToUserId: row.author_id,
        quotedId: null,
        repostedId: null,
        isThreadContinuation: false,
        mentionedUserIds: [row.author_id],
        lang,
        metrics: metricsAt(potentialOf(followersAt(pop, answer.author, answer.ms), drawVirality(r), 0.15), now - answer.ms, {
          replies: 0,
          reposts: 0,
          quotes: 0,
        }),
        media: [],
        article: null,
      };
    },
  };
}
