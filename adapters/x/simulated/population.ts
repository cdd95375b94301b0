/**
 * The world's people: the anchors, then generated users up to the world's size. Only
 * the numbers and names every query needs are generated up front (typed arrays, a few
 * ms for thousands of people); bios and links are written when a profile is read.
 * Followers follow a power law (Pareto, alpha 0.95: median about 50, a few 100k+).
 */
import type { PremiumTier } from "../../../core/network/network_records.ts";
import { ANCHOR_ACCOUNTS, UNKNOWN_HANDLE } from "./anchors.ts";
import { hash32 } from "./hash.ts";
import { createRandom, type Random } from "./prng.ts";
import { DAY_MS } from "../../../core/time/durations.ts";
import { FIRST_NAMES, LAST_NAMES, LOCATIONS } from "./vocabulary_people.ts";
import { TOPICS } from "./vocabulary_topics.ts";

/** Languages people post in, and how common each is. */
export const LANGS = ["en", "es", "pt", "fr", "de", "ja"] as const;
const LANG_SHARE = [0.84, 0.05, 0.04, 0.025, 0.025, 0.02];
const LANG_PLACES: Record<string, string[]> = {
  es: ["Madrid, España", "Barcelona", "Mexico City", "Buenos Aires", "Bogotá, Colombia"],
  pt: ["São Paulo, Brasil", "Lisbon, Portugal"],
  fr: ["Paris, France"],
  de: ["Berlin, Germany", "Munich", "Zürich"],
  ja: ["Tokyo, Japan", "Osaka"],
};
const TOPIC_SHARE = [0.16, 0.14, 0.12, 0.1, 0.1, 0.08, 0.08, 0.08, 0.08, 0.06];
const HANDLE_SUFFIX: Record<string, string[]> = {
  ai: ["ai", "ml", "gpt"],
  startups: ["builds", "ships", "founder"],
  marketing: ["growth", "grows", "copy"],
  design: ["designs", "ux", "draws"],
  crypto: ["eth", "btc", "onchain"],
  politics: ["policy", "politics"],
  fitness: ["runs", "lifts", "fit"],
  productivity: ["focus", "notes"],
  writing: ["writes", "words"],
  devtools: ["codes", "dev", "hacks"],
};
const FIRST_CREATED = Date.UTC(2008, 5, 1);
const LAST_CREATED = Date.UTC(2025, 6, 1);
/** Follower counts are stated for this instant and grow from it. */
const FOLLOWERS_REFERENCE = Date.UTC(2026, 0, 1);
const PREMIUM: PremiumTier[] = ["none", "basic", "premium", "premium_plus"];

/** Everyone in the world, as parallel arrays indexed by user index. */
export interface Population {
  size: number;
  anchorCount: number;
  ids: string[];
  usernames: string[];
  names: string[];
  locations: (string | null)[];
  /** Lower-case handle to index, and id to index. */
  byUsername: Map<string, number>;
  byId: Map<string, number>;
  topic: Uint8Array;
  topic2: Uint8Array;
  /** Index into LANGS. */
  lang: Uint8Array;
  followers0: Float64Array;
  growth: Float32Array;
  following: Int32Array;
  activity: Float32Array;
  threadRate: Float32Array;
  mediaRate: Float32Array;
  propensity: Float32Array;
  replyBackRate: Float32Array;
  createdMs: Float64Array;
  /** Hours from UTC of the place they post from. */
  utcOffset: Float32Array;
  /** Index into PremiumTier order none, basic, premium, premium_plus. */
  premium: Uint8Array;
  isProtected: Uint8Array;
  canDm: Uint8Array;
  /** Public (unprotected) people, and those per topic (main or second). */
  eligible: Int32Array;
  byTopic: Int32Array[];
}

/** Builds the population of `size` people (at least the anchors) for `seed`. */
export function createPopulation(seed: number, size: number): Population {
  const n = Math.max(size, ANCHOR_ACCOUNTS.length);
  const pop: Population = {
    size: n,
    anchorCount: ANCHOR_ACCOUNTS.length,
    ids: new Array(n),
    usernames: new Array(n),
    names: new Array(n),
    locations: new Array(n),
    byUsername: new Map(),
    byId: new Map(),
    topic: new Uint8Array(n),
    topic2: new Uint8Array(n),
    lang: new Uint8Array(n),
    followers0: new Float64Array(n),
    growth: new Float32Array(n),
    following: new Int32Array(n),
    activity: new Float32Array(n),
    threadRate: new Float32Array(n),
    mediaRate: new Float32Array(n),
    propensity: new Float32Array(n),
    replyBackRate: new Float32Array(n),
    createdMs: new Float64Array(n),
    utcOffset: new Float32Array(n),
    premium: new Uint8Array(n),
    isProtected: new Uint8Array(n),
    canDm: new Uint8Array(n),
    eligible: new Int32Array(0),
    byTopic: [],
  };
  pop.byUsername.set(UNKNOWN_HANDLE, -1);
  ANCHOR_ACCOUNTS.forEach((anchor, i) => {
    const place = LOCATIONS.find(([name]) => name === anchor.location);
    register(pop, i, anchor.id, anchor.username, anchor.name);
    pop.locations[i] = anchor.location;
    pop.topic[i] = topicIndex(anchor.topics[0]);
    pop.topic2[i] = topicIndex(anchor.topics[1]);
    pop.followers0[i] = anchor.followers;
    pop.growth[i] = anchor.growth;
    pop.following[i] = anchor.following;
    pop.activity[i] = anchor.activity;
    pop.threadRate[i] = anchor.threadRate;
    pop.mediaRate[i] = 0.25;
    pop.propensity[i] = anchor.propensity;
    pop.replyBackRate[i] = anchor.replyBackRate;
    pop.createdMs[i] = Date.parse(anchor.createdAt);
    pop.utcOffset[i] = place ? place[1] : 0;
    pop.premium[i] = PREMIUM.indexOf(anchor.premium);
    pop.isProtected[i] = anchor.protected ? 1 : 0;
    pop.canDm[i] = 1;
  });
  for (let i = ANCHOR_ACCOUNTS.length; i < n; i++) generatePerson(pop, seed, i);
  pop.byUsername.delete(UNKNOWN_HANDLE);
  const eligible: number[] = [];
  const byTopic: number[][] = TOPICS.map(() => []);
  for (let i = 0; i < n; i++) {
    if (pop.isProtected[i]) continue;
    eligible.push(i);
    byTopic[pop.topic[i]].push(i);
    if (pop.topic2[i] !== pop.topic[i]) byTopic[pop.topic2[i]].push(i);
  }
  pop.eligible = Int32Array.from(eligible);
  pop.byTopic = byTopic.map((list) => Int32Array.from(list));
  return pop;
}

/** Followers of user `i` at `ms`: the stated count, ramped over the account's first two years, grown yearly. */
export function followersAt(pop: Population, i: number, ms: number): number {
  const age = ms - pop.createdMs[i];
  if (age <= 0) return 0;
  const ramp = Math.min(1, Math.sqrt(age / (730 * DAY_MS)));
  return Math.round(pop.followers0[i] * ramp * (1 + pop.growth[i]) ** ((ms - FOLLOWERS_REFERENCE) / (365 * DAY_MS)));
}

/** The premium tier of user `i`. */
export function premiumOf(pop: Population, i: number): PremiumTier {
  return PREMIUM[pop.premium[i]];
}

/** Index of a topic key. */
export function topicIndex(key: string): number {
  const index = TOPICS.findIndex((topic) => topic.key === key);
  if (index < 0) throw new Error(`Unknown topic "${key}"`);
  return index;
}

function register(pop: Population, i: number, id: string, username: string, name: string): void {
  pop.ids[i] = id;
  pop.usernames[i] = username;
  pop.names[i] = name;
  pop.byId.set(id, i);
  pop.byUsername.set(username.toLowerCase(), i);
}

function generatePerson(pop: Population, seed: number, i: number): void {
  const r = createRandom(hash32(seed, i, 0x5eed));
  const topic = weighted(r, TOPIC_SHARE);
  const topic2 = (topic + 1 + r.int(TOPICS.length - 1)) % TOPICS.length;
  const first = r.pick(FIRST_NAMES);
  const last = r.pick(LAST_NAMES);
  const followers = Math.min(900_000, Math.floor(25 * (1 - r.next()) ** (-1 / 0.95)));
  const lang = weighted(r, LANG_SHARE);
  const created = FIRST_CREATED + r.next() ** (1 + Math.log10(followers + 1) / 3) * (LAST_CREATED - FIRST_CREATED);
  const place = placeFor(r, LANGS[lang]);
  const topicKey = TOPICS[topic].key;
  pop.topic[i] = topic;
  pop.topic2[i] = topic2;
  pop.lang[i] = lang;
  pop.followers0[i] = followers;
  pop.growth[i] = r.range(-0.05, 0.6);
  pop.following[i] = Math.min(7500, Math.max(5, Math.round(r.logNormal(380, 0.9))));
  pop.activity[i] = Math.min(9, Math.max(0.02, r.logNormal(0.3, 0.95) * (1 + 0.25 * Math.log10(followers + 1))));
  pop.threadRate[i] = ["writing", "startups", "marketing", "ai"].includes(topicKey) ? r.range(0.03, 0.15) : r.range(0, 0.06);
  pop.mediaRate[i] = r.range(0.08, 0.35);
  // Mean 1 (a log-normal's mean is its median times e^(sigma^2/2)): some people answer everything.
  pop.propensity[i] = r.logNormal(1, 0.7) / Math.exp(0.245);
  // Large accounts answer a smaller share of their (many more) replies.
  pop.replyBackRate[i] = r.range(0.03, 0.35) * Math.min(1, Math.sqrt(2000 / Math.max(followers, 1)));
  pop.createdMs[i] = Math.floor(created);
  pop.locations[i] = place[0];
  pop.utcOffset[i] = place[1];
  const premiumShare = 0.05 + 0.3 * Math.min(1, Math.max(0, (Math.log10(followers) - 2) / 3));
  pop.premium[i] = r.chance(premiumShare) ? (r.chance(0.15) ? 3 : r.chance(0.3) ? 1 : 2) : 0;
  pop.isProtected[i] = r.chance(0.03) ? 1 : 0;
  pop.canDm[i] = r.chance(0.65) ? 1 : 0;
  const username = uniqueHandle(pop, r, first, last, topicKey);
  register(pop, i, uniqueId(pop, seed, i, created), username, displayName(r, first, last, TOPICS[topic].subjects));
}

function weighted(r: Random, shares: readonly number[]): number {
  let x = r.next() * shares.reduce((a, b) => a + b, 0);
  for (let i = 0; i < shares.length; i++) {
    x -= shares[i];
    if (x < 0) return i;
  }
  return shares.length - 1;
}

function placeFor(r: Random, lang: string): readonly [string | null, number] {
  const local = LANG_PLACES[lang];
  if (local && r.chance(0.8)) {
    const name = r.pick(local);
    return LOCATIONS.find(([place]) => place === name) ?? [name, 0];
  }
  if (r.chance(0.25)) return [null, r.pick([-8, -5, 0, 1, 5.5, 8])];
  return r.pick(LOCATIONS);
}

function uniqueHandle(pop: Population, r: Random, first: string, last: string, topic: string): string {
  const f = first.toLowerCase();
  const l = last.toLowerCase();
  const suffix = r.pick(HANDLE_SUFFIX[topic]);
  const forms = [
    `${f}${l}`,
    `${f}_${l}`,
    `${f}${l[0]}`,
    `${f}_${suffix}`,
    `${f}${suffix}`,
    `the${f}${l[0]}`,
    `${f[0]}${l}`,
    `${first}${last}`,
    `${f}${l}${10 + r.int(90)}`,
  ];
  let handle = r.pick(forms).slice(0, 15);
  // Up to four trailing digits: five or more would read as a lurker's handle (lurkers.ts).
  while (pop.byUsername.has(handle.toLowerCase())) handle = `${handle.slice(0, 11)}${r.int(10_000)}`;
  return handle;
}

function uniqueId(pop: Population, seed: number, i: number, created: number): string {
  // Accounts from before 2013 have short ids; later ones are snowflakes of their creation time.
  let id =
    created < Date.UTC(2013, 0, 1)
      ? String(10_000 + (hash32(seed, i, 91) % 1_200_000_000))
      : String((BigInt(Math.floor(created) - 1288834974657) << 22n) | BigInt(hash32(seed, i, 92) & 0x3fffff));
  while (pop.byId.has(id)) id = String(BigInt(id) + 1n);
  return id;
}

function displayName(r: Random, first: string, last: string, subjects: readonly string[]): string {
  const x = r.next();
  if (x < 0.6) return `${first} ${last}`;
  if (x < 0.7) return first;
  if (x < 0.8) return `${first} ${last} ${r.pick(["🚀", "✨", "📈", "🌱", "⚡️", "🏃"])}`;
  if (x < 0.9) return `${first} | ${r.pick(subjects)}`;
  if (x < 0.95) return `${first} ${last[0]}.`;
  return first.toLowerCase();
}
