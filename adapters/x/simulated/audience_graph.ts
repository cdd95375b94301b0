/**
 * Who engages with whom. Each account has an engaged audience (its "circle"): the public
 * people who follow it and may reply, quote or repost, sized by its followers
 * (6 + 2 * followers^0.55, at most 2,500) and drawn mostly from its topic. A post's
 * engagement is decided per circle member by hashing (post, member), so the post can
 * list its repliers and a member can list the posts they replied to, and the two agree.
 * The inverse (whose circles a person is in: whom they follow and read) is what a
 * person's own replies, quotes and reposts are found through.
 */
import { ANCHOR_ACCOUNTS } from "./anchors.ts";
import { hash32 } from "./hash.ts";
import { createRandom } from "./prng.ts";
import type { Population } from "./population.ts";

/** Circles and their inverse as offset-indexed flat arrays. */
export interface AudienceGraph {
  /** Members of `a`'s circle: `circle.subarray(circleStart[a], circleStart[a + 1])`. */
  circle: Int32Array;
  circleStart: Int32Array;
  /** Accounts whose circle holds `u` (whom `u` follows and engages with). */
  reads: Int32Array;
  readsStart: Int32Array;
}

/** The largest circle: more than this many engaged people would only slow every big account's posts. */
export const MAX_CIRCLE = 2500;

/** How many engaged followers account `a` has. */
export function circleSize(pop: Population, a: number): number {
  const followers = pop.followers0[a];
  return Math.max(0, Math.min(Math.floor(followers), Math.round(6 + 2 * followers ** 0.55), MAX_CIRCLE, pop.eligible.length - 1));
}

/** Builds every circle and the inverse index. */
export function buildAudienceGraph(seed: number, pop: Population): AudienceGraph {
  const sizes = new Int32Array(pop.size);
  let total = 0;
  for (let a = 0; a < pop.size; a++) total += sizes[a] = circleSize(pop, a);
  const circle = new Int32Array(total);
  const circleStart = new Int32Array(pop.size + 1);
  const stamp = new Int32Array(pop.size).fill(-1);
  const anchorIndex = new Map(ANCHOR_ACCOUNTS.map((anchor, i) => [anchor.username, i]));
  let at = 0;
  for (let a = 0; a < pop.size; a++) {
    circleStart[a] = at;
    const end = at + sizes[a];
    stamp[a] = a;
    for (const handle of a < pop.anchorCount ? (ANCHOR_ACCOUNTS[a].audience ?? []) : []) {
      const member = anchorIndex.get(handle)!;
      if (at < end && stamp[member] !== a) {
        stamp[member] = a;
        circle[at++] = member;
      }
    }
    const r = createRandom(hash32(seed, a, 0xc1c1e));
    const sameTopic = pop.byTopic[pop.topic[a]];
    for (let tries = 0; at < end && tries < sizes[a] * 6; tries++) {
      const pool = r.chance(0.55) && sameTopic.length > 1 ? sameTopic : pop.eligible;
      const member = pool[r.int(pool.length)];
      if (stamp[member] === a) continue;
      stamp[member] = a;
      circle[at++] = member;
    }
    // A tiny world may run out of distinct people; keep the circle as far as it got.
    if (at < end) sizes[a] = at - circleStart[a];
  }
  circleStart[pop.size] = at;
  const compact = at === total ? circle : circle.slice(0, at);
  return { circle: compact, circleStart, ...invert(pop.size, compact, circleStart) };
}

function invert(size: number, circle: Int32Array, circleStart: Int32Array): { reads: Int32Array; readsStart: Int32Array } {
  const counts = new Int32Array(size + 1);
  for (let i = 0; i < circle.length; i++) counts[circle[i] + 1]++;
  for (let u = 0; u < size; u++) counts[u + 1] += counts[u];
  const readsStart = Int32Array.from(counts);
  const reads = new Int32Array(circle.length);
  const cursor = Int32Array.from(counts);
  for (let a = 0; a < size; a++) {
    for (let i = circleStart[a]; i < circleStart[a + 1]; i++) reads[cursor[circle[i]]++] = a;
  }
  return { reads, readsStart };
}
