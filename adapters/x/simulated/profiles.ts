/** Profiles of the world's people as the port returns them, written when read. */
import type { NetworkUser } from "../../../core/network/network_records.ts";
import { ANCHOR_ACCOUNTS } from "./anchors.ts";
import { hash32 } from "./hash.ts";
import { createRandom } from "./prng.ts";
import { followersAt, premiumOf } from "./population.ts";
import { isoTime } from "./time_units.ts";
import { DAY_MS } from "../../../core/time/durations.ts";
import { BIO_FLAIR, COMPANIES } from "./vocabulary_people.ts";
import { TOPICS } from "./vocabulary_topics.ts";
import type { World } from "./world.ts";

/** The profile of user `i` as of `now` (follower and post counts move with the clock). */
export function profileOf(world: World, i: number, now: number): NetworkUser {
  const { pop } = world;
  const anchor = i < pop.anchorCount ? ANCHOR_ACCOUNTS[i] : undefined;
  const username = pop.usernames[i];
  const written = anchor ? { description: anchor.description, url: anchor.url } : bioOf(world, i);
  const premium = premiumOf(pop, i);
  const days = Math.max(0, (now - pop.createdMs[i]) / DAY_MS);
  const followers = followersAt(pop, i, now);
  return {
    id: pop.ids[i],
    username,
    name: pop.names[i],
    description: written.description,
    location: pop.locations[i],
    url: written.url,
    avatarUrl: `https://x.com/${username}/photo`,
    createdAt: isoTime(pop.createdMs[i]),
    protected: pop.isProtected[i] === 1,
    verified: premium !== "none",
    verifiedType: premium === "none" ? "none" : "blue",
    premium,
    followersCount: followers,
    followingCount: Math.max(pop.following[i], world.reads(i).length),
    // Lifetime posts: originals plus about as many replies and reposts, less in the early years.
    postCount: Math.round(pop.activity[i] * 1.9 * days * 0.7),
    // Lists that include them (X: listed_count), which grows with audience.
    listedCount: Math.round(followers ** 0.6 / 8),
    pinnedPostId: null,
    canDm: pop.canDm[i] === 1,
  };
}

function bioOf(world: World, i: number): { description: string; url: string | null } {
  const { pop } = world;
  const r = createRandom(hash32(world.seed, i, 0xb10));
  const topic = TOPICS[pop.topic[i]];
  const second = TOPICS[pop.topic2[i]];
  const role = r.pick(topic.roles);
  const company = r.pick(COMPANIES);
  const head = /Founder|CEO/.test(role) ? `${role} @${company.replace(/\s+/g, "")}.` : r.chance(0.3) ? `${role} at ${company}.` : `${role}.`;
  const s1 = r.pick(topic.subjects);
  const s2 = r.pick(topic.subjects.filter((subject) => subject !== s1));
  const middle = r.pick([
    `Writing about ${s1} and ${s2}.`,
    `Into ${s1}, ${s2} and ${r.pick(second.subjects)}.`,
    `Thoughts on ${s1}.`,
    `Helping teams with ${s1}.`,
    `${s1} · ${r.pick(second.subjects)}`,
  ]);
  const flair = r.chance(0.6) ? ` ${r.pick(BIO_FLAIR)}` : "";
  const handle = pop.usernames[i].toLowerCase();
  const url = r.chance(0.35)
    ? r.pick([`https://${handle}.com`, `https://${handle}.dev`, `https://${handle}.substack.com`, `https://linktr.ee/${handle}`])
    : null;
  return { description: `${head} ${middle}${flair}`, url };
}
