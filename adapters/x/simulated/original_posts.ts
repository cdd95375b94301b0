/**
 * A person's own posts on one UTC day, derived from (seed, person, day): how many (their
 * activity, less at weekends), when (waking hours where they live), threads of 3-8
 * parts, media, a named account now and then, and each post's virality. Days are
 * independent, so a timeline is read one day at a time and a new day simply appears
 * when the clock reaches it; the post's text is written only when someone reads it.
 */
import { hash32 } from "./hash.ts";
import { createRandom } from "./prng.ts";
import { drawVirality, potentialOf, type Potential } from "./engagement_model.ts";
import { encodePostId } from "./post_ids.ts";
import { followersAt, LANGS, type Population } from "./population.ts";
import { DAY_MS, HOUR_MS, MINUTE_MS } from "../../../core/time/durations.ts";
import { writeText, type TextKind } from "./text_generator.ts";
import { TOPICS } from "./vocabulary_topics.ts";

/** One original post or thread part. */
export interface OriginalPost {
  author: number;
  day: number;
  /** Position among the author's posts that day (0-29; hand-placed fixtures use 31). */
  slot: number;
  ms: number;
  id: string;
  /** Part number in its thread (0 for a single post) and the thread's length (1 for a single post). */
  part: number;
  parts: number;
  /** Slot of the thread's first part. */
  rootSlot: number;
  topic: number;
  subject: number;
  textSeed: number;
  virality: number;
  media: boolean;
  /** User index named with `@`, or -1. */
  mention: number;
  /** Index into LANGS. */
  lang: number;
  /** Set on hand-placed posts. */
  fixedText?: string;
  /** Memo of the text and potential, computed on first read (the post lives in the world's day cache). */
  text?: string;
  potential?: Potential;
}

/** A hand-placed post for some author and day. */
export interface PlacedPost {
  ms: number;
  text: string;
  virality: number;
  topic: number;
}

/** Slot of hand-placed posts. */
export const FIXTURE_SLOT = 31;
const MAX_SLOTS = 30;

/** Generates `author`'s posts on `day`, oldest first. `reads` lists whom they may name. */
export function generateOriginals(
  seed: number,
  pop: Population,
  author: number,
  day: number,
  reads: ArrayLike<number>,
  placed: readonly PlacedPost[] = [],
): OriginalPost[] {
  const dayStart = day * DAY_MS;
  if (dayStart + DAY_MS <= pop.createdMs[author]) return [];
  const r = createRandom(hash32(seed, author, day, 0x0419));
  const weekday = (day + 4) % 7;
  const count = r.poisson(pop.activity[author] * (weekday === 0 || weekday === 6 ? 0.7 : 1.08));
  // Built as plain objects of one shape (no spreads): this runs for every person-day a read touches.
  const drafts: OriginalPost[] = [];
  const groups: number[] = [];
  let left = MAX_SLOTS;
  for (let group = 0; group < count && left > 0; group++) {
    const parts = r.chance(pop.threadRate[author]) ? Math.min(3 + r.int(6), left) : 1;
    left -= parts;
    const localHour = Math.min(23.8, Math.max(6.5, 13 + 4.5 * r.normal()));
    let start = ((((localHour - pop.utcOffset[author]) % 24) + 24) % 24) * HOUR_MS + r.int(60) * 1000;
    start = Math.min(start, DAY_MS - parts * 4 * MINUTE_MS);
    const topic = r.chance(0.75) ? pop.topic[author] : pop.topic2[author];
    const subject = r.int(TOPICS[topic].subjects.length);
    const virality = drawVirality(r);
    const media = r.chance(pop.mediaRate[author]);
    const pick = parts === 1 && reads.length > 0 && r.chance(0.1) ? reads[r.int(reads.length)] : -1;
    // Only the English templates name a mentioned handle in the text, and a mention the
    // text does not show would not be a mention on X (the same draws keep the world stable).
    const mention = LANGS[pop.lang[author]] === "en" ? pick : -1;
    const textSeed = r.int(2 ** 31);
    let ms = dayStart + Math.floor(start);
    for (let part = 0; part < parts; part++) {
      if (ms >= pop.createdMs[author]) {
        drafts.push(post(author, day, ms, part, parts, topic, subject, textSeed, virality, media && part === 0, mention, pop.lang[author]));
        groups.push(group);
      }
      ms += MINUTE_MS + r.int(120) * 1000;
    }
  }
  const order = drafts.map((_, i) => i).sort((a, b) => drafts[a].ms - drafts[b].ms || drafts[a].part - drafts[b].part);
  const posts: OriginalPost[] = [];
  const roots = new Map<number, number>();
  let last = -1;
  for (const i of order) {
    const draft = drafts[i];
    draft.slot = posts.length;
    draft.ms = Math.max(draft.ms, last + 1000);
    last = draft.ms;
    if (draft.part === 0) roots.set(groups[i], draft.slot);
    draft.rootSlot = roots.get(groups[i]) ?? draft.slot;
    draft.id = encodePostId({ type: "original", author, slot: draft.slot }, draft.ms);
    posts.push(draft);
  }
  for (const fixture of placed) {
    const fixed = post(author, day, fixture.ms, 0, 1, fixture.topic, 0, 0, fixture.virality, false, -1, 0);
    fixed.slot = FIXTURE_SLOT;
    fixed.rootSlot = FIXTURE_SLOT;
    fixed.fixedText = fixture.text;
    fixed.id = encodePostId({ type: "original", author, slot: FIXTURE_SLOT }, fixture.ms);
    posts.push(fixed);
  }
  return placed.length > 0 ? posts.sort((a, b) => a.ms - b.ms) : posts;
}

function post(
  author: number,
  day: number,
  ms: number,
  part: number,
  parts: number,
  topic: number,
  subject: number,
  textSeed: number,
  virality: number,
  media: boolean,
  mention: number,
  lang: number,
): OriginalPost {
  return {
    author,
    day,
    slot: -1,
    ms,
    id: "",
    part,
    parts,
    rootSlot: -1,
    topic,
    subject,
    textSeed,
    virality,
    media,
    mention,
    lang,
    fixedText: undefined,
    text: undefined,
    potential: undefined,
  };
}

/** The text of an original post. */
export function originalText(seed: number, pop: Population, post: OriginalPost): string {
  if (post.fixedText !== undefined) return post.fixedText;
  const r = createRandom(hash32(seed, post.textSeed, post.part, 0x7e47));
  const topic = TOPICS[post.topic];
  const kind: TextKind =
    post.parts > 1
      ? post.part === 0
        ? "thread_opener"
        : post.part === post.parts - 1
          ? "thread_closer"
          : "thread_part"
      : post.mention >= 0
        ? "mention"
        : "original";
  return writeText(r, kind, {
    topic,
    subject: topic.subjects[post.subject],
    lang: LANGS[post.lang],
    handles: { m: post.mention >= 0 ? pop.usernames[post.mention] : undefined, me: pop.usernames[post.author] },
    part: post.part + 1,
  });
}

/** Where an original post's engagement is heading. */
export function originalPotential(pop: Population, post: OriginalPost): Potential {
  let factor = post.parts > 1 ? (post.part === 0 ? 1.4 : 0.35 * 0.8 ** (post.part - 1)) : 1;
  if (post.media) factor *= 1.25;
  if (post.mention >= 0) factor *= 0.9;
  if (post.lang !== 0) factor *= 0.8;
  return potentialOf(followersAt(pop, post.author, post.ms), post.virality, factor);
}
