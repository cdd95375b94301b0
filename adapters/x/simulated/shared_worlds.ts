/**
 * One generated world per seed and size in a process. A world is a pure function of its
 * seed and size, and what it derives (people's days of posts, engagement passes, the search
 * indexes of whole days) holds for every network built on it; so networks built in one
 * process on the same seed (an embedding host's instances, a test file's) share the
 * derivation work and its bounded memory instead of each redoing it.
 */
import { createBoundedCache, type BoundedCache } from "./bounded_cache.ts";
import type { DayIndex } from "./search_index.ts";
import { createWorld, type World } from "./world.ts";

/** A world and the search indexes of its days (by UTC day number). */
export interface SharedWorld {
  world: World;
  searchDays: BoundedCache<number, DayIndex>;
}

// A few seeds at most are live in one process; one evicted here stays with the networks using it.
const worlds = createBoundedCache<string, SharedWorld>(4);

/** The world of `size` people for `seed`, built on first use in this process. */
export function sharedWorld(seed: number, size: number): SharedWorld {
  return worlds.get(`${seed}:${size}`, () => ({ world: createWorld(seed, size), searchDays: createBoundedCache<number, DayIndex>(12) }));
}
