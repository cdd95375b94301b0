/**
 * The demo world (shared/spec/demo_world.md): users, accounts, keys and tags that
 * black-box tests, examples and newcomers rely on. Running it again against the same
 * database reuses the people and accounts and issues fresh keys (a key is shown once);
 * a key of the same name is rotated, so re-runs never pile up active keys.
 */
import type { Sql } from "../db/sql.ts";
import { createContextInner, type Services } from "../context.ts";
import type { KeyCache } from "../ports/key_cache.ts";
import { chargeCredits, creditState } from "../credits/credits.ts";
import { planById } from "../plans/plans.ts";
import { addProductsIn } from "../account_context/products.ts";
import type { NetworkDemoFixtures } from "../network/network_records.ts";
import { createKey, revokeKey, rotateKey, type IssuedKey } from "../auth/keys.ts";
import { keysOfUser } from "../auth/keys_queries.ts";
import { ensureDemoImage } from "./demo_media.ts";
import { ensureDemoArticles } from "./demo_articles.ts";
import { ensureDemoWorkers } from "./demo_workers.ts";
import { ensureDemoPlugTemplates } from "./demo_plug_templates.ts";
import { ensureDemoContent } from "./demo_content.ts";
import { ensureDemoContactLists } from "./demo_contact_lists.ts";
import { ensureDemoSignals } from "./demo_signals.ts";
import { type DemoDatasets, ensureDemoDatasets } from "./demo_datasets.ts";
import { type DemoEngage, ensureDemoEngage } from "./demo_engage.ts";
import { ensureDemoDm } from "./demo_dm.ts";
import { ensureDemoWebhooks } from "./demo_webhooks.ts";
import { ensureDemoPosts, useUpPostQuota, type DemoScheduledPosts } from "./demo_scheduling.ts";
import { type AccountInput, createUser, linkAccount, shareAccount, type UserInput, userByEmail } from "../accounts/users.ts";
import { anyUser, billingAnchorOf, ensureDemoTag, setPostQuota } from "./demo_queries.ts";

/** The demo world as written by `--demo-file` and `demo --json` (without the URLs). */
export interface DemoWorld {
  accounts: Record<"main" | "linked" | "shared" | "editor_shared" | "linked_shared" | "throttled" | "other_user", string>;
  keys: Record<"write" | "read" | "revoked" | "lapsed" | "throttled" | "other_user" | "trial" | "not_onboarded" | "no_credits" | "no_post_quota", string>;
  handles: { main: string };
  tags: number[];
  products: number[];
  scheduled_posts: DemoScheduledPosts;
  /** `image_key`: an uploaded, unattached PNG of A's (absent when no media store is configured). */
  media: { image_key?: string };
  articles: { draft: string; scheduled: string; published: string };
  workers: { formats: number; niche: number; fresh: number; foreign: number };
  suggestions: { to_review: number[] };
  /** Plug templates of A's workspace (for `auto_plug`). */
  plug_templates: string[];
  /** A's list "Podcast guests" with members (a note on the first) and its Followers system list. */
  contact_lists: { user: number; system: number };
  /** A's signal agent "Churn founders": a keyword and a profile watch, and leads from one run (deposited and not). */
  signals: { agent: number };
  /** A's datasets: `research_ready` (rows with briefs and verbatim hooks), `collecting`, `failed`, `not_research` (a ready collection). */
  datasets: DemoDatasets;
  /** A's Engage feeds: a keywords feed and a list feed on the network's public demo list. */
  engage: DemoEngage;
  /** A's DM campaign with sent, pending and scheduled (placed a day later) messages. */
  dm: { campaign?: number };
  /** A's webhook endpoint "Demo receiver" (disabled, on a reserved host) and its queued ping delivery. */
  webhooks: { endpoint: number; delivery: number };
  /** Fixtures of the social network (`x.*`), when the network has them. */
  x?: NetworkDemoFixtures;
}

interface DemoPerson {
  user: UserInput & { email: string };
  main: AccountInput & { id: string };
  linked?: AccountInput & { id: string };
}

const people = {
  ada: {
    user: { name: "Ada Demo", email: "ada@demo.threadline.local", plan: "ultra" },
    main: { id: "1600000000000000001", username: "ada_builds", name: "Ada Builds", xPremium: true },
    linked: { id: "1600000000000000002", username: "ada_labs", name: "Ada Labs" },
  },
  dana: {
    user: { name: "Dana Demo", email: "dana@demo.threadline.local", plan: "pro" },
    main: { id: "1600000000000000011", username: "dana_writes", name: "Dana Writes" },
    linked: { id: "1600000000000000012", username: "dana_daily", name: "Dana Daily" },
  },
  eli: {
    user: { name: "Eli Demo", email: "eli@demo.threadline.local", plan: "pro" },
    main: { id: "1600000000000000021", username: "eli_ships", name: "Eli Ships" },
  },
  bo: {
    user: { name: "Bo Demo", email: "bo@demo.threadline.local", plan: "basic" },
    main: { id: "1600000000000000031", username: "bo_tests", name: "Bo Tests" },
  },
  cy: {
    user: { name: "Cy Demo", email: "cy@demo.threadline.local", plan: "pro" },
    main: { id: "1600000000000000041", username: "cy_private", name: "Cy Private" },
  },
  lee: {
    user: { name: "Lee Demo", email: "lee@demo.threadline.local", plan: "pro", subscriptionStatus: "lapsed" },
    main: { id: "1600000000000000051", username: "lee_lapsed", name: "Lee Lapsed" },
  },
  tia: {
    user: { name: "Tia Demo", email: "tia@demo.threadline.local", plan: "trial", subscriptionStatus: "trialing" },
    main: { id: "1600000000000000061", username: "tia_trial", name: "Tia Trial" },
  },
  nia: {
    user: { name: "Nia Demo", email: "nia@demo.threadline.local", plan: "pro" },
    main: { id: "1600000000000000081", username: "nia_spent", name: "Nia Spent" },
  },
  pia: {
    user: { name: "Pia Demo", email: "pia@demo.threadline.local", plan: "basic" },
    main: { id: "1600000000000000091", username: "pia_queued", name: "Pia Queued" },
  },
  olu: {
    user: { name: "Olu Demo", email: "olu@demo.threadline.local", plan: "pro", onboarded: false },
    main: { id: "1600000000000000071", username: "olu_new", name: "Olu New" },
  },
} satisfies Record<string, DemoPerson>;

/** The post quota of `keys.no_post_quota`'s user: small, and used up by queued posts. */
const DEMO_POST_QUOTA = 2;

/** Creates (or refreshes) the demo world and returns its ids and fresh keys; `content: false` skips syncing the demo accounts' content (suites that do not read it). */
export async function ensureDemoWorld(services: Services, seed: { content?: boolean } = {}): Promise<DemoWorld> {
  const { sql } = services;
  const options = { keyPrefix: services.settings.keyPrefix, keyCache: services.keyCache };
  const users: Record<string, number> = {};
  for (const [nickname, person] of Object.entries(people) as [string, DemoPerson][]) {
    users[nickname] = await ensurePerson(sql, person);
  }
  await shareAccount(sql, people.dana.main.id, users.ada, "viewer");
  await shareAccount(sql, people.eli.main.id, users.ada, "editor");
  const tags = await ensureTags(sql, people.ada.main.id, [
    ["launch", "rose"],
    ["evergreen", "emerald"],
  ]);
  await emptyCreditPool(services, users.nia, people.nia.main.id, people.nia.user.plan);
  const products = await sql.begin((tx) =>
    addProductsIn(tx, people.ada.main.id, [
      { url: "https://threadline.example/scheduler", name: "Threadline Scheduler", description: "Schedule threads and articles for X from scripts and agents" },
      { url: "https://threadline.example/audience", name: "Threadline Audience", description: "Find and keep the people who engage with your posts" },
    ]),
  );

  // Seeding writes data directly; the fault switches describe requests, not the seed.
  const seeding = { ...services, faults: new Set<never>() };
  const scheduledPosts = await ensureDemoPosts(seeding, people.ada.main.id);
  await setPostQuota(sql, users.pia, DEMO_POST_QUOTA);
  await useUpPostQuota(seeding, people.pia.main.id);
  const imageKey = await ensureDemoImage(services, people.ada.main.id);
  const articles = await ensureDemoArticles(seeding, people.ada.main.id);
  const { workers, suggestions } = await ensureDemoWorkers(services, { main: people.ada.main.id, otherUser: people.cy.main.id });
  const plugTemplates = await ensureDemoPlugTemplates(services, people.ada.main.id);
  const contactLists = await ensureDemoContactLists(services, people.ada.main.id);
  const signals = await ensureDemoSignals(seeding, people.ada.main.id);
  const datasets = await ensureDemoDatasets(seeding, { userId: users.ada, accountId: people.ada.main.id });
  const engage = await ensureDemoEngage(seeding, people.ada.main.id);
  const dm = await ensureDemoDm(seeding, people.ada.main.id);
  const webhooks = await ensureDemoWebhooks(seeding, users.ada, people.ada.main.id);
  // The year of synced content costs seconds; suites that do not read it leave it out.
  if (seed.content ?? true) await ensureDemoContent(services, [people.ada.main.id, people.ada.linked.id]);

  const key = (nickname: string, name: string, scopes: string[]) => freshKey(sql, options, users[nickname], name, scopes);
  const revoked = await createKey(sql, { userId: users.ada, name: "demo revoked", scopes: ["read", "write"], prefix: options.keyPrefix });
  await revokeKey(sql, options.keyCache, revoked.record.id);
  return {
    accounts: {
      main: people.ada.main.id,
      linked: people.ada.linked.id,
      shared: people.dana.main.id,
      editor_shared: people.eli.main.id,
      linked_shared: people.dana.linked.id,
      throttled: people.bo.main.id,
      other_user: people.cy.main.id,
    },
    keys: {
      write: await key("ada", "demo write", ["read", "write"]),
      read: await key("ada", "demo read", ["read"]),
      revoked: revoked.key,
      lapsed: await key("lee", "demo write", ["read", "write"]),
      throttled: await key("bo", "demo write", ["read", "write"]),
      other_user: await key("cy", "demo write", ["read", "write"]),
      trial: await key("tia", "demo write", ["read", "write"]),
      not_onboarded: await key("olu", "demo write", ["read", "write"]),
      no_credits: await key("nia", "demo write", ["read", "write"]),
      no_post_quota: await key("pia", "demo write", ["read", "write"]),
    },
    handles: { main: people.ada.main.username },
    tags,
    products: products.map((row) => row.id),
    scheduled_posts: scheduledPosts,
    media: { image_key: imageKey },
    articles,
    workers,
    suggestions,
    plug_templates: plugTemplates,
    contact_lists: contactLists,
    signals,
    datasets,
    engage,
    dm,
    webhooks,
    x: services.network.demoFixtures?.(),
  };
}

/** True when the database has no users yet (a fresh embedded start). */
export async function isEmptyDatabase(sql: Sql): Promise<boolean> {
  return !(await anyUser(sql));
}

/** Spends whatever is left in the owner's current pool (`keys.no_credits`). */
async function emptyCreditPool(services: Services, userId: number, mainAccountId: string, plan: string): Promise<void> {
  // Seeding writes data directly; the fault switches describe requests, not the seed.
  const ctx = createContextInner({ services: { ...services, faults: new Set() } });
  const billingAnchor = await billingAnchorOf(services.sql, userId);
  const owner = { ownerId: mainAccountId, plan: planById(plan), billingAnchor };
  const { remaining } = await creditState(ctx, owner);
  if (remaining > 0) await chargeCredits(ctx, owner, { amount: remaining, reference: "demo:empty-pool" });
}

async function ensurePerson(sql: Sql, person: DemoPerson): Promise<number> {
  const existing = await userByEmail(sql, person.user.email);
  if (existing) return existing.user_id;
  const { userId } = await createUser(sql, person.user, person.main);
  if (person.linked) await linkAccount(sql, userId, person.linked);
  return userId;
}

async function ensureTags(sql: Sql, workspaceId: string, wanted: [string, string][]): Promise<number[]> {
  const ids: number[] = [];
  for (const [name, color] of wanted) {
    ids.push(await ensureDemoTag(sql, workspaceId, name, color));
  }
  return ids;
}

/** Rotates the active key called `name`, or creates it, and returns the new key. */
async function freshKey(sql: Sql, options: { keyPrefix: string; keyCache: KeyCache }, userId: number, name: string, scopes: string[]): Promise<string> {
  const active = (await keysOfUser(sql, userId, false)).find((row) => row.name === name);
  const issued: IssuedKey = active
    ? await rotateKey(sql, options.keyCache, active.id, options.keyPrefix)
    : await createKey(sql, { userId, name, scopes, prefix: options.keyPrefix });
  return issued.key;
}
