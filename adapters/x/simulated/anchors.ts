/**
 * The people the world is built around: the demo accounts of `core/demo/demo_world.ts`
 * (same ids and handles; keep the two in step) and a few public figures the demo's
 * `x.*` fixtures point at. They take the first user indices, so their ids, their
 * fixture posts and their lists are the same for every seed.
 */
import type { PremiumTier } from "../../../core/network/network_records.ts";

/** A hand-written account. */
export interface AnchorAccount {
  id: string;
  username: string;
  name: string;
  description: string;
  location: string | null;
  url: string | null;
  /** Topic keys (see vocabulary_topics.ts): main and second. */
  topics: [string, string];
  /** Followers on 2026-01-01 and yearly growth. */
  followers: number;
  growth: number;
  following: number;
  /** Original posts a day. */
  activity: number;
  threadRate: number;
  premium: PremiumTier;
  protected?: boolean;
  createdAt: string;
  /** How readily they answer others (1 = average). */
  propensity: number;
  /** Share of replies on their posts they answer. */
  replyBackRate: number;
  /** Anchors always in this account's engaged audience. */
  audience?: string[];
}

/** A post placed by hand (the fixtures' posts). */
export interface FixturePost {
  author: string;
  /** When it was posted; fixed, so its id never changes. */
  at: string;
  text: string;
  /** Engagement multiple over the author's typical post. */
  virality: number;
  topic: string;
}

/** A list placed by hand. */
export interface FixtureList {
  owner: string;
  name: string;
  description: string;
  private: boolean;
  /** Anchor handles first, then this many people of the topic. */
  members: string[];
  topicMembers: number;
  topic: string;
}

const account = (fields: Omit<AnchorAccount, "growth" | "propensity" | "replyBackRate"> & Partial<AnchorAccount>): AnchorAccount => ({
  growth: 0.2,
  propensity: 1,
  replyBackRate: 0.15,
  ...fields,
});

/** The anchor accounts, in user-index order. */
export const ANCHOR_ACCOUNTS: readonly AnchorAccount[] = [
  account({
    id: "1600000000000000001",
    username: "ada_builds",
    name: "Ada Builds",
    description: "Building small, sharp devtools in public. TypeScript, Postgres and the occasional startup lesson. Shipping weekly.",
    location: "Lisbon, Portugal",
    url: "https://ada.builds.dev",
    topics: ["devtools", "startups"],
    followers: 4800,
    growth: 0.35,
    following: 612,
    activity: 1.1,
    threadRate: 0.18,
    premium: "premium",
    createdAt: "2019-04-12T09:30:00.000Z",
    propensity: 1.8,
    replyBackRate: 0.35,
    audience: ["ada_labs", "dana_writes", "eli_ships", "bo_tests"],
  }),
  account({
    id: "1600000000000000002",
    username: "ada_labs",
    name: "Ada Labs",
    description: "Experiments from @ada_builds. Prototypes, demos and half-finished ideas about AI tooling.",
    location: "Lisbon, Portugal",
    url: null,
    topics: ["ai", "devtools"],
    followers: 820,
    following: 95,
    activity: 0.35,
    threadRate: 0.1,
    premium: "none",
    createdAt: "2023-02-01T10:00:00.000Z",
    audience: ["ada_builds"],
  }),
  account({
    id: "1600000000000000011",
    username: "dana_writes",
    name: "Dana Writes",
    description: "Writer and ghostwriter. I help founders turn what they know into posts people finish reading.",
    location: "Brooklyn",
    url: "https://danawrites.substack.com",
    topics: ["writing", "marketing"],
    followers: 12400,
    following: 890,
    activity: 1.4,
    threadRate: 0.22,
    premium: "premium",
    createdAt: "2016-08-20T14:00:00.000Z",
    propensity: 1.6,
    replyBackRate: 0.25,
    audience: ["ada_builds", "dana_daily"],
  }),
  account({
    id: "1600000000000000012",
    username: "dana_daily",
    name: "Dana Daily",
    description: "One writing prompt a day, from @dana_writes.",
    location: null,
    url: null,
    topics: ["writing", "productivity"],
    followers: 2100,
    following: 12,
    activity: 1,
    threadRate: 0.02,
    premium: "none",
    createdAt: "2021-01-04T08:00:00.000Z",
  }),
  account({
    id: "1600000000000000021",
    username: "eli_ships",
    name: "Eli Ships",
    description: "Solo founder. Shipping a SaaS a quarter until one sticks. Notes on pricing, churn and distribution.",
    location: "Austin, TX",
    url: "https://eliships.com",
    topics: ["startups", "devtools"],
    followers: 3300,
    following: 410,
    activity: 0.9,
    threadRate: 0.12,
    premium: "basic",
    createdAt: "2018-03-03T16:00:00.000Z",
    audience: ["ada_builds"],
  }),
  account({
    id: "1600000000000000031",
    username: "bo_tests",
    name: "Bo Tests",
    description: "QA lead. Breaking things so you do not have to. Testing, CI and flaky builds.",
    location: "Berlin, Germany",
    url: null,
    topics: ["devtools", "productivity"],
    followers: 640,
    following: 300,
    activity: 0.4,
    threadRate: 0.05,
    premium: "none",
    createdAt: "2020-06-15T12:00:00.000Z",
  }),
  account({
    id: "1600000000000000041",
    username: "cy_private",
    name: "Cy Private",
    description: "Productivity systems, quietly. Notes on deep work and calendars.",
    location: "Toronto, Canada",
    url: null,
    topics: ["productivity", "writing"],
    followers: 1500,
    following: 220,
    activity: 0.6,
    threadRate: 0.08,
    premium: "none",
    createdAt: "2017-09-09T09:00:00.000Z",
  }),
  account({
    id: "1600000000000000051",
    username: "lee_lapsed",
    name: "Lee Lapsed",
    description: "Growth marketer between things. Cold email, landing pages, experiments.",
    location: "London, England",
    url: null,
    topics: ["marketing", "startups"],
    followers: 900,
    following: 700,
    activity: 0.3,
    threadRate: 0.05,
    premium: "none",
    createdAt: "2015-05-05T10:00:00.000Z",
  }),
  account({
    id: "1600000000000000061",
    username: "tia_trial",
    name: "Tia Trial",
    description: "Running coach trying out new tools. Marathon plans and recovery days.",
    location: "Melbourne",
    url: null,
    topics: ["fitness", "productivity"],
    followers: 300,
    following: 180,
    activity: 0.5,
    threadRate: 0.05,
    premium: "none",
    createdAt: "2022-07-07T07:00:00.000Z",
  }),
  account({
    id: "1600000000000000081",
    username: "nia_spent",
    name: "Nia Spent",
    description: "Product designer. Design systems and onboarding flows.",
    location: "Nairobi, Kenya",
    url: null,
    topics: ["design", "startups"],
    followers: 1200,
    following: 340,
    activity: 0.5,
    threadRate: 0.06,
    premium: "none",
    createdAt: "2019-11-11T11:00:00.000Z",
  }),
  account({
    id: "1600000000000000071",
    username: "olu_new",
    name: "Olu New",
    description: "New here. Learning to build startups in public.",
    location: "Lagos, Nigeria",
    url: null,
    topics: ["startups", "ai"],
    followers: 45,
    growth: 1.5,
    following: 160,
    activity: 0.2,
    threadRate: 0,
    premium: "none",
    createdAt: "2025-09-01T09:00:00.000Z",
  }),
  account({
    id: "29384756",
    username: "kai_on_ai",
    name: "Kai Nakamura",
    description: "Building AI agents that do real work. Cofounder @Cobalt AI. Writing about evals, inference and what actually ships.",
    location: "San Francisco, CA",
    url: "https://kainakamura.ai",
    topics: ["ai", "startups"],
    followers: 2_410_000,
    growth: 0.12,
    following: 812,
    activity: 3.2,
    threadRate: 0.1,
    premium: "premium_plus",
    createdAt: "2009-03-14T18:20:00.000Z",
    replyBackRate: 0.004,
    audience: ["ada_builds", "ada_labs", "nina_designs", "eli_ships"],
  }),
  account({
    id: "402918376",
    username: "nina_designs",
    name: "Nina Okafor",
    description: "Design lead. Design systems, onboarding and the decisions in between. Newsletter: 30k designers.",
    location: "London, England",
    url: "https://ninaokafor.design",
    topics: ["design", "writing"],
    followers: 18_600,
    following: 530,
    activity: 1.6,
    threadRate: 0.15,
    premium: "premium",
    createdAt: "2011-11-02T10:15:00.000Z",
    replyBackRate: 0.2,
    audience: ["ada_builds", "dana_writes", "nia_spent"],
  }),
  account({
    id: "1188776655443322110",
    username: "quiet_vault",
    name: "Quiet Vault",
    description: "Private notebook.",
    location: null,
    url: null,
    topics: ["productivity", "writing"],
    followers: 210,
    following: 150,
    activity: 0.5,
    threadRate: 0,
    premium: "none",
    protected: true,
    createdAt: "2019-10-10T10:10:00.000Z",
  }),
];

/** Hand-placed posts; each takes slot 31 of its author's day. */
export const FIXTURE_POSTS: readonly FixturePost[] = [
  {
    author: "nina_designs",
    at: "2025-03-04T15:04:00.000Z",
    text: "Design systems are not a component library. They're a set of decisions your team never has to make twice.\n\nWhich decision would you write down first?",
    virality: 6,
    topic: "design",
  },
  {
    author: "kai_on_ai",
    at: "2025-02-11T17:30:00.000Z",
    text: "We're open-sourcing our agent eval harness today: 2,000+ tasks, real tools, no synthetic fluff.\n\nWhat should we add next? I read every reply.",
    virality: 4,
    topic: "ai",
  },
];

/** Hand-placed lists; each is list 0 of its owner. */
export const FIXTURE_LISTS: readonly FixtureList[] = [
  {
    owner: "kai_on_ai",
    name: "AI builders",
    description: "People shipping real things with AI.",
    private: false,
    members: ["ada_builds", "ada_labs", "nina_designs"],
    topicMembers: 72,
    topic: "ai",
  },
  {
    owner: "nina_designs",
    name: "Inner circle",
    description: "Private.",
    private: true,
    members: ["dana_writes"],
    topicMembers: 24,
    topic: "design",
  },
  {
    owner: "ada_builds",
    name: "Devtools people",
    description: "Folks building tools for developers.",
    private: false,
    members: ["bo_tests", "eli_ships"],
    topicMembers: 40,
    topic: "devtools",
  },
];

/** A well-formed handle that no one in the world has (the demo's `x.unknown_handle`). */
export const UNKNOWN_HANDLE = "nobody_home_404";
