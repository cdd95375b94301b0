/**
 * The index recent search reads: per UTC day, every public original post, thread part
 * and quote posted that day, with an inverted index from word to entries. A day's index
 * is built the first time a search reaches it and kept in a bounded cache; it holds the
 * whole day, and the clock decides at query time what has been posted. Replies and
 * reposts are conversation, not content, and are not indexed (the world's replies say
 * "This is so true."); posts written through Threadline are matched separately.
 */
import { arrived } from "./engagement_model.ts";
import { engagementsOf } from "./engagements.ts";
import { engagementRef, originalRef, type PostRef } from "./post_refs.ts";
import { SEARCH_STOP_WORDS } from "../../../core/text/search_stop_words.ts";
import { clauseMatches, indexTokens, tokenize, type SearchClause } from "./search_query.ts";
import { dayOf } from "./time_units.ts";
import type { World } from "./world.ts";

/** One searchable post. */
interface Entry {
  ref: PostRef;
  text: string;
  lang: number;
  /** Final likes (likes at `now` follow the arrival curve). */
  likes: number;
  /** Not a quote or a thread continuation. */
  original: boolean;
}

/** A day's searchable posts and their inverted index (entry numbers ascending). */
export interface DayIndex {
  entries: Entry[];
  postings: Map<string, number[]>;
}

/** Filters besides the words. */
export interface SearchFilters {
  sinceMs: number;
  untilMs: number;
  minLikes?: number;
  /** Index into LANGS, when filtering by language. */
  lang?: number;
  originalsOnly?: boolean;
}

/** Builds the index of `day`. */
export function buildDayIndex(world: World, day: number): DayIndex {
  const { pop, seed } = world;
  const graph = world.graph();
  const entries: Entry[] = [];
  for (const author of pop.eligible) {
    for (const post of world.originals(author, day)) {
      entries.push({ ref: originalRef(world, post), text: world.text(post), lang: post.lang, likes: world.potential(post).likes, original: post.part === 0 });
    }
    for (let d = day - 1; d <= day; d++) {
      for (const post of world.originals(author, d)) {
        // Not through world.engagements: a whole day's passes would flush the cache hot reads use.
        for (const event of engagementsOf(seed, pop, graph, world.engageable(post)).events) {
          if (event.action !== 2 || dayOf(event.ms) !== day) continue;
          const ref = engagementRef(world, post, event);
          const built = ref.build(Number.POSITIVE_INFINITY);
          entries.push({ ref, text: built.text, lang: pop.lang[event.user], likes: built.metrics.likes, original: false });
        }
      }
    }
  }
  const postings = new Map<string, number[]>();
  entries.forEach((entry, i) => {
    for (const token of new Set(tokenize(entry.text))) {
      if (SEARCH_STOP_WORDS.has(token)) continue;
      const list = postings.get(token);
      if (list) list.push(i);
      else postings.set(token, [i]);
    }
  });
  return { entries, postings };
}

/** The day's posts matching any clause and the filters at `now`, newest first. */
export function searchDay(index: DayIndex, clauses: SearchClause[], filters: SearchFilters, now: number): PostRef[] {
  const found = new Set<number>();
  for (const clause of clauses) {
    for (const i of candidates(index, clause)) {
      if (found.has(i)) continue;
      const entry = index.entries[i];
      const { ms } = entry.ref;
      if (ms > now || ms < filters.sinceMs || ms >= filters.untilMs) continue;
      if (filters.lang !== undefined && entry.lang !== filters.lang) continue;
      if (filters.originalsOnly && !entry.original) continue;
      if (filters.minLikes && Math.round(entry.likes * arrived(now - ms)) < filters.minLikes) continue;
      if (clauseMatches(clause, tokenize(entry.text))) found.add(i);
    }
  }
  return [...found].map((i) => index.entries[i].ref).sort((a, b) => b.ms - a.ms || (a.id < b.id ? 1 : -1));
}

function candidates(index: DayIndex, clause: SearchClause): number[] {
  const lists = indexTokens(clause).map((token) => index.postings.get(token) ?? []);
  if (lists.length === 0) return [];
  lists.sort((a, b) => a.length - b.length);
  const [first, ...rest] = lists;
  return first.filter((i) => rest.every((list) => contains(list, i)));
}

function contains(sorted: number[], value: number): boolean {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (sorted[mid] === value) return true;
    if (sorted[mid] < value) low = mid + 1;
    else high = mid - 1;
  }
  return false;
}
