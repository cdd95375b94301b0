/**
 * The simulated social network (docs/operations.md "The outside world"; ARCHITECTURE: "The simulated network is a world,
 * not a stub"): deterministic from its seed, realistic in shape, paged by stable cursors,
 * moving with the clock, and keeping what Threadline's users write in the database.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import type { Sql } from "../core/db/sql.ts";
import { migrate } from "../adapters/postgres/migrate.ts";
import { migrateSimulatedNetwork } from "../adapters/x/simulated/simulated_migrations.ts";
import { ApiError } from "../core/errors.ts";
import { outlierScore } from "../core/network/engagement_rate.ts";
import { networkApiError } from "../core/network/network_api_error.ts";
import {
  NetworkNotFoundError,
  NetworkPrivateError,
  NetworkRateLimitedError,
  NetworkRejectedError,
  NetworkTimeoutError,
  NetworkUnavailableError,
  NetworkUpstreamError,
} from "../core/network/network_errors.ts";
import type { NetworkPost, Page } from "../core/network/network_records.ts";
import type { SocialNetwork } from "../core/network/social_network.ts";
import { createFaultyNetwork } from "../adapters/x/faulty_network.ts";
import { openNetwork } from "../adapters/x/open_network.ts";
import { createSimulatedNetwork, type SimulatedNetwork } from "../adapters/x/simulated/simulated_network.ts";
import { simulatedDemoFixtures } from "../adapters/x/simulated/demo_fixtures.ts";
import { tokenize } from "../adapters/x/simulated/search_query.ts";
import { SEARCH_STOP_WORDS as STOP_WORDS } from "../core/text/search_stop_words.ts";
import { originalRef } from "../adapters/x/simulated/post_refs.ts";
import { followersAt } from "../adapters/x/simulated/population.ts";
import { createTestDatabase, type TestDatabase } from "./support/test_database.ts";
import { manualClock } from "./support/manual_clock.ts";
import { startHarness } from "./support/harness.ts";

const START = "2026-11-21T12:00:00Z";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const fixtures = simulatedDemoFixtures();

let database: TestDatabase;
let sql: Sql;
let clock: ReturnType<typeof manualClock>;
let network: SimulatedNetwork;

before(async () => {
  database = await createTestDatabase();
  // One connection: embedded PGlite is a single session (open_runtime.ts does the same).
  ({ sql } = await database.open({ poolSize: database.mode === "embedded" ? 1 : 4 }));
  await migrate(sql);
  await migrateSimulatedNetwork(sql);
  clock = manualClock(START);
  network = createSimulatedNetwork({ sql, clock, seed: 7 });
});
after(() => database.drop());

/** Every item of a paged list, checking that no id comes twice. */
async function collect<T extends { id: string }>(read: (cursor?: string) => Promise<Page<T>>, maxPages = 100): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const result = await read(cursor);
    items.push(...result.items);
    if (!result.nextCursor) break;
    cursor = result.nextCursor;
  }
  assert.equal(new Set(items.map((item) => item.id)).size, items.length, "no item is listed twice");
  return items;
}

async function rejects(promise: Promise<unknown>, type: new (...args: any[]) => Error): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof type, `expected ${type.name}, got ${String(error)}`);
    return error;
  }
  assert.fail(`expected ${type.name}`);
}

function apiError(error: unknown, codes?: Parameters<typeof networkApiError>[1]): ApiError {
  const mapped = networkApiError(error, codes);
  assert.ok(mapped instanceof ApiError);
  return mapped;
}

describe("determinism", () => {
  test("the same seed gives the same people, posts and metrics", async () => {
    const twin = createSimulatedNetwork({ sql, clock, seed: 7 });
    const ids = network.world.pop.ids.slice(100, 110);
    assert.deepEqual(await twin.usersByIds(ids), await network.usersByIds(ids));
    const ada = await network.userByUsername("ada_builds");
    assert.deepEqual(await twin.timeline(ada.id, { limit: 30 }), await network.timeline(ada.id, { limit: 30 }));
    assert.deepEqual(await twin.postById(fixtures.large_post_id), await network.postById(fixtures.large_post_id));
    assert.deepEqual(await twin.search({ query: "design systems", limit: 10 }), await network.search({ query: "design systems", limit: 10 }));
  });

  test("another seed gives another world, with the same anchors and fixtures", async () => {
    const other = createSimulatedNetwork({ sql, clock, seed: 8 });
    assert.notDeepEqual(other.world.pop.usernames.slice(100, 120), network.world.pop.usernames.slice(100, 120));
    const ada = await network.userByUsername("ada_builds");
    assert.equal((await other.userByUsername("ada_builds")).id, ada.id);
    const texts = async (net: SocialNetwork) =>
      (await net.timeline(ada.id, { limit: 20, excludeReplies: true, excludeReposts: true })).items.map((post) => post.text);
    assert.notDeepEqual(await texts(other), await texts(network));
    assert.equal((await other.postById(fixtures.post_id)).text, (await network.postById(fixtures.post_id)).text);
  });
});

describe("realism", () => {
  test("follower counts follow a power law: the median is far below the mean, a few accounts are huge", () => {
    const followers = Array.from(network.world.pop.followers0).sort((a, b) => a - b);
    const median = followers[followers.length >> 1];
    const mean = followers.reduce((sum, n) => sum + n, 0) / followers.length;
    console.log(`followers: median ${median}, mean ${mean.toFixed(0)}, max ${followers.at(-1)}`);
    assert.ok(median >= 20 && median <= 200);
    assert.ok(mean > 5 * median);
    assert.ok(followers.filter((n) => n >= 100_000).length >= 2);
  });

  test("engagement grows with followers, rate falls, and some posts are 5x outliers", () => {
    // Read straight from the world: thousands of posts, no database round trips.
    const { world } = network;
    const now = clock.now();
    const today = Math.floor(now / DAY);
    const tiers = [
      [0, 1_000],
      [1_000, 10_000],
      [10_000, Infinity],
    ] as const;
    const samples: { followers: number; engagements: number; score: number }[] = [];
    for (let user = 0; user < world.pop.size; user++) {
      if (world.pop.isProtected[user]) continue;
      for (let day = today - 6; day <= today - 4; day++) {
        for (const post of world.originals(user, day)) {
          if (post.part > 0) continue;
          const { metrics } = originalRef(world, post).build(now);
          const followers = followersAt(world.pop, user, post.ms);
          samples.push({ followers, engagements: metrics.likes + metrics.replies + metrics.reposts + metrics.quotes, score: outlierScore(metrics, followers) });
        }
      }
    }
    const medians = tiers.map(([low, high]) => {
      const values = samples
        .filter((s) => s.followers >= low && s.followers < high)
        .map((s) => s.engagements)
        .sort((a, b) => a - b);
      return values[values.length >> 1];
    });
    const rates = tiers.map(([low, high]) => {
      const inTier = samples.filter((s) => s.followers >= low && s.followers < high);
      return inTier.reduce((sum, s) => sum + s.engagements / Math.max(1, s.followers), 0) / inTier.length;
    });
    const outliers = samples.filter((s) => s.score >= 5).length;
    console.log(`posts ${samples.length}; median engagements by tier ${medians.join(" < ")}; outliers >= 5x: ${outliers}`);
    assert.ok(medians[0] < medians[1] && medians[1] < medians[2]);
    assert.ok(rates[0] > rates[1] && rates[1] > rates[2], "engagement per follower falls with size");
    assert.ok(outliers >= 10 && outliers < samples.length * 0.15);
  });

  test("threads are ordered parts: each continuation answers the previous part of the same conversation", async () => {
    const ada = await network.userByUsername("ada_builds");
    const posts = await collect((cursor) =>
      network.timeline(ada.id, { cursor, limit: 100, excludeReplies: true, excludeReposts: true, since: new Date(clock.now() - 90 * DAY).toISOString() }),
    );
    const originals = posts.filter((post) => post.kind === "post" && !post.isThreadContinuation);
    assert.ok(originals.length >= 20, `ada_builds has ${originals.length} original posts in 90 days`);
    const continuations = posts.filter((post) => post.isThreadContinuation);
    assert.ok(continuations.length >= 2, "ada_builds has threads");
    const byId = new Map(posts.map((post) => [post.id, post]));
    for (const part of continuations) {
      const previous = byId.get(part.replyToId!);
      assert.ok(previous, "the part answered is in the timeline");
      assert.equal(previous.authorId, ada.id);
      assert.equal(previous.conversationId, part.conversationId);
      assert.ok(previous.createdAt < part.createdAt);
    }
  });

  test("a reply a post lists is in the replier's own timeline (both sides agree)", async () => {
    const { items } = await network.replies(fixtures.post_id, { limit: 5 });
    const reply = items.find((post) => post.kind === "reply")!;
    const { items: timeline } = await network.timeline(reply.authorId, { until: new Date(Date.parse(reply.createdAt) + 1).toISOString(), limit: 1 });
    assert.equal(timeline[0].id, reply.id);
    assert.deepEqual(await network.postById(reply.id), reply);
  });

  test("an author's answer to a reply is in the conversation, the author's timeline and the replier's mentions", async () => {
    const post = await network.postById(fixtures.post_id);
    const replies = await collect((cursor) => network.replies(post.id, { cursor, limit: 100 }));
    let answer: NetworkPost | undefined;
    for (const reply of replies) {
      answer = (await network.replies(reply.id)).items[0];
      if (answer) break;
    }
    assert.ok(answer, "the author answers some replies");
    assert.equal(answer.authorId, post.authorId);
    assert.equal(answer.conversationId, post.conversationId);
    assert.deepEqual(await network.postById(answer.id), answer);
    const until = new Date(Date.parse(answer.createdAt) + 1).toISOString();
    assert.equal((await network.timeline(answer.authorId, { until, limit: 1 })).items[0].id, answer.id);
    assert.equal((await network.mentions(answer.replyToUserId!, { until, limit: 1 })).items[0].id, answer.id);
  });
});

describe("lookups", () => {
  test("users by handle (any case, leading @) and by id; many by ids in order, missing ones left out", async () => {
    const ada = await network.userByUsername("@ADA_Builds");
    assert.equal(ada.id, "1600000000000000001");
    assert.equal(ada.username, "ada_builds");
    assert.equal(ada.premium, "premium");
    assert.ok(ada.followersCount > 1000 && ada.description.length > 0 && ada.location);
    assert.deepEqual(await network.userById(ada.id), ada);
    const kai = await network.userByUsername(fixtures.user_handle);
    const many = await network.usersByIds([kai.id, "999", ada.id]);
    assert.deepEqual(
      many.map((user) => user.username),
      [fixtures.user_handle, "ada_builds"],
    );
    assert.deepEqual(
      (await network.usersByUsernames(["nobody_home_404", "ADA_BUILDS"])).map((user) => user.id),
      [ada.id],
    );
  });

  test("a follower far down a large account's list (a lurker) can be looked up by id and handle", async () => {
    const kai = await network.userByUsername(fixtures.user_handle);
    let page = await network.followers(kai.id, { limit: 1000 });
    for (let i = 0; i < 3; i++) page = await network.followers(kai.id, { limit: 1000, cursor: page.nextCursor });
    assert.equal(page.items.length, 1000);
    const lurker = page.items[0];
    assert.ok(!network.world.pop.byId.has(lurker.id), "past the engaged audience");
    assert.deepEqual(await network.userById(lurker.id), lurker);
    assert.deepEqual(await network.userByUsername(lurker.username), lurker);
  });

  test("a Threadline account outside the generated world is a guest of the network", async () => {
    const userId = (await sql<{ id: number }[]>`insert into users (name) values ('Guest') returning id`)[0].id;
    await sql`insert into accounts (id, user_id, username, name, avatar_url) values ('777000111', ${userId}, 'guest_writer', 'Guest Writer', 'https://x.com/guest_writer/photo')`;
    const guest = await network.userByUsername("Guest_Writer");
    assert.equal(guest.id, "777000111");
    const post = await network.publishPost({ authorId: guest.id, text: "A guest post" });
    assert.equal((await network.timeline(guest.id)).items[0].id, post.id);
  });

  test("a missing handle, id or post answers not found; a protected author's posts are private", async () => {
    assert.equal(apiError(await rejects(network.userByUsername(fixtures.unknown_handle), NetworkNotFoundError)).code, "user_not_found");
    assert.equal(apiError(await rejects(network.userByUsername("not a handle!"), NetworkNotFoundError)).status, 404);
    await rejects(network.userById("123"), NetworkNotFoundError);
    assert.equal(apiError(await rejects(network.postById("2294002590345855390"), NetworkNotFoundError)).code, "post_not_found");
    await rejects(network.postById("12"), NetworkNotFoundError);
    const vault = await network.userByUsername(fixtures.protected_handle);
    assert.equal(vault.protected, true);
    assert.equal(apiError(await rejects(network.timeline(vault.id), NetworkPrivateError)).code, "user_not_found");
    const vaultIndex = network.world.pop.byId.get(vault.id)!;
    const today = Math.floor(clock.now() / DAY);
    const vaultPost = Array.from({ length: 30 }, (_, i) => network.world.originals(vaultIndex, today - 1 - i)).flat()[0];
    assert.ok(vaultPost, "the protected account posts");
    assert.equal(apiError(await rejects(network.postById(vaultPost.id), NetworkPrivateError)).code, "post_not_found");
  });

  test("lists: the public list and its members; the private list answers x_list_not_found", async () => {
    const list = await network.listById(fixtures.public_list_id);
    assert.equal(list.private, false);
    const members = await collect((cursor) => network.listMembers(fixtures.public_list_id, { cursor, limit: 20 }));
    assert.equal(members.length, list.memberCount);
    assert.ok(members.some((member) => member.username === "ada_builds"));
    const posts = await network.listPosts(fixtures.public_list_id, { limit: 10 });
    assert.ok(posts.items.length === 10 && posts.items.every((post) => members.some((m) => m.id === post.authorId)));
    assert.equal(apiError(await rejects(network.listById(fixtures.private_list_id), NetworkPrivateError)).code, "x_list_not_found");
    await rejects(network.listMembers(fixtures.private_list_id), NetworkPrivateError);
    await rejects(network.listById("1580000000000000001"), NetworkNotFoundError);
    const owned = await network.ownedLists(list.ownerId);
    assert.ok(owned.items.some((l) => l.id === fixtures.public_list_id));
  });
});

describe("the demo fixtures", () => {
  test("x.post_id has replies, quotes and reposts, and each list is exactly what its counter says", async () => {
    const post = await network.postById(fixtures.post_id);
    assert.ok(post.metrics.replies > 0 && post.metrics.quotes > 0 && post.metrics.reposts > 0);
    const replies = await collect((cursor) => network.replies(post.id, { cursor, limit: 25 }));
    const quotes = await collect((cursor) => network.quotes(post.id, { cursor, limit: 25 }));
    const reposters = await collect((cursor) => network.reposters(post.id, { cursor, limit: 40 }));
    assert.equal(replies.length, post.metrics.replies);
    assert.ok(replies.every((reply) => reply.replyToId === post.id && reply.conversationId === post.conversationId));
    assert.equal(quotes.length, post.metrics.quotes);
    assert.ok(quotes.every((quote) => quote.quotedId === post.id && quote.kind === "quote"));
    assert.equal(reposters.length, post.metrics.reposts);
  });

  test("x.large_post_id has hundreds of repliers; paging by cursor is complete and each page is stable", async () => {
    const post = await network.postById(fixtures.large_post_id);
    assert.ok(post.metrics.replies >= 300, `${post.metrics.replies} replies`);
    const pages: Page<NetworkPost>[] = [];
    for (let cursor: string | undefined, i = 0; i === 0 || cursor; i++) {
      pages.push(await network.replies(post.id, { cursor, limit: 100 }));
      cursor = pages.at(-1)!.nextCursor;
    }
    const all = pages.flatMap((page) => page.items);
    assert.equal(new Set(all.map((reply) => reply.id)).size, post.metrics.replies);
    const sorted = [...all].sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
    assert.deepEqual(
      all.map((p) => p.createdAt),
      sorted.map((p) => p.createdAt),
      "newest first",
    );
    const again = await network.replies(post.id, { cursor: pages[0].nextCursor, limit: 100 });
    assert.deepEqual(again, pages[1]);
    const best = await network.replies(post.id, { sort: "relevance", limit: 20 });
    assert.ok(best.items.every((reply, i) => i === 0 || best.items[i - 1].metrics.likes >= reply.metrics.likes));
  });

  test("the unknown handle is well formed and not taken", async () => {
    assert.match(fixtures.unknown_handle, /^[A-Za-z0-9_]{1,15}$/);
    await rejects(network.userByUsername(fixtures.unknown_handle), NetworkNotFoundError);
  });

  test("the demo accounts exist with their Threadline ids, and their lookups are the same for every seed", async () => {
    for (const [handle, id] of [
      ["ada_builds", "1600000000000000001"],
      ["ada_labs", "1600000000000000002"],
      ["dana_writes", "1600000000000000011"],
      ["cy_private", "1600000000000000041"],
    ]) {
      assert.equal((await network.userByUsername(handle)).id, id);
    }
    assert.equal((await network.userByUsername("ada_labs")).premium, "none");
    assert.deepEqual(network.demoFixtures!(), fixtures);
  });
});

describe("pagination", () => {
  test("timeline pages walk the same items, in the same order, as one big page", async () => {
    const ada = await network.userByUsername("ada_builds");
    const big = await network.timeline(ada.id, { limit: 60 });
    const walked = await collect((cursor) => network.timeline(ada.id, { cursor, limit: 7 }), 9);
    assert.deepEqual(
      walked.slice(0, 60).map((p) => p.id),
      big.items.map((p) => p.id),
    );
  });

  test("a cursor stays valid while new posts arrive: the next page does not shift", async () => {
    const local = manualClock(START);
    const net = createSimulatedNetwork({ sql, clock: local, seed: 7 });
    const kai = await net.userByUsername(fixtures.user_handle);
    const first = await net.timeline(kai.id, { limit: 10 });
    const second = await net.timeline(kai.id, { limit: 10, cursor: first.nextCursor });
    local.advance(2 * DAY);
    const newer = await net.timeline(kai.id, { limit: 10 });
    assert.notEqual(newer.items[0].id, first.items[0].id, "posts arrived");
    const secondLater = await net.timeline(kai.id, { limit: 10, cursor: first.nextCursor });
    assert.deepEqual(
      secondLater.items.map((p) => p.id),
      second.items.map((p) => p.id),
    );
  });

  test("followers page by offset to the account's follower count", async () => {
    const ada = await network.userByUsername("ada_builds");
    const followers = await collect((cursor) => network.followers(ada.id, { cursor, limit: 1000 }));
    assert.equal(followers.length, ada.followersCount);
    const following = await collect((cursor) => network.following(ada.id, { cursor, limit: 500 }));
    assert.equal(following.length, ada.followingCount);
    assert.ok(following.some((user) => user.username === fixtures.user_handle));
  });

  test("a cursor the network never issued answers invalid_parameter", async () => {
    const ada = await network.userByUsername("ada_builds");
    const error = await rejects(network.timeline(ada.id, { cursor: "bogus" }), Error);
    assert.equal(apiError(error).code, "invalid_parameter");
  });
});

describe("recent search", () => {
  const yesterday = () => ({ since: new Date(clock.now() - 2 * DAY).toISOString(), until: new Date(clock.now() - DAY).toISOString() });

  test("finds posts by word and by exact phrase within the window", async () => {
    const { items: sample } = await network.search({ query: "design OR startups OR ai", ...yesterday(), limit: 50 });
    const target = sample.find((post) => {
      const tokens = tokenize(post.text);
      return post.lang === "en" && tokens.some((token, i) => i + 1 < tokens.length && !STOP_WORDS.has(token) && !STOP_WORDS.has(tokens[i + 1]));
    })!;
    const tokens = tokenize(target.text).filter((token) => token.length > 3);
    const word = tokens[0];
    const byWord = await collect((cursor) => network.search({ query: word.toUpperCase(), ...yesterday(), cursor, limit: 100 }), 30);
    assert.ok(byWord.some((post) => post.id === target.id));
    assert.ok(byWord.every((post) => tokenize(post.text).includes(word)));
    const all = tokenize(target.text);
    const at = all.findIndex((token, i) => i + 1 < all.length && !STOP_WORDS.has(token) && !STOP_WORDS.has(all[i + 1]));
    const phrase = `${all[at]} ${all[at + 1]}`;
    const byPhrase = await collect((cursor) => network.search({ query: `"${phrase}"`, ...yesterday(), cursor, limit: 100 }), 30);
    assert.ok(byPhrase.some((post) => post.id === target.id));
    assert.ok(byPhrase.every((post) => ` ${tokenize(post.text).join(" ")} `.includes(` ${phrase} `)));
    const before = await network.search({
      query: `"${phrase}"`,
      since: yesterday().since,
      until: new Date(Date.parse(target.createdAt)).toISOString(),
      limit: 100,
    });
    assert.ok(!before.items.some((post) => post.id === target.id), "until is exclusive");
    assert.deepEqual((await network.search({ query: "zzqxqzz" })).items, []);
  });

  test("respects minimum likes, originals only, language and exclusions", async () => {
    const query = "design OR marketing OR ai";
    const liked = await network.search({ query, ...yesterday(), minLikes: 20, limit: 50 });
    assert.ok(liked.items.length > 0 && liked.items.every((post) => post.metrics.likes >= 20));
    const originals = await network.search({ query, ...yesterday(), originalsOnly: true, limit: 100 });
    assert.ok(originals.items.every((post) => post.kind === "post" && !post.isThreadContinuation));
    const withQuotes = await collect((cursor) => network.search({ query: "this OR read OR worth", ...yesterday(), cursor, limit: 100 }), 20);
    assert.ok(
      withQuotes.some((post) => post.kind === "quote"),
      "quotes are searchable",
    );
    const spanish = await network.search({ query: "sobre", ...yesterday(), lang: "es", limit: 20 });
    assert.ok(spanish.items.length > 0 && spanish.items.every((post) => post.lang === "es"));
    const excluded = await network.search({ query: "design -systems", ...yesterday(), limit: 100 });
    assert.ok(excluded.items.every((post) => !tokenize(post.text).includes("systems")));
  });

  test("reaches back at most the search window", async () => {
    const old = await network.search({ query: "design", since: "2025-01-01T00:00:00Z", until: new Date(clock.now() - 40 * DAY).toISOString() });
    assert.deepEqual(old.items, []);
    assert.equal(network.info.searchWindowDays, 30);
  });
});

describe("mentions", () => {
  test("replies to a person's posts, answers to their replies and posts naming them, newest first", async () => {
    const ada = await network.userByUsername("ada_builds");
    const mentions = await collect((cursor) => network.mentions(ada.id, { cursor, limit: 100, since: new Date(clock.now() - 30 * DAY).toISOString() }));
    assert.ok(mentions.length >= 40, `${mentions.length} mentions in 30 days`);
    for (const post of mentions) {
      assert.notEqual(post.authorId, ada.id);
      assert.ok(post.replyToUserId === ada.id || post.mentionedUserIds.includes(ada.id));
    }
    assert.ok(mentions.some((post) => post.kind === "reply") && mentions.some((post) => post.kind === "post"));
    assert.deepEqual(
      mentions.map((p) => p.createdAt),
      [...mentions.map((p) => p.createdAt)].sort().reverse(),
    );
  });
});

describe("time", () => {
  test("days later new posts have appeared and older ones are unchanged", async () => {
    const local = manualClock(START);
    const net = createSimulatedNetwork({ sql, clock: local, seed: 7 });
    const kai = await net.userByUsername(fixtures.user_handle);
    const options = { limit: 100, excludeReplies: true };
    const before = await net.timeline(kai.id, options);
    // Two days: any one day may be quiet (START is a Saturday, and weekends are).
    local.advance(2 * DAY);
    const later = await net.timeline(kai.id, options);
    const arrived = later.items.filter((post) => post.createdAt > before.items[0].createdAt);
    assert.ok(arrived.length > 0, "new posts arrived");
    const laterById = new Map(later.items.map((post) => [post.id, post]));
    const settled = before.items.filter((post) => Date.parse(post.createdAt) < Date.parse(START) - 3 * DAY && laterById.has(post.id));
    assert.ok(settled.length > 0);
    for (const post of settled) assert.deepEqual(laterById.get(post.id), post, "posts older than 3 days keep their text and metrics");
    const fresh = before.items[0];
    const grown = await net.postById(fresh.id);
    assert.equal(grown.text, fresh.text);
    assert.ok(grown.metrics.impressions >= fresh.metrics.impressions);
  });
});

describe("faults", () => {
  test("THREADLINE_FAULTS=x: every call fails as 503 upstream_unavailable", async () => {
    const faulty = createFaultyNetwork(network);
    for (const call of [
      () => faulty.userByUsername("ada_builds"),
      () => faulty.search({ query: "ai" }),
      () => faulty.publishPost({ authorId: "1", text: "x" }),
    ]) {
      const error = apiError(await rejects(call(), NetworkUnavailableError));
      assert.equal(error.status, 503);
      assert.equal(error.code, "upstream_unavailable");
    }
    assert.deepEqual(faulty.demoFixtures!(), fixtures);
    await rejects(openNetwork({ sql, clock, faulty: true }).postById(fixtures.post_id), NetworkUnavailableError);
  });

  test("the server wires the network into Services, faulty under THREADLINE_FAULTS=x", async () => {
    const harness = await startHarness({ config: { faults: "x" } });
    try {
      assert.equal(harness.services.network.info.kind, "simulated");
      await rejects(harness.services.network.userById("1600000000000000001"), NetworkUnavailableError);
    } finally {
      await harness.close();
    }
  });

  test("each failure maps to its API code", () => {
    assert.equal(apiError(new NetworkNotFoundError("list", "1")).code, "x_list_not_found");
    const limited = apiError(new NetworkRateLimitedError(42));
    assert.deepEqual([limited.status, limited.code, limited.extra.retry_after, limited.headers["Retry-After"]], [503, "upstream_unavailable", 42, "42"]);
    assert.deepEqual([apiError(new NetworkUpstreamError("bad", 500)).status, apiError(new NetworkUpstreamError("bad", 500)).code], [502, "upstream_error"]);
    assert.equal(apiError(new NetworkTimeoutError()).code, "upstream_timeout");
    assert.equal(apiError(new NetworkRejectedError("premium_required", "no")).code, "x_premium_required");
    assert.equal(apiError(new NetworkRejectedError("daily_limit", "no"), { rejected: "x_publish_failed" }).code, "x_publish_failed");
    assert.equal(apiError(new NetworkUnavailableError(), { failed: "x_publish_failed" }).status, 502);
    const other = new Error("not ours");
    assert.equal(networkApiError(other), other);
  });
});

describe("startup", () => {
  test("startup is fast and memory small (measured loosely)", async () => {
    // A collectable heap makes the before/after difference mean something.
    v8.setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    gc();
    // Typed arrays (the population, the audience graph) live outside the JS heap, where embedded
    // PGlite's memory also is; so the heap is measured, and the world's arrays are added by size.
    const used = () => process.memoryUsage().heapUsed;
    const heapBefore = used();
    const started = performance.now();
    const fresh = createSimulatedNetwork({ sql, clock, seed: 99 });
    const createdMs = performance.now() - started;
    const ada = await fresh.userByUsername("ada_builds");
    await fresh.timeline(ada.id, { limit: 20 });
    const firstReadMs = performance.now() - started;
    gc();
    const arrays = [...Object.values(fresh.world.pop), ...Object.values(fresh.world.graph())]
      .flat()
      .reduce((bytes: number, value) => bytes + (ArrayBuffer.isView(value) ? value.byteLength : 0), 0);
    const startupMb = (used() - heapBefore + arrays) / 1e6;
    const searchStarted = performance.now();
    await fresh.search({ query: "design systems", limit: 20 });
    const searchMs = performance.now() - searchStarted;
    gc();
    const searchedMb = (used() - heapBefore + arrays) / 1e6;
    console.log(
      `simulated network: created in ${createdMs.toFixed(0)} ms, first timeline read after ${firstReadMs.toFixed(0)} ms, ` +
        `heap +${startupMb.toFixed(1)} MB; a first 7-day search ${searchMs.toFixed(0)} ms, heap then +${searchedMb.toFixed(1)} MB`,
    );
    assert.ok(createdMs < 1500, `created in ${createdMs} ms`);
    assert.ok(startupMb < 50, `heap grew ${startupMb} MB`);
    assert.ok(searchedMb < 150, `heap grew ${searchedMb} MB`);
  });
});

for (const mode of ["embedded", ...(process.env.DATABASE_URL ? ["postgres"] : [])] as ("embedded" | "postgres")[]) {
  describe(`writes persist (${mode})`, () => {
    let store: TestDatabase;
    let first: Sql;
    const local = manualClock(START);
    const open = async () => (await store.open({ poolSize: mode === "embedded" ? 1 : 2 })).sql;
    before(async () => {
      store = await createTestDatabase(mode);
      first = await open();
      await migrate(first);
      await migrateSimulatedNetwork(first);
    });
    after(() => store.drop());

    test("posts, threads, replies, reposts, DMs and articles survive a new adapter instance", async () => {
      const writer = createSimulatedNetwork({ sql: first, clock: local, seed: 7 });
      const ada = await writer.userByUsername("ada_builds");
      const nina = await writer.userByUsername("nina_designs");
      const target = await writer.postById(fixtures.post_id);
      const post = await writer.publishPost({ authorId: ada.id, text: "Shipping the network port today @nina_designs", mediaKeys: ["media/ada/1.png"] });
      assert.deepEqual(post.mentionedUserIds, [nina.id]);
      const thread = await writer.publishThread({
        authorId: ada.id,
        parts: [{ text: "A thread on ports 1/3" }, { text: "2/3 adapters" }, { text: "3/3 fin" }],
        token: "thread-1",
      });
      assert.deepEqual(
        thread.slice(1).map((p) => p.replyToId),
        thread.slice(0, 2).map((p) => p.id),
      );
      assert.ok(thread.slice(1).every((p) => p.isThreadContinuation && p.conversationId === thread[0].id));
      const reply = await writer.publishPost({ authorId: ada.id, text: "Naming things, always.", replyToId: target.id });
      assert.equal(reply.kind, "reply");
      const repost = await writer.repost(ada.id, fixtures.large_post_id);
      const dm = await writer.sendDm({ senderId: ada.id, recipientId: nina.id, text: "Loved the post" });
      const article = await writer.publishArticle({ authorId: ada.id, title: "Ports and adapters", markdown: "# Why" });

      local.advance(HOUR);
      const reader = createSimulatedNetwork({ sql: await open(), clock: local, seed: 7 });
      assert.deepEqual((await reader.postById(post.id)).text, post.text);
      const timeline = await reader.timeline(ada.id, { limit: 30 });
      for (const id of [post.id, reply.id, repost.id, article.postId, ...thread.map((p) => p.id)]) {
        assert.ok(
          timeline.items.some((item) => item.id === id),
          `timeline has ${id}`,
        );
      }
      const replies = await collect((cursor) => reader.replies(target.id, { cursor, limit: 100 }));
      assert.ok(replies.some((r) => r.id === reply.id));
      assert.equal((await reader.postById(target.id)).metrics.replies, target.metrics.replies + 1);
      assert.ok((await collect((cursor) => reader.reposters(fixtures.large_post_id, { cursor, limit: 1000 }))).some((user) => user.id === ada.id));
      assert.equal((await reader.directMessages(nina.id)).items[0].id, dm.id);
      assert.equal((await reader.postById(article.postId)).article?.title, "Ports and adapters");
      assert.ok((await reader.search({ query: "network port" })).items.some((p) => p.id === post.id));
      assert.ok((await reader.mentions(nina.id, { limit: 50 })).items.some((p) => p.id === post.id));
    });

    test("the world answers what Threadline's users write: replies to their posts, answers to their replies", async () => {
      const net = createSimulatedNetwork({ sql: first, clock: local, seed: 7 });
      const ada = await net.userByUsername("ada_builds");
      const dana = await net.userByUsername("dana_writes");
      const post = await net.publishPost({ authorId: ada.id, text: "What do you write down before you build?" });
      const targets = (await net.timeline(dana.id, { excludeReplies: true, excludeReposts: true, limit: 30 })).items.filter((p) => p.kind === "post");
      const mine: NetworkPost[] = [];
      for (const [i, target] of targets.entries()) mine.push(await net.publishPost({ authorId: ada.id, text: `Good one, #${i}`, replyToId: target.id }));
      local.advance(14 * HOUR);
      const replies = await collect((cursor) => net.replies(post.id, { cursor, limit: 20 }));
      const metrics = (await net.postById(post.id)).metrics;
      assert.ok(replies.length > 0 && metrics.likes > 0, "the audience responds within hours");
      assert.equal(replies.length, metrics.replies);
      assert.deepEqual(await net.postById(replies[0].id), replies[0]);
      let answer: NetworkPost | undefined;
      for (const reply of mine) {
        answer = (await net.replies(reply.id)).items[0];
        if (answer) break;
      }
      assert.ok(answer, "dana answers some of ada's replies");
      assert.equal(answer.authorId, dana.id);
      assert.deepEqual(await net.postById(answer.id), answer);
      const mentions = await collect((cursor) => net.mentions(ada.id, { cursor, limit: 100, since: new Date(local.now() - DAY).toISOString() }));
      assert.ok(mentions.some((p) => p.id === answer.id) && mentions.some((p) => p.id === replies[0].id));
    });

    test("a thread retried with its token resumes where it stopped and never doubles a part", async () => {
      const net = createSimulatedNetwork({ sql: first, clock: local, seed: 7 });
      const ada = await net.userByUsername("ada_builds");
      let calls = 0;
      const flaky: SocialNetwork = {
        ...net,
        publishPost: async (input) => {
          if (++calls === 2) throw new NetworkUnavailableError("lost the answer");
          return net.publishPost(input);
        },
      };
      const parts = [{ text: "Retry 1/3" }, { text: "Retry 2/3" }, { text: "Retry 3/3" }];
      const { publishThreadParts } = await import("../core/network/publish_thread_parts.ts");
      await rejects(publishThreadParts(flaky, { authorId: ada.id, parts, token: "retry" }), NetworkUnavailableError);
      const landed = await net.findPublished({ authorId: ada.id, token: "retry:0" });
      assert.ok(landed);
      const posts = await publishThreadParts(flaky, { authorId: ada.id, parts, token: "retry" });
      assert.equal(posts[0].id, landed.id);
      assert.deepEqual(
        (await net.publishThread({ authorId: ada.id, parts, token: "retry" })).map((p) => p.id),
        posts.map((p) => p.id),
      );
      const mine = (await net.timeline(ada.id, { limit: 30 })).items.filter((p) => p.text.startsWith("Retry"));
      assert.equal(mine.length, 3);
      assert.equal((await net.findPublished({ authorId: ada.id, text: "Retry 2/3" }))?.id, posts[1].id);
    });

    test("publishes made in one turn share a statement and keep each publish's answer", async () => {
      const net = createSimulatedNetwork({ sql: first, clock: local, seed: 7 });
      const ada = await net.userByUsername("ada_builds");
      const earlier = await net.publishPost({ authorId: ada.id, text: "Batched, said before", token: "batched-0" });
      const [again, sameToken, twin, fresh, reply] = await Promise.allSettled([
        net.publishPost({ authorId: ada.id, text: "Batched, said before", token: "batched-0" }),
        net.publishPost({ authorId: ada.id, text: "Batched one", token: "batched-1" }),
        net.publishPost({ authorId: ada.id, text: "Batched one", token: "batched-1" }),
        net.publishPost({ authorId: ada.id, text: "Batched, said before" }),
        net.publishPost({ authorId: ada.id, text: "Batched reply", replyToId: earlier.id, token: "batched-2" }),
      ]);
      // The token's post answers a retry; the same token twice in one batch lands once.
      assert.equal(again.status === "fulfilled" && again.value.id, earlier.id);
      assert.ok(sameToken.status === "fulfilled" && twin.status === "fulfilled");
      assert.equal(sameToken.value.id, twin.value.id);
      // The same text without the token is a duplicate, within the batch as alone.
      assert.equal(fresh.status, "rejected");
      assert.equal(fresh.status === "rejected" && (fresh.reason as NetworkRejectedError).reason, "duplicate");
      // A reply in the batch continues the thread, with its own id and conversation.
      assert.ok(reply.status === "fulfilled");
      assert.equal(reply.value.conversationId, earlier.conversationId);
      assert.notEqual(reply.value.id, earlier.id);
      assert.deepEqual(await net.postById(reply.value.id), reply.value);
      assert.equal((await net.findPublished({ authorId: ada.id, token: "batched-1" }))?.id, sameToken.value.id);
    });

    test("the network's own rules: duplicates, length, premium and daily article limits, DMs, deletes", async () => {
      const net = createSimulatedNetwork({ sql: first, clock: local, seed: 7 });
      const ada = await net.userByUsername("ada_builds");
      const labs = await net.userByUsername("ada_labs");
      await net.publishPost({ authorId: labs.id, text: "Same words" });
      assert.equal(
        ((await rejects(net.publishPost({ authorId: labs.id, text: "Same words" }), NetworkRejectedError)) as NetworkRejectedError).reason,
        "duplicate",
      );
      await rejects(net.publishPost({ authorId: labs.id, text: "x".repeat(281) }), NetworkRejectedError);
      await net.publishPost({ authorId: ada.id, text: "y".repeat(2000) });
      await rejects(net.publishPost({ authorId: ada.id, text: "reply", replyToId: "2294002590345855390" }), NetworkNotFoundError);
      assert.equal(
        apiError(await rejects(net.publishArticle({ authorId: labs.id, title: "T", markdown: "m" }), NetworkRejectedError)).code,
        "x_premium_required",
      );

      const day = manualClock("2026-11-25T08:00:00Z");
      const articles = createSimulatedNetwork({ sql: first, clock: day, seed: 7 });
      for (let i = 0; i < 5; i++) await articles.publishArticle({ authorId: ada.id, title: `Article ${i}`, markdown: "body" });
      const limited = await rejects(articles.publishArticle({ authorId: ada.id, title: "Sixth", markdown: "body", token: "sixth" }), NetworkRejectedError);
      assert.equal(apiError(limited, { rejected: "x_publish_failed" }).status, 502);
      for (let i = 0; i < 4; i++) await rejects(articles.publishArticle({ authorId: ada.id, title: `More ${i}`, markdown: "body" }), NetworkRejectedError);
      const drafts = await rejects(articles.publishArticle({ authorId: ada.id, title: "Eleventh draft", markdown: "body" }), NetworkRejectedError);
      assert.match(drafts.message, /10 article drafts/);
      day.advance(DAY);
      const resumed = await articles.publishArticle({ authorId: ada.id, title: "Sixth", markdown: "body", token: "sixth" });
      assert.equal(resumed.title, "Sixth");

      await rejects(net.sendDm({ senderId: ada.id, recipientId: ada.id, text: "me" }), NetworkRejectedError);
      await rejects(net.sendDm({ senderId: ada.id, recipientId: "31337", text: "hi" }), NetworkNotFoundError);
      const again = await net.sendDm({ senderId: ada.id, recipientId: labs.id, text: "once", token: "dm-1" });
      assert.equal((await net.sendDm({ senderId: ada.id, recipientId: labs.id, text: "once", token: "dm-1" })).id, again.id);

      const own = (await net.timeline(ada.id, { excludeReplies: true, excludeReposts: true, until: new Date(local.now() - 2 * DAY).toISOString(), limit: 1 }))
        .items[0];
      await net.deletePost(ada.id, own.id);
      await net.deletePost(ada.id, own.id);
      await rejects(net.postById(own.id), NetworkNotFoundError);
      assert.ok(
        !(await net.timeline(ada.id, { until: own.createdAt, since: new Date(Date.parse(own.createdAt) - DAY).toISOString(), limit: 100 })).items.some(
          (p) => p.id === own.id,
        ),
      );
      await rejects(net.deletePost(ada.id, fixtures.post_id), NetworkRejectedError);
      await net.undoRepost(ada.id, fixtures.large_post_id);
      assert.ok(!(await collect((cursor) => net.reposters(fixtures.large_post_id, { cursor, limit: 1000 }))).some((user) => user.id === ada.id));
    });
  });
}
