/**
 * The simulated world for one seed: the population, the audience graph (built on first
 * use), and bounded caches of what has been derived (a person's day of posts, a post's
 * engagement events, texts). Everything else is recomputed from the seed on demand.
 */
import { buildAudienceGraph, type AudienceGraph } from "./audience_graph.ts";
import { FIXTURE_POSTS } from "./anchors.ts";
import { createBoundedCache } from "./bounded_cache.ts";
import type { Potential } from "./engagement_model.ts";
import { engagementsOf, type Engageable, type EngagementSet } from "./engagements.ts";
import { generateOriginals, originalPotential, originalText, type OriginalPost, type PlacedPost } from "./original_posts.ts";
import { createPopulation, topicIndex, type Population } from "./population.ts";
import { dayOf } from "./time_units.ts";

/** The world's derived state and how to reach it. */
export interface World {
  seed: number;
  pop: Population;
  graph(): AudienceGraph;
  /** `author`'s original posts on `day`, oldest first (no clock filter). */
  originals(author: number, day: number): readonly OriginalPost[];
  original(author: number, day: number, slot: number): OriginalPost | undefined;
  text(post: OriginalPost): string;
  potential(post: OriginalPost): Potential;
  engageable(post: OriginalPost): Engageable;
  engagements(post: OriginalPost): EngagementSet;
  /** Accounts `user` reads (whose circles hold them). */
  reads(user: number): Int32Array;
  /** `author`'s engaged audience. */
  circle(author: number): Int32Array;
}

/** Creates the world of `size` people for `seed`. */
export function createWorld(seed: number, size: number): World {
  const pop = createPopulation(seed, size);
  let graph: AudienceGraph | undefined;
  const getGraph = () => (graph ??= buildAudienceGraph(seed, pop));
  const placed = new Map<number, PlacedPost[]>();
  for (const fixture of FIXTURE_POSTS) {
    const author = pop.byUsername.get(fixture.author)!;
    const ms = Date.parse(fixture.at);
    const key = author * 100_000 + dayOf(ms);
    placed.set(key, [...(placed.get(key) ?? []), { ms, text: fixture.text, virality: fixture.virality, topic: topicIndex(fixture.topic) }]);
  }
  const days = createBoundedCache<number, OriginalPost[]>(40_000, (posts) => 1 + posts.length);
  // Weighed by events: a 2.4M-follower account's post holds a thousand of them.
  const passes = createBoundedCache<string, EngagementSet>(8_000, (set) => 1 + (set.events.length + set.lurkerReposts.length) / 20);
  const world: World = {
    seed,
    pop,
    graph: getGraph,
    originals(author, day) {
      const key = author * 100_000 + day;
      return days.get(key, () => generateOriginals(seed, pop, author, day, world.reads(author), placed.get(key)));
    },
    original: (author, day, slot) => world.originals(author, day).find((post) => post.slot === slot),
    text: (post) => (post.text ??= originalText(seed, pop, post)),
    potential: (post) => (post.potential ??= originalPotential(pop, post)),
    engageable: (post) => ({ author: post.author, ms: post.ms, key1: post.author, key2: post.day * 32 + post.slot, potential: world.potential(post) }),
    engagements: (post) => passes.get(post.id, () => engagementsOf(seed, pop, getGraph(), world.engageable(post))),
    reads(user) {
      const g = getGraph();
      return g.reads.subarray(g.readsStart[user], g.readsStart[user + 1]);
    },
    circle(author) {
      const g = getGraph();
      return g.circle.subarray(g.circleStart[author], g.circleStart[author + 1]);
    },
  };
  return world;
}
