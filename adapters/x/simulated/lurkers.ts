/**
 * Quiet accounts: the long tail of followers and reposters that never post. A
 * 2.4M-follower account's followers cannot all be generated people, so each follower
 * past the engaged audience is a lurker picked by a per-account permutation of a
 * 16.7M index space; a lurker's profile derives from its index, and its handle and id
 * encode the index back, so any lurker can be looked up.
 */
import type { NetworkUser } from "../../../core/network/network_records.ts";
import { hash32, unitHash } from "./hash.ts";
import { FIRST_NAMES, LAST_NAMES } from "./vocabulary_people.ts";
import { TOPICS } from "./vocabulary_topics.ts";
import { isoTime } from "./time_units.ts";

/** How many lurkers there are (a prime, so `(a * i + b) mod LURKER_SPACE` is a permutation). */
export const LURKER_SPACE = 16_777_213;

const ID_BASE = 1_300_000_000_000_000_000n;
const ID_STRIDE = 1_000_003;
const HANDLE = /^([a-z]{1,7})(\d{6,8})$/;
const FIRST_CREATED = Date.UTC(2012, 0, 1);
const LAST_CREATED = Date.UTC(2025, 6, 1);

/** The `position`-th lurker of a sequence keyed by (a, b): distinct for positions below LURKER_SPACE. */
export function lurkerAt(seed: number, a: number, b: number, position: number): number {
  const step = 1 + (hash32(seed, a, b, 1) % (LURKER_SPACE - 1));
  const offset = hash32(seed, a, b, 2) % LURKER_SPACE;
  return Number((BigInt(step) * BigInt(position) + BigInt(offset)) % BigInt(LURKER_SPACE));
}

/** A lurker's id. */
export function lurkerId(index: number): string {
  return String(ID_BASE + BigInt(index) * BigInt(ID_STRIDE) + BigInt(hash32(index, 77) % ID_STRIDE));
}

/** The lurker an id names, if it is one. */
export function lurkerIndexFromId(id: string): number | undefined {
  if (!/^\d{19}$/.test(id)) return undefined;
  const offset = BigInt(id) - ID_BASE;
  if (offset < 0n) return undefined;
  const index = Number(offset / BigInt(ID_STRIDE));
  return index < LURKER_SPACE && lurkerId(index) === id ? index : undefined;
}

/** A lurker's handle: a first name and the index, as many real handles look. */
export function lurkerUsername(seed: number, index: number): string {
  return `${FIRST_NAMES[hash32(seed, index, 31) % FIRST_NAMES.length].toLowerCase().slice(0, 7)}${100000 + index}`;
}

/** The lurker a handle names, if it is one. */
export function lurkerIndexFromUsername(seed: number, username: string): number | undefined {
  const match = HANDLE.exec(username.toLowerCase());
  if (!match) return undefined;
  const index = Number(match[2]) - 100000;
  return index >= 0 && index < LURKER_SPACE && lurkerUsername(seed, index) === username.toLowerCase() ? index : undefined;
}

/** A lurker's profile. */
export function lurkerProfile(seed: number, index: number): NetworkUser {
  const first = FIRST_NAMES[hash32(seed, index, 31) % FIRST_NAMES.length];
  const last = LAST_NAMES[hash32(seed, index, 32) % LAST_NAMES.length];
  const topic = TOPICS[hash32(seed, index, 33) % TOPICS.length];
  const username = lurkerUsername(seed, index);
  const created = FIRST_CREATED + Math.floor(unitHash(seed, index, 34) * (LAST_CREATED - FIRST_CREATED));
  return {
    id: lurkerId(index),
    username,
    name: unitHash(seed, index, 35) < 0.7 ? `${first} ${last}` : first,
    description: unitHash(seed, index, 36) < 0.5 ? "" : `${topic.roles[hash32(seed, index, 37) % topic.roles.length]}.`,
    location: null,
    url: null,
    avatarUrl: `https://x.com/${username}/photo`,
    createdAt: isoTime(created),
    protected: false,
    verified: false,
    verifiedType: "none",
    premium: "none",
    followersCount: hash32(seed, index, 38) % 80,
    followingCount: 30 + (hash32(seed, index, 39) % 570),
    postCount: 0,
    listedCount: 0,
    pinnedPostId: null,
    canDm: unitHash(seed, index, 40) < 0.4,
  };
}
