/**
 * Reflow: what a slot change does to the queue (supplement: Queue). "A slot change moves
 * a queued post only if it sits exactly on an old slot time; the n-th such occurrence
 * maps to the n-th occurrence of the new slot, so gaps survive and hand-picked times
 * stay. `bailed: true`: settings saved, queue untouched; rerun is safe."
 *
 * Both slot sets are read in the zone in force after the write. So a timezone-only change
 * moves nothing (the slots did not change), and a timezone plus slots change "usually
 * moves nothing": posts placed under the old zone rarely sit on an old slot read in the
 * new zone (the reference CLI's advice: change the timezone first, the slots second).
 *
 * Occurrences are counted from 60 s ahead (the least lead a post may have), up to 18
 * months ahead (the furthest a post may be queued); posts due sooner are the publisher's
 * and are left alone.
 */
import type { QueueSlot } from "./queue_settings_schema.ts";
import { slotOccurrences } from "./slot_occurrences.ts";

/**
 * More posts on old slot times than this and the reflow bails (the same bound as one
 * bulk retime, so the change stays one bounded transaction).
 */
export const MAX_REFLOW_POSTS = 500;

/** What a slot change would do. */
export interface ReflowPlan {
  /** Posts on an old slot time (the ones a reflow considers). */
  candidates: number;
  moves: { id: number; from: Date; to: Date }[];
  /** Candidates left where they were. */
  skipped: number[];
}

/**
 * Plans a reflow (pure). A candidate on the n-th old occurrence goes to the n-th new
 * one. It is skipped (stays put) when there is no n-th new occurrence within the horizon
 * (for example every slot was cleared) or when its target is taken by a post that stays:
 * a hand-picked post, or another skipped candidate. Posts sharing an old slot move
 * together.
 */
export function planReflow(input: {
  posts: readonly { id: number; at: Date }[];
  oldSlots: readonly QueueSlot[];
  newSlots: readonly QueueSlot[];
  timeZone: string;
  from: Date;
  horizon: Date;
}): ReflowPlan {
  const { posts, timeZone } = input;
  if (posts.length === 0) return { candidates: 0, moves: [], skipped: [] };
  const lastAt = posts.reduce((latest, post) => Math.max(latest, post.at.getTime()), 0);
  const oldIndex = new Map<number, number>();
  for (const instant of slotOccurrences(input.oldSlots, timeZone, input.from.getTime(), lastAt)) oldIndex.set(instant, oldIndex.size);

  const candidates = posts.filter((post) => oldIndex.has(post.at.getTime()));
  if (candidates.length === 0) return { candidates: 0, moves: [], skipped: [] };
  const maxIndex = candidates.reduce((most, post) => Math.max(most, oldIndex.get(post.at.getTime())!), 0);
  const newOccurrences: number[] = [];
  for (const instant of slotOccurrences(input.newSlots, timeZone, input.from.getTime(), input.horizon.getTime())) {
    newOccurrences.push(instant);
    if (newOccurrences.length > maxIndex) break;
  }

  const targetOf = new Map(candidates.map((post) => [post.id, newOccurrences[oldIndex.get(post.at.getTime())!]] as const));
  const candidateIds = new Set(candidates.map((post) => post.id));
  // Times held by posts that do not move: hand-picked ones, and candidates already on their target.
  const held = new Set(posts.filter((post) => !candidateIds.has(post.id) || targetOf.get(post.id) === post.at.getTime()).map((post) => post.at.getTime()));
  const skipped = new Set<number>();
  for (let changed = true; changed; ) {
    changed = false;
    for (const post of candidates) {
      const target = targetOf.get(post.id);
      if (skipped.has(post.id) || target === post.at.getTime()) continue;
      if (target === undefined || held.has(target)) {
        skipped.add(post.id);
        // A skipped post keeps its time, which may be another candidate's target.
        held.add(post.at.getTime());
        changed = true;
      }
    }
  }
  const moves = candidates
    .filter((post) => !skipped.has(post.id) && targetOf.get(post.id) !== post.at.getTime())
    .map((post) => ({ id: post.id, from: post.at, to: new Date(targetOf.get(post.id)!) }));
  return { candidates: candidates.length, moves, skipped: [...skipped] };
}
