/**
 * The X API v2 adapter (docs/operations.md "The outside world") against a loopback fake of X that
 * serves the simulated world in X's shapes (test/support/fake_x_api/): the client reads
 * the same records the simulated network answers, pages by X's tokens, maps X's
 * failures to the port's typed errors (and so to the API's codes), bounds every
 * request, and writes only with a user-context token.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Sql } from "../core/db/sql.ts";
import { migrate } from "../adapters/postgres/migrate.ts";
import { migrateSimulatedNetwork } from "../adapters/x/simulated/simulated_migrations.ts";
import { ApiError } from "../core/errors.ts";
import { networkApiError } from "../core/network/network_api_error.ts";
import {
  NetworkBadRequestError,
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
import { openNetwork } from "../adapters/x/open_network.ts";
import { simulatedDemoFixtures } from "../adapters/x/simulated/demo_fixtures.ts";
import { tokenize } from "../adapters/x/simulated/search_query.ts";
import { SEARCH_STOP_WORDS as STOP_WORDS } from "../core/text/search_stop_words.ts";
import { createSimulatedNetwork, type SimulatedNetwork } from "../adapters/x/simulated/simulated_network.ts";
import { createXApiNetwork } from "../adapters/x/x_api/x_api_network.ts";
import { startFakeXServer, type FakeXServer } from "./support/fake_x_api/fake_x_server.ts";
import { lookupProblem, refusalAnswer, type X_REFUSALS } from "./support/fake_x_api/x_problems.ts";
import { isPermanentFailure } from "../core/network/permanent_failure.ts";
import { failureReason } from "../core/scheduling/publish_failure.ts";
import { startHarness, transports } from "./support/harness.ts";
import { manualClock } from "./support/manual_clock.ts";
import { createTestDatabase, type TestDatabase } from "./support/test_database.ts";

const START = "2026-11-21T12:00:00Z";
const DAY = 86_400_000;
const ADA_ID = "1600000000000000001";
const ADA_LABS_ID = "1600000000000000002";
const ADA_TOKEN = "user-token-ada";
const LABS_TOKEN = "user-token-ada-labs";
const fixtures = simulatedDemoFixtures();

let database: TestDatabase;
let sql: Sql;
let clock: ReturnType<typeof manualClock>;
let sim: SimulatedNetwork;
let fake: FakeXServer;
let x: SocialNetwork;

/** A client of the fake; options override the defaults (user token of ada_builds). */
function client(options: Partial<Parameters<typeof createXApiNetwork>[0]> = {}): SocialNetwork {
  return createXApiNetwork({ baseUrl: fake.url, bearerToken: fake.bearerToken, clock, userToken: ADA_TOKEN, timeoutMs: 5000, ...options });
}

before(async () => {
  database = await createTestDatabase();
  ({ sql } = await database.open({ poolSize: database.mode === "embedded" ? 1 : 4 }));
  await migrate(sql);
  await migrateSimulatedNetwork(sql);
  clock = manualClock(START);
  // X's recent search reaches 7 days back: the world the fake serves does too.
  sim = createSimulatedNetwork({ sql, clock, seed: 7, searchWindowDays: 7 });
  fake = await startFakeXServer({ network: sim, clock, userTokens: { [ADA_TOKEN]: ADA_ID, [LABS_TOKEN]: ADA_LABS_ID } });
  x = client();
});
after(async () => {
  await fake.close();
  await database.drop();
});

const iso = (ms: number) => new Date(ms).toISOString();

async function rejects<E extends Error>(promise: Promise<unknown>, type: new (...args: any[]) => E): Promise<E> {
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

/** Every item of a paged list (at most `maxPages` pages), checking no id comes twice. */
async function collect<T extends { id: string }>(read: (cursor?: string) => Promise<Page<T>>, maxPages = 50): Promise<T[]> {
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

/**
 * A simulated record as X can show it. The simulated world lists a mention on some
 * foreign-language posts whose text does not name the account (those templates have no
 * `@{m}`); X derives mentions from the text (and a reply's target), so such an id
 * cannot come back through X and is compared without it.
 */
async function asOnX<T extends NetworkPost | NetworkPost[] | Page<NetworkPost>>(value: T): Promise<T> {
  const posts: NetworkPost[] = Array.isArray(value) ? value : "items" in value ? value.items : [value];
  const users = await sim.usersByIds([...new Set(posts.flatMap((post) => post.mentionedUserIds))]);
  const handles = new Map(users.map((user) => [user.id, user.username.toLowerCase()]));
  const named = (post: NetworkPost, id: string) =>
    (id === post.replyToUserId && !post.isThreadContinuation) || new RegExp(`@${handles.get(id)}(?![A-Za-z0-9_])`, "i").test(post.text);
  const fix = (post: NetworkPost): NetworkPost => ({ ...post, mentionedUserIds: post.mentionedUserIds.filter((id) => named(post, id)) });
  if (Array.isArray(value)) return value.map(fix) as T;
  return ("items" in value ? { ...value, items: value.items.map(fix) } : fix(value)) as T;
}

/** Requests the fake received while `run` ran. */
async function requestsDuring(run: () => Promise<unknown>) {
  const from = fake.requests.length;
  await run();
  return fake.requests.slice(from);
}

/** A recent original of a large account with replies, quotes and reposts (recent search sees 7 days). */
async function recentBusyPost(): Promise<NetworkPost> {
  const kai = await sim.userByUsername(fixtures.user_handle);
  const { items } = await sim.timeline(kai.id, {
    since: iso(clock.now() - 5 * DAY),
    until: iso(clock.now() - DAY),
    excludeReplies: true,
    excludeReposts: true,
    limit: 100,
  });
  const busy = items
    .filter((post) => !post.isThreadContinuation && post.metrics.quotes > 0 && post.metrics.reposts > 0)
    .sort((a, b) => b.metrics.replies - a.metrics.replies)[0];
  assert.ok(busy && busy.metrics.replies >= 15, "kai_on_ai has a recent post with replies, quotes and reposts");
  return busy;
}

describe("reads answer what the simulated network answers", () => {
  test("users by handle (any case, @), by id, and in batches in the order asked, missing ones left out", async () => {
    const ada = await sim.userByUsername("ada_builds");
    assert.deepEqual(await x.userByUsername("@ADA_Builds"), ada);
    assert.deepEqual(await x.userById(ada.id), ada);
    assert.equal((await x.userByUsername(fixtures.protected_handle)).protected, true);
    const ids = [...sim.world.pop.ids.slice(200, 205), "999", ada.id];
    assert.deepEqual(await x.usersByIds(ids), await sim.usersByIds(ids));
    const names = ["nobody_home_404", "ADA_BUILDS", fixtures.user_handle];
    assert.deepEqual(await x.usersByUsernames(names), await sim.usersByUsernames(names));
    assert.deepEqual(await x.usersByIds([]), []);
  });

  test("posts by id keep their kind: post, thread continuation, reply, quote and repost", async () => {
    const ada = await sim.userByUsername("ada_builds");
    const kai = await sim.userByUsername(fixtures.user_handle);
    const posts = [
      ...(await sim.timeline(ada.id, { since: iso(clock.now() - 60 * DAY), limit: 100 })).items,
      ...(await sim.timeline(kai.id, { limit: 100 })).items,
    ];
    const pick = (test: (post: NetworkPost) => boolean, what: string) => {
      const found = posts.find(test);
      assert.ok(found, `the world has a ${what}`);
      return found;
    };
    const samples = [
      pick((post) => post.kind === "post" && !post.isThreadContinuation, "post"),
      pick((post) => post.isThreadContinuation, "thread continuation"),
      pick((post) => post.kind === "reply", "reply"),
      pick((post) => post.kind === "quote", "quote"),
      pick((post) => post.kind === "repost", "repost"),
      pick((post) => post.media.length > 0, "post with media"),
    ];
    for (const post of [await sim.postById(fixtures.post_id), ...samples])
      assert.deepEqual(await x.postById(post.id), await asOnX(await sim.postById(post.id)), post.kind);
    const ids = [samples[0].id, "2294002590345855390", samples[2].id];
    assert.deepEqual(await x.postsByIds(ids), await asOnX(await sim.postsByIds(ids)));
  });

  test("replies (newest first and by relevance), quotes and reposters of a recent post", async () => {
    const post = await recentBusyPost();
    assert.deepEqual(await x.replies(post.id, { limit: 20 }), await asOnX(await sim.replies(post.id, { limit: 20 })));
    assert.deepEqual(await x.replies(post.id, { limit: 10, sort: "relevance" }), await asOnX(await sim.replies(post.id, { limit: 10, sort: "relevance" })));
    const replies = await collect((cursor) => x.replies(post.id, { cursor, limit: 10 }));
    assert.deepEqual(
      replies.map((reply) => reply.id),
      (await collect((cursor) => sim.replies(post.id, { cursor, limit: 10 }))).map((reply) => reply.id),
    );
    assert.ok(replies.every((reply) => reply.replyToId === post.id));
    assert.deepEqual(await x.quotes(post.id, { limit: 10 }), await asOnX(await sim.quotes(post.id, { limit: 10 })));
    assert.deepEqual(await x.reposters(post.id, { limit: 40 }), await sim.reposters(post.id, { limit: 40 }));
    // The simulated world does not list likers; the client asks X's liking_users all the same.
    const [likers] = await requestsDuring(async () => assert.deepEqual(await x.likers!(post.id, { limit: 50 }), { items: [] }));
    assert.deepEqual([likers.pathname, likers.query.get("max_results")], [`/2/tweets/${post.id}/liking_users`, "50"]);
    const searched = fake.requests.find(
      (request) => request.pathname === "/2/tweets/search/recent" && request.query.get("query")?.startsWith("in_reply_to_tweet_id:"),
    );
    assert.equal(searched?.query.get("query"), `in_reply_to_tweet_id:${post.id}`);
  });

  test("a timeline with and without replies and reposts, and within a window", async () => {
    const ada = await sim.userByUsername("ada_builds");
    for (const options of [
      { limit: 30 },
      { limit: 30, excludeReplies: true, excludeReposts: true },
      { limit: 50, excludeReposts: true, since: iso(clock.now() - 20 * DAY), until: iso(clock.now() - 10 * DAY) },
    ]) {
      assert.deepEqual(await x.timeline(ada.id, options), await asOnX(await sim.timeline(ada.id, options)), JSON.stringify(options));
    }
    const [call] = await requestsDuring(() => x.timeline(ada.id, { limit: 5, excludeReplies: true, excludeReposts: true }));
    assert.equal(call.pathname, `/2/users/${ada.id}/tweets`);
    assert.equal(call.query.get("exclude"), "replies,retweets");
  });

  test("search: words, phrases, OR, exclusions, a window (until exclusive), originals, language and minimum likes", async () => {
    const window = { since: iso(clock.now() - 2 * DAY), until: iso(clock.now() - DAY) };
    const { items: sample } = await sim.search({ query: "design OR startups OR ai", ...window, limit: 50 });
    const target = sample.find((post) => {
      const tokens = tokenize(post.text);
      return post.lang === "en" && tokens.some((token, i) => i + 1 < tokens.length && !STOP_WORDS.has(token) && !STOP_WORDS.has(tokens[i + 1]));
    })!;
    const tokens = tokenize(target.text);
    const at = tokens.findIndex((token, i) => i + 1 < tokens.length && !STOP_WORDS.has(token) && !STOP_WORDS.has(tokens[i + 1]));
    const cases = [
      { query: tokens[at].toUpperCase(), ...window, limit: 50 },
      { query: `"${tokens[at]} ${tokens[at + 1]}"`, ...window, limit: 20 },
      { query: "design OR marketing OR ai", ...window, limit: 40 },
      { query: "design -systems", ...window, limit: 40 },
      { query: "design OR marketing OR ai", ...window, originalsOnly: true, limit: 40 },
      { query: "sobre", ...window, lang: "es", limit: 20 },
      { query: "design OR ai", limit: 30 },
    ];
    for (const options of cases) assert.deepEqual(await x.search(options), await asOnX(await sim.search(options)), JSON.stringify(options));
    const phrase = await x.search(cases[1]);
    assert.ok(phrase.items.some((post) => post.id === target.id));
    const before = await x.search({ query: cases[1].query, since: window.since, until: target.createdAt, limit: 100 });
    assert.ok(!before.items.some((post) => post.id === target.id), "until is exclusive");
    // Recent search has no minimum-likes operator: the client filters, so pages may be short but hold the same posts.
    const liked = { query: "design OR marketing OR ai", ...window, minLikes: 20 };
    const viaX = await collect((cursor) => x.search({ ...liked, cursor, limit: 100 }));
    assert.ok(viaX.length > 0 && viaX.every((post) => post.metrics.likes >= 20));
    assert.deepEqual(
      viaX.map((post) => post.id),
      (await collect((cursor) => sim.search({ ...liked, cursor, limit: 100 }))).map((post) => post.id),
    );
    const [call] = await requestsDuring(() => x.search({ query: "design OR ai", lang: "en", originalsOnly: true, ...window }));
    assert.equal(call.query.get("query"), "(design OR ai) lang:en -is:retweet -is:reply -is:quote");
    assert.equal(call.query.get("start_time"), window.since.replace(".000Z", "Z"));
    assert.deepEqual(await x.search({ query: "-design" }), { items: [] }, "only exclusions match nothing");
  });

  test("mentions, followers and following", async () => {
    const ada = await sim.userByUsername("ada_builds");
    assert.deepEqual(await x.mentions(ada.id, { limit: 40 }), await asOnX(await sim.mentions(ada.id, { limit: 40 })));
    const followers = await collect((cursor) => x.followers(ada.id, { cursor, limit: 1000 }), 3);
    assert.deepEqual(followers, await collect((cursor) => sim.followers(ada.id, { cursor, limit: 1000 }), 3));
    assert.deepEqual(await x.following(ada.id, { limit: 200 }), await sim.following(ada.id, { limit: 200 }));
  });

  test("lists: the public list, its members and posts, owned lists; a private list answers 404 x_list_not_found", async () => {
    assert.deepEqual(await x.listById(fixtures.public_list_id), await sim.listById(fixtures.public_list_id));
    const members = await collect((cursor) => x.listMembers(fixtures.public_list_id, { cursor, limit: 20 }));
    assert.deepEqual(members, await collect((cursor) => sim.listMembers(fixtures.public_list_id, { cursor, limit: 20 })));
    assert.deepEqual(await x.listPosts(fixtures.public_list_id, { limit: 10 }), await asOnX(await sim.listPosts(fixtures.public_list_id, { limit: 10 })));
    const owner = (await sim.listById(fixtures.public_list_id)).ownerId;
    assert.deepEqual(await x.ownedLists(owner), await sim.ownedLists(owner));
    const hidden = apiError(await rejects(x.listById(fixtures.private_list_id), NetworkPrivateError));
    assert.deepEqual([hidden.status, hidden.code], [404, "x_list_not_found"]);
    await rejects(x.listMembers(fixtures.private_list_id), NetworkPrivateError);
    await rejects(x.listById("1580000000000000001"), NetworkNotFoundError);
  });

  test("a protected account's posts are private: 404 user_not_found and post_not_found", async () => {
    const vault = await sim.userByUsername(fixtures.protected_handle);
    assert.equal(apiError(await rejects(x.timeline(vault.id), NetworkPrivateError)).code, "user_not_found");
    const index = sim.world.pop.byId.get(vault.id)!;
    const today = Math.floor(clock.now() / DAY);
    const vaultPost = Array.from({ length: 30 }, (_, i) => sim.world.originals(index, today - 1 - i)).flat()[0];
    assert.equal(apiError(await rejects(x.postById(vaultPost.id), NetworkPrivateError)).code, "post_not_found");
    assert.deepEqual(await x.postsByIds([vaultPost.id]), []);
  });
});

describe("pagination", () => {
  test("X's next_token is the cursor: walking pages gives the simulated network's items in order", async () => {
    const ada = await sim.userByUsername("ada_builds");
    const first = await x.timeline(ada.id, { limit: 7 });
    assert.equal(first.nextCursor, (await sim.timeline(ada.id, { limit: 7 })).nextCursor, "the token passes through");
    const walked = await collect((cursor) => x.timeline(ada.id, { cursor, limit: 7 }), 6);
    assert.deepEqual(
      walked.map((post) => post.id),
      (await sim.timeline(ada.id, { limit: 42 })).items.map((post) => post.id),
    );
    const [call] = await requestsDuring(() => x.timeline(ada.id, { cursor: first.nextCursor, limit: 7 }));
    assert.equal(call.query.get("pagination_token"), first.nextCursor);
  });

  test("a page smaller than X's minimum is cut from a larger X page and resumes where it stopped", async () => {
    const ada = await sim.userByUsername("ada_builds");
    const calls = await requestsDuring(async () => {
      // Pages of 3, 2, 3, 2, ...: the rest of each X page of 5, then the next X page.
      const walked = await collect((cursor) => x.timeline(ada.id, { cursor, limit: 3 }), 8);
      assert.equal(walked.length, 20);
      assert.deepEqual(
        walked.map((post) => post.id),
        (await sim.timeline(ada.id, { limit: 20 })).items.map((post) => post.id),
      );
    });
    assert.ok(
      calls.filter((call) => call.pathname.endsWith("/tweets")).every((call) => call.query.get("max_results") === "5"),
      "X's minimum is asked",
    );
  });

  test("a cursor X never issued answers 400 invalid_parameter", async () => {
    const ada = await sim.userByUsername("ada_builds");
    for (const cursor of ["bogus", "~9.1.abc"]) {
      const error = await rejects(x.timeline(ada.id, { cursor }), NetworkBadRequestError);
      assert.deepEqual([apiError(error).status, apiError(error).code], [400, "invalid_parameter"]);
    }
  });
});

describe("failures map to the API's codes", () => {
  test("missing users, posts and lists answer 404 with their codes; a malformed handle is not sent", async () => {
    assert.equal(apiError(await rejects(x.userByUsername(fixtures.unknown_handle), NetworkNotFoundError)).code, "user_not_found");
    assert.equal(apiError(await rejects(x.postById("2294002590345855390"), NetworkNotFoundError)).code, "post_not_found");
    assert.equal(apiError(await rejects(x.listById("1580000000000000001"), NetworkNotFoundError)).code, "x_list_not_found");
    const calls = await requestsDuring(() => rejects(x.userByUsername("not a handle!"), NetworkNotFoundError));
    assert.equal(calls.length, 0);
    await rejects(x.replies("2294002590345855390"), NetworkNotFoundError);
  });

  test("429 answers NetworkRateLimitedError with X's reset (or Retry-After), then 503 upstream_unavailable", async () => {
    const reset = Math.floor(clock.now() / 1000) + 42;
    fake.script({ kind: "status", status: 429, headers: { "x-rate-limit-limit": "300", "x-rate-limit-remaining": "0", "x-rate-limit-reset": String(reset) } });
    const limited = await rejects(x.userByUsername("ada_builds"), NetworkRateLimitedError);
    assert.equal(limited.retryAfter, 42);
    const mapped = apiError(limited);
    assert.deepEqual([mapped.status, mapped.code, mapped.extra.retry_after], [503, "upstream_unavailable", 42]);
    fake.script({ kind: "status", status: 429, headers: { "retry-after": "7" } });
    assert.equal((await rejects(x.search({ query: "design" }), NetworkRateLimitedError)).retryAfter, 7);
    // The per-user daily post cap: the wait runs to its reset, not to the 15-minute window's.
    const tomorrow = Math.ceil((clock.now() + DAY) / 1000);
    fake.script({
      path: "/2/tweets",
      kind: "status",
      status: 429,
      headers: { "x-rate-limit-reset": String(reset), "x-user-limit-24hour-remaining": "0", "x-user-limit-24hour-reset": String(tomorrow) },
    });
    assert.equal((await rejects(x.publishPost({ authorId: ADA_ID, text: "Over the daily cap" }), NetworkRateLimitedError)).retryAfter, 86_400);
  });

  test("5xx and malformed answers are 502 upstream_error", async () => {
    for (const status of [500, 503]) {
      fake.script({ kind: "status", status });
      const error = await rejects(x.postById(fixtures.post_id), NetworkUpstreamError);
      assert.equal(error.status, status);
      assert.deepEqual([apiError(error).status, apiError(error).code], [502, "upstream_error"]);
    }
    fake.script({ kind: "malformed" });
    assert.equal(apiError(await rejects(x.postById(fixtures.post_id), NetworkUpstreamError)).code, "upstream_error");
    // A 400 that is not about the cursor is X refusing what the client built: an upstream error, not the caller's.
    fake.script({
      kind: "status",
      status: 400,
      body: {
        errors: [{ parameters: { "tweet.fields": ["bogus"] }, message: "bad field" }],
        title: "Invalid Request",
        type: "https://api.twitter.com/2/problems/invalid-request",
      },
    });
    assert.equal(apiError(await rejects(x.postById(fixtures.post_id), NetworkUpstreamError)).code, "upstream_error");
  });

  test("a hanging X is cut off at the configured timeout: 504 upstream_timeout", async () => {
    fake.script({ kind: "hang" });
    const started = Date.now();
    const error = await rejects(client({ timeoutMs: 200 }).userById(ADA_ID), NetworkTimeoutError);
    const took = Date.now() - started;
    assert.ok(took >= 150 && took < 1000, `gave up after ${took} ms`);
    assert.equal(apiError(error).code, "upstream_timeout");
  });

  test("an unreachable X is 503 upstream_unavailable; refused credentials are 502 upstream_error", async () => {
    const closed = await startFakeXServer({ network: sim, clock });
    const url = closed.url;
    await closed.close();
    const unreachable = await rejects(createXApiNetwork({ baseUrl: url, bearerToken: "t", clock }).userById(ADA_ID), NetworkUnavailableError);
    assert.equal(apiError(unreachable).code, "upstream_unavailable");
    const refused = await rejects(client({ bearerToken: "wrong" }).userById(ADA_ID), NetworkUpstreamError);
    assert.equal(refused.status, 401);
  });

  test("every request carries the Authorization header: the app-only token for reads", async () => {
    const calls = await requestsDuring(() => x.postById(fixtures.post_id));
    assert.equal(calls[0].headers.authorization, `Bearer ${fake.bearerToken}`);
    assert.match(calls[0].query.get("tweet.fields") ?? "", /referenced_tweets/);
    assert.match(calls[0].query.get("expansions") ?? "", /referenced_tweets\.id/);
  });
});

describe("writes need a user-context token", () => {
  test("publishPost sends text and reply with the user token, and answers the post as the network has it", async () => {
    const parent = await sim.postById(fixtures.post_id);
    let post: NetworkPost | undefined;
    const calls = await requestsDuring(async () => {
      post = await x.publishPost({ authorId: ADA_ID, text: "Shipping & learning <fast> with @kai_on_ai", replyToId: parent.id });
    });
    const create = calls.find((call) => call.method === "POST")!;
    assert.equal(create.headers.authorization, `Bearer ${ADA_TOKEN}`);
    assert.deepEqual(create.body, { text: "Shipping & learning <fast> with @kai_on_ai", reply: { in_reply_to_tweet_id: parent.id } });
    assert.deepEqual(post, await asOnX(await sim.postById(post!.id)));
    assert.equal(post!.kind, "reply");
    const long = "A long premium post. ".repeat(20).trim();
    const longPost = await x.publishPost({ authorId: ADA_ID, text: long });
    assert.equal(longPost.text, long, "note_tweet carries the full text");
    const part = await x.publishPost({ authorId: ADA_ID, text: "2/ and the second part", replyToId: longPost.id });
    assert.equal(part.isThreadContinuation, true);
    assert.deepEqual(part, await asOnX(await sim.postById(part.id)));
  });

  test("without a user token, or with another account's, a write is refused before reaching X", async () => {
    const anonymous = client({ userToken: undefined });
    const calls = await requestsDuring(async () => {
      const refused = await rejects(anonymous.publishPost({ authorId: ADA_ID, text: "no token" }), NetworkRejectedError);
      assert.match(refused.message, /user-context token/);
      assert.deepEqual([apiError(refused).status, apiError(refused).code], [502, "upstream_error"]);
      await rejects(anonymous.sendDm({ senderId: ADA_ID, recipientId: ADA_LABS_ID, text: "hi" }), NetworkRejectedError);
    });
    assert.equal(calls.length, 0);
    const wrong = await rejects(x.publishPost({ authorId: ADA_LABS_ID, text: "as someone else" }), NetworkRejectedError);
    assert.match(wrong.message, /acts as user "1600000000000000001"/);
  });

  test("a token makes publishing idempotent, within the process and after a restart (reconciled by text)", async () => {
    const first = await x.publishPost({ authorId: ADA_ID, text: "Idempotent hello", token: "t-1" });
    assert.equal((await x.publishPost({ authorId: ADA_ID, text: "Idempotent hello", token: "t-1" })).id, first.id);
    assert.equal((await x.findPublished({ authorId: ADA_ID, token: "t-1" }))?.id, first.id);
    const restarted = client();
    const calls = await requestsDuring(async () => {
      assert.equal((await restarted.publishPost({ authorId: ADA_ID, text: "Idempotent hello", token: "t-1" })).id, first.id);
    });
    assert.ok(!calls.some((call) => call.method === "POST"), "nothing was published again");
    assert.equal((await restarted.findPublished({ authorId: ADA_ID, text: "Idempotent hello" }))?.id, first.id);
    const duplicate = await rejects(x.publishPost({ authorId: ADA_ID, text: "Idempotent hello" }), NetworkRejectedError);
    assert.equal(duplicate.reason, "duplicate");
  });

  test("a thread retried after a crash resumes: parts that landed are not published twice", async () => {
    const parts = [{ text: "Thread: one" }, { text: "Thread: two" }, { text: "Thread: three" }];
    const posts = await x.publishThread({ authorId: ADA_ID, parts, token: "thread-1" });
    assert.deepEqual(
      posts.map((post) => post.isThreadContinuation),
      [false, true, true],
    );
    const calls = await requestsDuring(async () => {
      const again = await client().publishThread({ authorId: ADA_ID, parts, token: "thread-1" });
      assert.deepEqual(
        again.map((post) => post.id),
        posts.map((post) => post.id),
      );
    });
    assert.ok(!calls.some((call) => call.method === "POST"));
  });

  test("delete (again is a no-op), repost and undo", async () => {
    const post = await x.publishPost({ authorId: ADA_ID, text: "To be deleted" });
    await x.deletePost(ADA_ID, post.id);
    await rejects(sim.postById(post.id), NetworkNotFoundError);
    await x.deletePost(ADA_ID, post.id);
    const target = await recentBusyPost();
    const repost = await x.repost(ADA_ID, target.id);
    assert.deepEqual([repost.kind, repost.repostedId], ["repost", target.id]);
    assert.deepEqual(repost, await asOnX(await sim.postById(repost.id)));
    assert.equal((await x.repost(ADA_ID, target.id)).id, repost.id, "reposting again answers the same repost");
    await x.undoRepost(ADA_ID, target.id);
    await rejects(sim.postById(repost.id), NetworkNotFoundError);
  });

  test("DMs are sent and listed; a DM to oneself is refused", async () => {
    const dm = await x.sendDm({ senderId: ADA_ID, recipientId: ADA_LABS_ID, text: "Hello from X", token: "dm-1" });
    assert.deepEqual(await x.sendDm({ senderId: ADA_ID, recipientId: ADA_LABS_ID, text: "Hello from X", token: "dm-1" }), dm);
    const listed = (await x.directMessages(ADA_ID)).items.find((item) => item.id === dm.id);
    assert.deepEqual(listed && { ...listed, createdAt: dm.createdAt }, dm);
    await rejects(x.sendDm({ senderId: ADA_ID, recipientId: ADA_ID, text: "me" }), NetworkRejectedError);
    fake.script({
      path: /^\/2\/dm_conversations\//,
      kind: "status",
      status: 403,
      body: { title: "Forbidden", detail: "You cannot send messages to this user.", type: "about:blank", status: 403 },
    });
    assert.equal((await rejects(x.sendDm({ senderId: ADA_ID, recipientId: ADA_LABS_ID, text: "closed" }), NetworkRejectedError)).reason, "dm_closed");
  });

  test("X's refusals of a post are classified: permanent ones end the post with the reason, others are retried", async () => {
    const target = await recentBusyPost();
    const permanent: Array<[keyof typeof X_REFUSALS, string]> = [
      ["reply_restricted", "reply_restricted"],
      ["suspended", "suspended"],
      ["not_permitted", "not_permitted"],
      ["missing_scope", "not_permitted"],
    ];
    for (const [answer, reason] of permanent) {
      fake.script({ path: "/2/tweets", kind: "status", ...refusalAnswer(answer) });
      const refused = await rejects(x.publishPost({ authorId: ADA_ID, text: `Refused: ${answer}`, replyToId: target.id }), NetworkRejectedError);
      assert.equal(refused.reason, reason, answer);
      assert.ok(isPermanentFailure(refused), `${answer} is permanent`);
      assert.match(failureReason(refused, { index: 0, count: 1, attempts: 1 }), /^X refused the post: X refused the write: /);
    }
    const duplicate = await x.publishPost({ authorId: ADA_ID, text: "Said once" });
    const again = await rejects(x.publishPost({ authorId: ADA_ID, text: "Said once" }), NetworkRejectedError);
    assert.deepEqual([again.reason, isPermanentFailure(again)], ["duplicate", true]);
    assert.match(failureReason(again, { index: 0, count: 1, attempts: 1 }), /duplicate content/);
    await x.deletePost(ADA_ID, duplicate.id);
    // A reply to a protected author's post: X's `not-authorized-for-resource`, permanent.
    fake.script({ path: "/2/tweets", kind: "status", status: 403, body: { ...lookupProblem("post", target.id, "in_reply_to_tweet_id", true), status: 403 } });
    const hidden = await rejects(x.publishPost({ authorId: ADA_ID, text: "To a protected author", replyToId: target.id }), NetworkPrivateError);
    assert.ok(isPermanentFailure(hidden));
    // The usage cap and a refused token are retryable, with the reason in the message.
    fake.script({ path: "/2/tweets", kind: "status", ...refusalAnswer("usage_capped"), headers: { "retry-after": "60" } });
    const capped = await rejects(x.publishPost({ authorId: ADA_ID, text: "Over the usage cap" }), NetworkRateLimitedError);
    assert.deepEqual([isPermanentFailure(capped), capped.retryAfter], [false, 60]);
    assert.match(failureReason(capped, { index: 0, count: 1, attempts: 3 }), /^X could not publish the post after 3 attempts: X usage cap reached/);
    fake.script({ path: "/2/tweets", kind: "status", ...refusalAnswer("expired_token") });
    const unauthorized = await rejects(x.publishPost({ authorId: ADA_ID, text: "With a refused token" }), NetworkUpstreamError);
    assert.deepEqual([unauthorized.status, isPermanentFailure(unauthorized)], [401, false]);
  });

  test("articles publish through X's Articles API; without premium: 403 x_premium_required", async () => {
    let article: Awaited<ReturnType<SocialNetwork["publishArticle"]>> | undefined;
    const calls = await requestsDuring(async () => {
      article = await x.publishArticle({
        authorId: ADA_ID,
        title: "Notes on shipping",
        markdown: "# Why\n\nShip **small** things.\n\n- one\n- two\n\n```ts\nship();\n```",
        token: "a-1",
      });
    });
    const [draft, publish] = calls.filter((call) => call.method === "POST");
    assert.equal(draft.pathname, "/2/articles/draft");
    assert.match(publish.pathname, /^\/2\/articles\/\d+\/publish$/);
    assert.equal(draft.headers.authorization, `Bearer ${ADA_TOKEN}`);
    assert.equal(draft.body.title, "Notes on shipping");
    assert.deepEqual(
      draft.body.content_state.blocks.map((block: { type: string; text: string }) => [block.type, block.text]),
      [
        ["header-one", "Why"],
        ["unstyled", "Ship small things."],
        ["unordered-list-item", "one"],
        ["unordered-list-item", "two"],
        ["atomic", " "],
      ],
    );
    assert.deepEqual(draft.body.content_state.blocks[1].inline_style_ranges, [{ offset: 5, length: 5, style: "bold" }]);
    // A code fence is an atomic block pointing at a markdown entity (openapi.json, ArticleCreateDraftContentState).
    assert.deepEqual(draft.body.content_state.blocks[4].entity_ranges, [{ key: 0, offset: 0, length: 1 }]);
    assert.deepEqual(draft.body.content_state.entities, [
      { key: "0", value: { type: "markdown", mutability: "mutable", data: { markdown: "```ts\nship();\n```" } } },
    ]);
    const post = await x.postById(article!.postId);
    assert.deepEqual(post.article, { id: article!.id, title: "Notes on shipping" });
    assert.equal(article!.url, `https://x.com/ada_builds/status/${article!.postId}`);
    const labs = client({ userToken: LABS_TOKEN });
    const refused = await rejects(labs.publishArticle({ authorId: ADA_LABS_ID, title: "Not premium", markdown: "Body" }), NetworkRejectedError);
    assert.deepEqual([refused.reason, apiError(refused).status, apiError(refused).code], ["premium_required", 403, "x_premium_required"]);
  });
});

describe("wiring", () => {
  test("openNetwork picks the X API v2 client when configured; THREADLINE_FAULTS=x still wraps it", async () => {
    const xApi = { baseUrl: fake.url, bearerToken: fake.bearerToken };
    assert.equal(openNetwork({ sql, clock, xApi }).info.kind, "x_api");
    assert.equal(openNetwork({ sql, clock, xApi }).info.searchWindowDays, 7);
    await rejects(openNetwork({ sql, clock, xApi, faulty: true }).userById(ADA_ID), NetworkUnavailableError);
  });

  test("a Threadline configured with X_API_BASE_URL and X_BEARER_TOKEN answers GET /v1/x/users/{handle} from X", async () => {
    const harness = await startHarness({ config: { xApiBaseUrl: fake.url, xBearerToken: fake.bearerToken } });
    try {
      assert.equal(harness.services.network.info.kind, "x_api");
      const calls = await requestsDuring(async () => {
        const answer = await transports(harness)[1].request("GET", "/v1/x/users/ada_builds", { key: harness.world.keys.write });
        assert.equal(answer.status, 200);
        const ada = await sim.userByUsername("ada_builds");
        assert.deepEqual([answer.body.data.id, answer.body.data.username, answer.body.data.followers_count], [ada.id, "ada_builds", ada.followersCount]);
      });
      assert.ok(calls.some((call) => call.pathname === "/2/users/by/username/ada_builds" && call.headers.authorization === `Bearer ${fake.bearerToken}`));
    } finally {
      await harness.close();
    }
  });
});
