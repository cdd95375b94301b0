/**
 * What one person did, or had aimed at them, on one UTC day: the unit timelines and
 * mentions are paged through, newest day first.
 */
import { engagementBy, replyBackTime, type Engagement } from "./engagements.ts";
import type { OriginalPost } from "./original_posts.ts";
import { engagementRef, originalRef, replyBackRef, replyBacksOn, type PostRef } from "./post_refs.ts";
import { newestFirst } from "./paging.ts";
import { dayOf } from "./time_units.ts";
import type { World } from "./world.ts";

/** Which of a person's own posts to include. */
export interface AuthoredKinds {
  replies: boolean;
  reposts: boolean;
  quotes: boolean;
}

/** Newest first: `user`'s originals, and their replies, quotes and reposts, posted on `day` by `now`. */
export function authoredOn(world: World, user: number, day: number, now: number, kinds: AuthoredKinds): PostRef[] {
  const refs: PostRef[] = world
    .originals(user, day)
    .filter((post) => post.ms <= now)
    .map((post) => originalRef(world, post));
  if (kinds.replies || kinds.quotes || kinds.reposts) {
    for (const { target, event } of engagementsBy(world, user, day, now)) {
      const wanted = event.action === 1 ? kinds.replies : event.action === 2 ? kinds.quotes : kinds.reposts;
      if (wanted) refs.push(engagementRef(world, target, event));
    }
  }
  if (kinds.replies) {
    for (let d = day - 2; d <= day; d++) {
      for (const post of world.originals(user, d)) refs.push(...replyBacksOn(world, post, day, now));
    }
  }
  return refs.sort(newestFirst);
}

/** Newest first: replies to `user`'s posts, answers to their replies, and posts naming them, on `day` by `now`. */
export function mentionsOn(world: World, user: number, day: number, now: number): PostRef[] {
  const { pop, seed } = world;
  const refs: PostRef[] = [];
  for (let d = day - 1; d <= day; d++) {
    for (const post of world.originals(user, d)) {
      for (const event of world.engagements(post).events) {
        if (event.action === 1 && event.ms <= now && dayOf(event.ms) === day) refs.push(engagementRef(world, post, event));
      }
    }
  }
  for (let d = day - 1; d <= day; d++) {
    for (const { target, event } of engagementsBy(world, user, d, now)) {
      if (event.action !== 1) continue;
      const ms = replyBackTime(seed, pop, { key1: target.author, key2: target.day * 32 + target.slot, user, ms: event.ms }, target.author);
      if (ms !== undefined && ms <= now && dayOf(ms) === day) refs.push(replyBackRef(world, target, event, ms));
    }
  }
  for (const follower of world.circle(user)) {
    for (const post of world.originals(follower, day)) {
      if (post.mention === user && post.ms <= now) refs.push(originalRef(world, post));
    }
  }
  return refs.sort(newestFirst);
}

/** `user`'s engagements landing on `day` by `now`: posts of accounts they read, from that day and the day before. */
function engagementsBy(world: World, user: number, day: number, now: number): { target: OriginalPost; event: Engagement }[] {
  const { pop, seed } = world;
  const graph = world.graph();
  const found: { target: OriginalPost; event: Engagement }[] = [];
  if (pop.isProtected[user]) return found;
  for (const author of world.reads(user)) {
    if (pop.isProtected[author]) continue;
    for (let d = day - 1; d <= day; d++) {
      for (const target of world.originals(author, d)) {
        const event = engagementBy(seed, pop, graph, world.engageable(target), user);
        if (event && event.ms <= now && dayOf(event.ms) === day) found.push({ target, event });
      }
    }
  }
  return found;
}
