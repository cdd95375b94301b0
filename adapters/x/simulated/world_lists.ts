/**
 * X lists. Anchors own the hand-placed lists of anchors.ts (the demo's public and
 * private list); about one in seven other people (more among larger accounts) own one
 * to three topic lists, a third of them private. A list id names its owner and number,
 * so a list is found from its id without an index.
 */
import { FIXTURE_LISTS } from "./anchors.ts";
import { hash32 } from "./hash.ts";
import { createRandom, type Random } from "./prng.ts";
import { topicIndex } from "./population.ts";
import { DAY_MS } from "../../../core/time/durations.ts";
import { TOPICS } from "./vocabulary_topics.ts";
import type { World } from "./world.ts";

/** A list of the world. */
export interface WorldList {
  id: string;
  owner: number;
  name: string;
  description: string;
  private: boolean;
  /** Member user indices, most recently added first. */
  members: Int32Array;
  createdMs: number;
  followerCount: number;
}

const BASE = 1_580_000_000_000_000_000n;

/** The id of list `n` of `owner` (the same for every seed). */
export function listId(owner: number, n: number): string {
  return String(BASE + (BigInt(hash32(owner, n, 0x1157) & 0xfffff) << 17n) + BigInt((owner << 4) | n));
}

/** The owner and number a list id names, if it is one of ours. */
export function decodeListId(id: string): { owner: number; n: number } | undefined {
  if (!/^\d{19}$/.test(id)) return undefined;
  const offset = BigInt(id) - BASE;
  if (offset < 0n) return undefined;
  const low = Number(offset & 0x1ffffn);
  const key = { owner: low >> 4, n: low & 15 };
  return listId(key.owner, key.n) === id ? key : undefined;
}

/** Lists `owner` owns, private ones included. */
export function listsOf(world: World, owner: number): WorldList[] {
  const { pop, seed } = world;
  if (owner < pop.anchorCount) {
    const handle = pop.usernames[owner];
    return FIXTURE_LISTS.filter((list) => list.owner === handle).map((spec, n) => {
      const r = createRandom(hash32(seed, owner, n, 0x115));
      const named = spec.members.map((member) => pop.byUsername.get(member)!);
      return {
        id: listId(owner, n),
        owner,
        name: spec.name,
        description: spec.description,
        private: spec.private,
        members: sample(r, world, topicIndex(spec.topic), owner, spec.topicMembers, named),
        createdMs: Date.UTC(2023, 4, 2 + n * 40),
        followerCount: spec.private ? 0 : 1_240,
      };
    });
  }
  const r = createRandom(hash32(seed, owner, 0x116));
  const count = drawListCount(world, owner, r);
  const lists: WorldList[] = [];
  for (let n = 0; n < count; n++) {
    const topic = n === 0 || r.chance(0.5) ? pop.topic[owner] : pop.topic2[owner];
    const size = Math.min(300, 8 + Math.floor(10 * (1 - r.next()) ** -0.8));
    const isPrivate = r.chance(0.3);
    const created = pop.createdMs[owner] + r.next() * Math.max(DAY_MS, Date.UTC(2025, 6, 1) - pop.createdMs[owner]);
    lists.push({
      id: listId(owner, n),
      owner,
      name: r.pick(TOPICS[topic].listNames),
      description: r.chance(0.5) ? "" : `${TOPICS[topic].subjects[r.int(TOPICS[topic].subjects.length)]} people worth reading.`,
      private: isPrivate,
      members: sample(r, world, topic, owner, size, []),
      createdMs: Math.floor(created),
      followerCount: isPrivate ? 0 : Math.floor(size * r.range(0.1, 3)),
    });
  }
  return lists;
}

/** The first draw of an owner's list generator: how many lists (listsOf continues from the same stream). */
function drawListCount(world: World, owner: number, r: Random): number {
  return r.chance(0.12 + (world.pop.followers0[owner] > 1000 ? 0.2 : 0)) ? 1 + r.int(3) : 0;
}

function sample(r: Random, world: World, topic: number, owner: number, count: number, first: number[]): Int32Array {
  const pool = world.pop.byTopic[topic];
  const chosen = new Set<number>(first);
  const target = Math.min(first.length + count, first.length + pool.length);
  for (let tries = 0; chosen.size < target && tries < count * 6; tries++) {
    const member = pool[r.int(pool.length)];
    if (member !== owner) chosen.add(member);
  }
  return Int32Array.from(chosen);
}
