/** Finds a generated post from its id alone (see post_ids.ts), as of `now`. */
import { engagementBy, replyBackTime, type Engagement } from "./engagements.ts";
import type { OriginalPost } from "./original_posts.ts";
import { decodePostId } from "./post_ids.ts";
import { engagementRef, originalRef, replyBackRef, type PostRef } from "./post_refs.ts";
import type { World } from "./world.ts";

/** A generated post found by id, with what it is. */
export interface GeneratedPost {
  ref: PostRef;
  /** Set when the post is an original or thread part. */
  original?: OriginalPost;
  /** Set when the post is a circle member's reply, quote or repost of `target`. */
  engagement?: { target: OriginalPost; event: Engagement };
}

/** The generated post `id` names, if it exists by `now` (undefined for ids of written posts too). */
export function generatedPost(world: World, id: string, now: number): GeneratedPost | undefined {
  const decoded = decodePostId(id);
  if (!decoded) return undefined;
  const { key, day } = decoded;
  const { pop } = world;
  if (key.type === "original") {
    if (key.author >= pop.size) return undefined;
    const post = world.original(key.author, day, key.slot);
    return post && post.id === id && post.ms <= now ? { ref: originalRef(world, post), original: post } : undefined;
  }
  if (key.type !== "engagement" && key.type !== "reply_back") return undefined;
  if (key.author >= pop.size || key.user >= pop.size || !world.circle(key.author).includes(key.user)) return undefined;
  const target = world.original(key.author, day - key.dayOffset, key.slot);
  if (!target) return undefined;
  const event = engagementBy(world.seed, pop, world.graph(), world.engageable(target), key.user);
  if (!event || event.ms > now) return undefined;
  if (key.type === "engagement") {
    if (event.action !== key.action) return undefined;
    const ref = engagementRef(world, target, event);
    return ref.id === id ? { ref, engagement: { target, event } } : undefined;
  }
  if (event.action !== 1) return undefined;
  const ms = replyBackTime(world.seed, pop, { key1: target.author, key2: target.day * 32 + target.slot, user: event.user, ms: event.ms }, target.author);
  if (ms === undefined || ms > now) return undefined;
  const ref = replyBackRef(world, target, event, ms);
  return ref.id === id ? { ref } : undefined;
}
