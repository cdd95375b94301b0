/**
 * The simulated media library: the embedded default of the MediaLibrary port
 * (core/ports/media_library.ts). Deterministic: one item per 30-minute slot of
 * the clock, built from `hash(seed, slot)`, over the last 180 days (8,640 items across
 * the six platforms). Captions and summaries come from the world's topics
 * (adapters/x/simulated/vocabulary_topics.ts) and the content labels of
 * media_vocabulary.ts; engagement is log-normal around each platform's viral medians.
 * The clock of the query decides what "the last 24 hours" holds, so the same time gives
 * the same answer, and the library moves forward with real time.
 */
import type { MediaLibrary, MediaLibraryQuery } from "../../core/ports/media_library.ts";
import { MEDIA_PLATFORMS, type MediaItem, type MediaPlatform } from "../../core/ports/media_item_schema.ts";
import { hash32 } from "../x/simulated/hash.ts";
import { createRandom, type Random } from "../x/simulated/prng.ts";
import { TOPICS, type Topic } from "../x/simulated/vocabulary_topics.ts";
import { FIRST_NAMES, LAST_NAMES } from "../x/simulated/vocabulary_people.ts";
import { IMAGE_LABELS, PLATFORM_TRAITS, STOPWORDS, VIDEO_LABELS } from "./media_vocabulary.ts";
import { DAY_MS } from "../../core/time/durations.ts";

/** One item per slot of this length. */
export const SLOT_MS = 30 * 60_000;
/** How far back the library reaches. */
export const LIBRARY_DAYS = 180;
const SLOTS = (LIBRARY_DAYS * DAY_MS) / SLOT_MS;
/** Items kept built (the whole library and then some); older builds are dropped first. */
const MEMO_SIZE = SLOTS + 1_000;

/** An item with what a search needs. */
interface Entry {
  item: MediaItem;
  postedMs: number;
  words: ReadonlySet<string>;
  /** 0 to 1: how widely it spread, for ranking ties in relevance. */
  reach: number;
}

/** Creates the library for `seed` (the network's seed: one world). */
export function createSimulatedMediaLibrary(options: { seed: number }): MediaLibrary {
  const memo = new Map<number, Entry>();
  const entryAt = (slot: number): Entry => {
    let entry = memo.get(slot);
    if (entry === undefined) {
      entry = buildEntry(options.seed, slot);
      if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value as number);
      memo.set(slot, entry);
    }
    return entry;
  };

  return {
    async search(query) {
      const terms = query.q === undefined ? [] : wordsOf(query.q);
      const searching = query.q !== undefined;
      const found: { entry: Entry; score: number }[] = [];
      const horizon = Math.max(query.nowMs - LIBRARY_DAYS * DAY_MS, query.sinceMs ?? 0);
      for (let slot = Math.floor(query.nowMs / SLOT_MS); slot * SLOT_MS + SLOT_MS > horizon; slot--) {
        const entry = entryAt(slot);
        if (entry.postedMs > query.nowMs || entry.postedMs < horizon || !matchesFilters(entry.item, query)) continue;
        if (!searching) {
          found.push({ entry, score: 0 });
          if (found.length >= query.limit) break;
          continue;
        }
        const matched = terms.filter((term) => entry.words.has(term)).length;
        if (matched > 0) found.push({ entry, score: round3(0.8 * (matched / terms.length) + 0.2 * entry.reach) });
      }
      if (!searching) return found.map(({ entry }) => entry.item);
      found.sort((a, b) => b.score - a.score || b.entry.postedMs - a.entry.postedMs);
      return found.slice(0, query.limit).map(({ entry, score }) => ({ ...entry.item, score }));
    },
  };
}

function matchesFilters(item: MediaItem, query: MediaLibraryQuery): boolean {
  if (!query.platforms.includes(item.platform)) return false;
  if (query.mediaType !== "all" && item.media_type !== query.mediaType) return false;
  return query.contentType === undefined || item.content_type === query.contentType;
}

/** Lowercase words without stopwords, a plural `s` dropped, so "agents" finds "agent". */
function wordsOf(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter((word) => !STOPWORDS.has(word)).map((word) => (word.length > 3 ? word.replace(/s$/, "") : word)))];
}

const PLATFORM_WEIGHTS = MEDIA_PLATFORMS.map((platform) => PLATFORM_TRAITS[platform].weight);
const TOTAL_WEIGHT = PLATFORM_WEIGHTS.reduce((a, b) => a + b, 0);

function buildEntry(seed: number, slot: number): Entry {
  const random = createRandom(hash32(seed, slot, 0x6d656469));
  const platform = pickPlatform(random);
  const traits = PLATFORM_TRAITS[platform];
  const topic = random.pick(TOPICS);
  const video = random.chance(traits.videoShare);
  const label = random.pick(video ? VIDEO_LABELS : IMAGE_LABELS);
  const caption = `${fill(random.pick(label.captions), random, topic)} ${random.chance(0.5) ? random.pick(topic.hashtags) : ""}`.trim();
  const summary = fill(label.summary, random, topic);
  const first = random.pick(FIRST_NAMES);
  const last = random.pick(LAST_NAMES);
  const handle = `${first}${random.pick(["", "_", "."])}${last}${random.pick(["", "hq", "tv", "studio", String(random.int(99))])}`
    .toLowerCase()
    .replace(/[^a-z0-9._]/g, "");
  const postedMs = slot * SLOT_MS + random.int(SLOT_MS);
  const engagement = engagementOf(random, platform);
  const item: MediaItem = {
    id: `${platform}_${slot.toString(36)}`,
    platform,
    media_type: video ? "video" : "image",
    content_type: label.label,
    caption,
    summary,
    engagement,
    author: { handle, name: `${first} ${last}` },
    posted_at: new Date(postedMs).toISOString(),
    source_url: sourceUrl(platform, random, handle, topic, video),
  };
  const words = new Set(wordsOf(`${caption} ${summary} ${topic.key} ${label.label.replace(/_/g, " ")} ${topic.hashtags.join(" ")}`));
  const reach = Math.min(1, Math.log10(engagement.likes + 1) / 6);
  return { item, postedMs, words, reach };
}

function pickPlatform(random: Random): MediaPlatform {
  let draw = random.next() * TOTAL_WEIGHT;
  for (const [i, platform] of MEDIA_PLATFORMS.entries()) {
    draw -= PLATFORM_WEIGHTS[i];
    if (draw < 0) return platform;
  }
  return MEDIA_PLATFORMS[0];
}

/** Fills a template's placeholders with draws from the topic (a switch, not a closure per item: tsx makes closures costly). */
function fill(template: string, random: Random, topic: Topic): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    switch (name) {
      case "subject":
        return random.pick(topic.subjects);
      case "outcome":
        return random.pick(topic.outcomes);
      case "lesson":
        return random.pick(topic.lessons);
      case "opinion":
        return random.pick(topic.opinions);
      case "thing":
        return random.pick(topic.things);
      case "role":
        return random.pick(topic.roles).toLowerCase();
      case "seconds":
        return String(15 + random.int(16) * 5);
      default:
        return String(3 + random.int(8));
    }
  });
}

function engagementOf(random: Random, platform: MediaPlatform): MediaItem["engagement"] {
  const traits = PLATFORM_TRAITS[platform];
  const views = traits.viewsMedian === null ? null : Math.round(random.logNormal(traits.viewsMedian, 0.9));
  const likes = views === null ? Math.round(random.logNormal(traits.likesMedian, 0.8)) : Math.round(views * traits.likeRate * random.range(0.5, 1.6));
  const comments = Math.round(likes * traits.commentRate * random.range(0.4, 1.8));
  const shares = traits.shareRate === null ? null : Math.round(likes * traits.shareRate * random.range(0.4, 1.8));
  return { views, likes, comments, shares };
}

const BASE62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

function code(random: Random, length: number): string {
  let text = "";
  for (let i = 0; i < length; i++) text += BASE62[random.int(BASE62.length)];
  return text;
}

function digits(random: Random, length: number): string {
  let text = String(1 + random.int(9));
  for (let i = 1; i < length; i++) text += String(random.int(10));
  return text;
}

/** The post's address on its platform (the library's only URL: no media file, no thumbnail). */
function sourceUrl(platform: MediaPlatform, random: Random, handle: string, topic: Topic, video: boolean): string {
  switch (platform) {
    case "x":
      return `https://x.com/${handle.replace(/\./g, "_")}/status/${digits(random, 19)}`;
    case "instagram":
      return `https://www.instagram.com/${video ? "reel" : "p"}/${code(random, 11)}/`;
    case "youtube":
      return `https://www.youtube.com/watch?v=${code(random, 11)}`;
    case "threads":
      return `https://www.threads.net/@${handle}/post/${code(random, 11)}`;
    case "reddit":
      return `https://www.reddit.com/r/${topic.key}/comments/${random.int(2 ** 31).toString(36)}/`;
    case "linkedin":
      return `https://www.linkedin.com/feed/update/urn:li:activity:${digits(random, 19)}/`;
  }
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
