/**
 * Replies, quotes and reposts as events. Each member of the author's circle hashes
 * (post, member) to at most one action, with probabilities that make the expected
 * counts match the post's potential; reposts beyond what the circle gives come from
 * lurkers. The same hash answers from the engager's side (`engagementBy`), which is how
 * a person's timeline shows the replies a post lists. Events land within about 15 hours
 * and count only once the clock has passed them.
 */
import type { AudienceGraph } from "./audience_graph.ts";
import type { Potential } from "./engagement_model.ts";
import { unitHash } from "./hash.ts";
import type { Population } from "./population.ts";
import { HOUR_MS, MINUTE_MS } from "../../../core/time/durations.ts";

/** A post that can be engaged with: its author, time, hash key and potential. */
export interface Engageable {
  author: number;
  ms: number;
  /** Two integers naming the post for hashing (author and day*32+slot for generated posts). */
  key1: number;
  key2: number;
  potential: Potential;
}

/** One reply (1), quote (2) or repost (3). */
export interface Engagement {
  user: number;
  action: 1 | 2 | 3;
  ms: number;
}

/** A post's engagement events, oldest first, and the times lurkers reposted it. */
export interface EngagementSet {
  events: Engagement[];
  lurkerReposts: number[];
}

const SALT_ACTION = 0xe1;
const SALT_DELAY = 0xe2;
const SALT_LURKER = 0xe3;
const SALT_REPLY_BACK = 0xe4;
const SALT_REPLY_BACK_DELAY = 0xe5;

interface Odds {
  reply: number;
  quote: number;
  repost: number;
  lurkers: number;
}

function odds(potential: Potential, size: number): Odds {
  if (size === 0) return { reply: 0, quote: 0, repost: 0, lurkers: Math.round(potential.reposts) };
  const repost = Math.min(0.35, potential.reposts / size);
  return {
    reply: Math.min(0.5, potential.replies / size),
    quote: Math.min(0.12, potential.quotes / size),
    repost,
    lurkers: Math.max(0, Math.round(potential.reposts - repost * size)),
  };
}

function delay(seed: number, post: Engageable, member: number): number {
  const u = unitHash(seed, post.key1, post.key2, member, SALT_DELAY);
  return 30_000 + Math.floor(-Math.log(1 - u * 0.9975) * 2.5 * HOUR_MS);
}

function decide(seed: number, pop: Population, post: Engageable, member: number, chances: Odds): Engagement | undefined {
  if (pop.createdMs[member] > post.ms) return undefined;
  const u = unitHash(seed, post.key1, post.key2, member, SALT_ACTION);
  const e = pop.propensity[member];
  let action: 1 | 2 | 3;
  if (u < chances.reply * e) action = 1;
  else if (u < (chances.reply + chances.quote) * e) action = 2;
  else if (u < (chances.reply + chances.quote + chances.repost) * e) action = 3;
  else return undefined;
  return { user: member, action, ms: post.ms + delay(seed, post, member) };
}

/** Every engagement the post will get, in time order (filter by the clock to count). */
export function engagementsOf(seed: number, pop: Population, graph: AudienceGraph, post: Engageable): EngagementSet {
  const from = graph.circleStart[post.author];
  const to = graph.circleStart[post.author + 1];
  const chances = odds(post.potential, to - from);
  const events: Engagement[] = [];
  for (let i = from; i < to; i++) {
    const event = decide(seed, pop, post, graph.circle[i], chances);
    if (event) events.push(event);
  }
  events.sort((a, b) => a.ms - b.ms || a.user - b.user);
  const lurkerReposts: number[] = [];
  for (let j = 0; j < chances.lurkers; j++) {
    const u = unitHash(seed, post.key1, post.key2, j, SALT_LURKER);
    lurkerReposts.push(post.ms + 60_000 + Math.floor(-Math.log(1 - u * 0.9975) * 3 * HOUR_MS));
  }
  lurkerReposts.sort((a, b) => a - b);
  return { events, lurkerReposts };
}

/** What `member` (who must be in the author's circle) did with the post, if anything. */
export function engagementBy(seed: number, pop: Population, graph: AudienceGraph, post: Engageable, member: number): Engagement | undefined {
  const size = graph.circleStart[post.author + 1] - graph.circleStart[post.author];
  return decide(seed, pop, post, member, odds(post.potential, size));
}

/** When `author` answers a reply on their post (named by its hash key), or undefined if they do not. */
export function replyBackTime(
  seed: number,
  pop: Population,
  reply: { key1: number; key2: number; user: number; ms: number },
  author: number,
): number | undefined {
  if (unitHash(seed, reply.key1, reply.key2, reply.user, SALT_REPLY_BACK) >= pop.replyBackRate[author]) return undefined;
  const u = unitHash(seed, reply.key1, reply.key2, reply.user, SALT_REPLY_BACK_DELAY);
  return reply.ms + 5 * MINUTE_MS + Math.floor(-Math.log(1 - u * 0.99) * 1.5 * HOUR_MS);
}
