/**
 * The audience sync (docs/areas.md "Audience") on a hand-built network: follower and following
 * walks across runs within the page budgets, the plan's backfill cap, unfollows after a
 * re-walk, newcomers between walks, a failing network call (paused, index unchanged,
 * resumed), the reposters' `engaged_at` rule and the 90-day window, the engagers following
 * the content sync's commits, and the dispatch job.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { manualClock } from "./support/manual_clock.ts";
import { syncAccountAudience } from "../core/audience/audience_sync.ts";
import { AUDIENCE_SYNC_LIMITS } from "../core/audience/audience_sync_rhythm.ts";
import { accountsDueForAudienceSync, audienceSyncStates } from "../core/audience/audience_sync_queries.ts";
import { bumpEngagementVersion } from "../core/content/content_sync_queries.ts";
import { jobHandlers, periodicJobs } from "../jobs/task_list.ts";
import type { JobRow } from "../core/jobs/jobs_queries.ts";
import { dispatchAudienceSync } from "../core/audience/audience_jobs.ts";
import { NetworkUnavailableError } from "../core/network/network_errors.ts";
import type { NetworkUser, Page } from "../core/network/network_records.ts";
import type { SocialNetwork } from "../core/network/social_network.ts";

let harness: Harness;
before(async () => {
  harness = await startHarness();
});
after(() => harness.close());

const DAY = 86_400_000;
const MINUTE = 60_000;
let nextAccount = 0;

/** A fresh account of a fresh user on `plan`, never synced. */
async function freshAccount(plan: string): Promise<string> {
  const { sql } = harness.services;
  nextAccount += 1;
  const id = `17000000000000${String(nextAccount).padStart(5, "0")}`;
  const [user] = await sql<{ id: string }[]>`insert into users (name, plan) values (${`audience ${id}`}, ${plan}) returning id::text`;
  await sql`insert into accounts (id, user_id, username, name, avatar_url) values (${id}, ${user.id}, ${`aud_${nextAccount}`}, 'Audience test', '')`;
  return id;
}

/** People `from` to `from + count - 1` as ids. */
function people(from: number, count: number): string[] {
  return Array.from({ length: count }, (_, index) => String(5_000_000 + from + index));
}

/** A hand-built network: followers, following and reposters lists, a failure switch, and the pages read. */
function handBuiltNetwork() {
  const lists = { followers: [] as string[], following: [] as string[], reposters: new Map<string, string[]>() };
  const state = { failAtCursor: undefined as string | undefined, failReposters: false, onUsersRead: undefined as (() => Promise<void>) | undefined };
  const reads: string[] = [];
  const user = (id: string): NetworkUser => ({
    id,
    username: `person_${id}`,
    name: `Person ${id}`,
    description: "",
    location: "Lisbon",
    url: null,
    avatarUrl: `https://x.com/person_${id}/photo`,
    createdAt: "2020-01-01T00:00:00.000Z",
    protected: false,
    verified: false,
    verifiedType: "none",
    premium: "none",
    followersCount: 10,
    followingCount: 20,
    postCount: 0,
    listedCount: 0,
    pinnedPostId: null,
    canDm: true,
  });
  const paged = (list: string, ids: string[], options: { cursor?: string; limit?: number } = {}): Page<NetworkUser> => {
    reads.push(`${list}:${options.cursor ?? ""}`);
    if (options.cursor !== undefined && options.cursor === state.failAtCursor) throw new NetworkUnavailableError("X is down");
    const start = Number(options.cursor ?? 0);
    const size = Math.min(options.limit ?? 100, 1000);
    const next = start + size < ids.length ? String(start + size) : undefined;
    return { items: ids.slice(start, start + size).map(user), nextCursor: next };
  };
  const network = {
    info: { kind: "simulated", searchWindowDays: 7 },
    async followers(_id: string, options?: { cursor?: string; limit?: number }) {
      return paged("followers", lists.followers, options);
    },
    async following(_id: string, options?: { cursor?: string; limit?: number }) {
      return paged("following", lists.following, options);
    },
    async reposters(postId: string, options?: { cursor?: string; limit?: number }) {
      if (state.failReposters) throw new NetworkUnavailableError("X is down");
      return paged(`reposters ${postId}`, lists.reposters.get(postId) ?? [], options);
    },
    async usersByIds(ids: readonly string[]) {
      reads.push(`users:${ids.length}`);
      await state.onUsersRead?.();
      return ids.map(user);
    },
  } as unknown as SocialNetwork;
  return { network, lists, state, reads };
}

async function members(accountId: string, kind: string): Promise<{ x_user_id: string; walk_index: number; generation: number }[]> {
  return harness.services.sql`
    select x_user_id, walk_index, generation from audience_members where account_id = ${accountId} and kind = ${kind}
     order by walk_started_at desc, walk_index, x_user_id`;
}

async function stateOf(accountId: string, kind: "followers" | "following" | "engagers") {
  const state = (await audienceSyncStates(harness.services.sql, accountId)).get(kind);
  assert.ok(state, `a ${kind} state`);
  return state;
}

describe("followers and following", () => {
  test("a walk spans runs within the run's page budget, in the network's order, then the list is complete", async () => {
    const accountId = await freshAccount("pro");
    const fake = handBuiltNetwork();
    fake.lists.followers = people(0, 2_500);
    fake.lists.following = people(10_000, 40);
    const clock = manualClock("2026-11-20T12:00:00Z");
    const deps = { sql: harness.services.sql, clock, network: fake.network };

    const first = await syncAccountAudience(deps, accountId, { pagesPerRun: 1 });
    assert.deepEqual([first.followers.result, first.followers.pagesRead, first.followers.status], ["synced", 1, "running"]);
    assert.deepEqual([first.following.status, first.following.pagesRead], ["complete", 1]);
    let followers = await stateOf(accountId, "followers");
    assert.deepEqual([followers.synced_count, followers.walk_cursor, followers.walk_seen, followers.generation], [1_000, "1000", 1_000, 1]);
    assert.equal(followers.next_sync_at?.getTime(), clock.now() + AUDIENCE_SYNC_LIMITS.continueSeconds * 1000);

    const early = await syncAccountAudience(deps, accountId, { pagesPerRun: 1 });
    assert.equal(early.followers.result, "not_due", "a run before next_sync_at leaves the list alone");

    clock.advance(5 * MINUTE);
    await syncAccountAudience(deps, accountId, { pagesPerRun: 1 });
    assert.equal((await stateOf(accountId, "followers")).synced_count, 2_000);
    clock.advance(5 * MINUTE);
    const last = await syncAccountAudience(deps, accountId, { pagesPerRun: 1 });
    assert.equal(last.followers.status, "complete");
    followers = await stateOf(accountId, "followers");
    assert.deepEqual(
      [followers.synced_count, followers.is_capped, followers.walk_cursor, followers.last_complete_at?.getTime()],
      [2_500, false, null, clock.now()],
    );
    assert.deepEqual(
      fake.reads.filter((read) => read.startsWith("followers:")),
      ["followers:", "followers:1000", "followers:2000"],
      "each page read once, resumed from the stored cursor",
    );
    const rows = await members(accountId, "followers");
    assert.deepEqual(
      rows.map((row) => row.x_user_id),
      fake.lists.followers,
      "first-seen order is the network's",
    );
    const [{ count }] = await harness.services.sql<{ count: number }[]>`select count(*)::int as count from contacts where account_id = ${accountId}`;
    assert.equal(count, 2_540, "every follower and followee is a contact with their profile");
  });

  test("the plan's backfill cap stops the walk: is_capped only when people were left out", async () => {
    const capped = await freshAccount("basic");
    const exact = await freshAccount("trial");
    const clock = manualClock("2026-11-20T12:00:00Z");
    for (const [accountId, total, isCapped] of [
      [capped, 2_500, true],
      [exact, 2_000, false],
    ] as const) {
      const fake = handBuiltNetwork();
      fake.lists.followers = people(0, total);
      await syncAccountAudience({ sql: harness.services.sql, clock, network: fake.network }, accountId, { pagesPerRun: 10 });
      const state = await stateOf(accountId, "followers");
      assert.deepEqual([state.status, state.synced_count, state.is_capped], ["complete", 2_000, isCapped], `${total} followers`);
      assert.equal(fake.reads.filter((read) => read.startsWith("followers:")).length, 2, "no page read past the cap");
    }
  });

  test("between walks page 1 adds newcomers first; a day later a re-walk removes unfollows and keeps first-seen order", async () => {
    const accountId = await freshAccount("pro");
    const fake = handBuiltNetwork();
    fake.lists.followers = people(0, 1_500);
    const clock = manualClock("2026-11-20T12:00:00Z");
    const deps = { sql: harness.services.sql, clock, network: fake.network };
    await syncAccountAudience(deps, accountId, { pagesPerRun: 10 });
    assert.equal((await stateOf(accountId, "followers")).synced_count, 1_500);

    // Two newcomers on top (X lists the newest first), three unfollows further down.
    const gone = ["5000100", "5000900", "5001400"];
    const newcomers = people(90_000, 2);
    fake.lists.followers = [...newcomers, ...fake.lists.followers.filter((id) => !gone.includes(id))];
    fake.reads.length = 0;
    clock.advance(61 * MINUTE);
    const between = await syncAccountAudience(deps, accountId, { pagesPerRun: 10 });
    assert.deepEqual(
      fake.reads.filter((read) => read.startsWith("followers:")),
      ["followers:"],
      "only page 1 between walks",
    );
    assert.equal(between.followers.status, "complete");
    let state = await stateOf(accountId, "followers");
    assert.equal(state.synced_count, 1_502, "newcomers added, unfollows not yet seen");
    let rows = await members(accountId, "followers");
    assert.deepEqual(
      rows.slice(0, 3).map((row) => row.x_user_id),
      [...newcomers, "5000000"],
    );
    assert.ok(rows.some((row) => row.x_user_id === "5000900"));

    clock.advance(DAY);
    await syncAccountAudience(deps, accountId, { pagesPerRun: 10 });
    state = await stateOf(accountId, "followers");
    assert.deepEqual([state.status, state.synced_count, state.generation], ["complete", 1_499, 2]);
    rows = await members(accountId, "followers");
    assert.ok(!rows.some((row) => gone.includes(row.x_user_id)), "unfollows removed");
    assert.deepEqual(
      rows.slice(0, 3).map((row) => row.x_user_id),
      [...newcomers, "5000000"],
      "people seen before keep their place",
    );
    assert.ok(rows.every((row) => row.generation === 2));
  });

  test("the day's page budget: a run reads only what is left of it, then waits for the next UTC day", async () => {
    const accountId = await freshAccount("pro");
    const fake = handBuiltNetwork();
    fake.lists.followers = people(0, 5_000);
    const clock = manualClock("2026-11-20T12:00:00Z");
    const deps = { sql: harness.services.sql, clock, network: fake.network };
    await syncAccountAudience(deps, accountId, { pagesPerRun: 1 });
    assert.deepEqual([(await stateOf(accountId, "followers")).pages_today, (await stateOf(accountId, "followers")).budget_day], [1, "2026-11-20"]);
    await harness.services.sql`
      update audience_sync_state set pages_today = ${AUDIENCE_SYNC_LIMITS.pagesPerDay - 1} where account_id = ${accountId} and kind = 'followers'`;
    clock.advance(5 * MINUTE);
    const last = await syncAccountAudience(deps, accountId, { pagesPerRun: 10 });
    assert.equal(last.followers.pagesRead, 1, "one page left today");
    const state = await stateOf(accountId, "followers");
    assert.equal(state.pages_today, AUDIENCE_SYNC_LIMITS.pagesPerDay);
    assert.equal(state.next_sync_at?.toISOString(), "2026-11-21T00:00:00.000Z");
    const spent = await syncAccountAudience(deps, accountId, { pagesPerRun: 10, force: true });
    assert.deepEqual([spent.followers.result, spent.followers.pagesRead], ["budget_spent", 0]);
    clock.set("2026-11-21T00:00:01Z");
    const nextDay = await syncAccountAudience(deps, accountId, { pagesPerRun: 10 });
    assert.deepEqual([nextDay.followers.result, nextDay.followers.pagesRead], ["synced", 3]);
    assert.equal((await stateOf(accountId, "followers")).pages_today, 3, "a new UTC day, a new budget");
  });

  test("a failing network call pauses the list and leaves the index as it was; the next run resumes the walk", async () => {
    const accountId = harness.world.accounts.other_user;
    await harness.services.sql`update users set plan = 'pro' where id = (select user_id from accounts where id = ${accountId})`;
    const fake = handBuiltNetwork();
    fake.lists.followers = people(0, 3_000);
    fake.lists.following = people(20_000, 10);
    const clock = manualClock("2026-11-20T12:00:00Z");
    const deps = { sql: harness.services.sql, clock, network: fake.network };
    await syncAccountAudience(deps, accountId, { pagesPerRun: 1 });
    const before = await members(accountId, "followers");
    assert.equal(before.length, 1_000);

    fake.state.failAtCursor = "2000";
    clock.advance(5 * MINUTE);
    const failed = await syncAccountAudience(deps, accountId, { pagesPerRun: 5 });
    assert.deepEqual([failed.followers.result, failed.followers.status], ["paused", "paused"]);
    assert.equal(failed.following.status, "complete", "the other lists go on");
    assert.deepEqual(await members(accountId, "followers"), before, "page 2 was read but nothing written");
    const paused = await stateOf(accountId, "followers");
    assert.deepEqual([paused.status, paused.last_error, paused.walk_cursor, paused.synced_count], ["paused", "X is down", "1000", 1_000]);
    assert.equal(paused.next_sync_at?.getTime(), clock.now() + AUDIENCE_SYNC_LIMITS.retrySeconds * 1000);

    const answer = await transports(harness)[0].request("GET", "/v1/audience/followers", { key: harness.world.keys.other_user });
    assert.equal(answer.status, 200);
    assert.deepEqual([answer.body.meta.status, answer.body.meta.synced_count, answer.body.data.length], ["paused", 1_000, 50]);

    fake.state.failAtCursor = undefined;
    assert.equal((await syncAccountAudience(deps, accountId, { pagesPerRun: 5 })).followers.result, "not_due", "waits for its retry time");
    clock.advance(AUDIENCE_SYNC_LIMITS.retrySeconds * 1000);
    fake.reads.length = 0;
    const resumed = await syncAccountAudience(deps, accountId, { pagesPerRun: 5 });
    assert.equal(resumed.followers.status, "complete");
    assert.deepEqual(
      fake.reads.filter((read) => read.startsWith("followers:")),
      ["followers:1000", "followers:2000"],
    );
    const done = await stateOf(accountId, "followers");
    assert.deepEqual([done.synced_count, done.last_error], [3_000, null]);
  });
});

describe("engagers", () => {
  const T0 = Date.parse("2026-11-20T12:00:00Z");
  const at = (days: number) => new Date(T0 + days * DAY);

  async function ownPost(accountId: string, id: string, postedAt: Date, reposts: number, category = "post") {
    await harness.services.sql`
      insert into own_posts (account_id, x_post_id, category, text, posted_at, conversation_id, reposts, synced_at)
      values (${accountId}, ${id}, ${category}, ${`post ${id}`}, ${postedAt}, ${id}, ${reposts}, ${postedAt})`;
  }

  async function receivedReply(accountId: string, id: string, replier: string, postedAt: Date) {
    await harness.services.sql`
      insert into received_replies (account_id, x_post_id, text, posted_at, replier_x_user_id, replier_username, replier_name,
                                    replier_avatar_url, replier_followers_count, replier_verified, in_reply_to_x_post_id, synced_at)
      values (${accountId}, ${id}, 'nice', ${postedAt}, ${replier}, ${`person_${replier}`}, 'P', '', 1, false, '800001', ${postedAt})`;
  }

  async function contact(accountId: string, xUserId: string) {
    const [row] = await harness.services.sql<{ replies_count: number; reposts_count: number; engaged_count: number }[]>`
      select replies_count, reposts_count, engaged_count from contacts where account_id = ${accountId} and x_user_id = ${xUserId}`;
    return row;
  }

  async function repostTimes(accountId: string): Promise<Record<string, string>> {
    const rows = await harness.services.sql<{ x_user_id: string; engaged_at: Date }[]>`
      select x_user_id, engaged_at from audience_reposts where account_id = ${accountId} order by x_user_id`;
    return Object.fromEntries(rows.map((row) => [row.x_user_id, row.engaged_at.toISOString()]));
  }

  test("reposters: engaged_at is the post's time on the first read, the previous read after; only moved counters are re-read", async () => {
    const accountId = await freshAccount("pro");
    const [u1, u2, u3, u4] = people(70_000, 4);
    await ownPost(accountId, "800001", at(-10), 2);
    await ownPost(accountId, "800002", at(-100), 5);
    await ownPost(accountId, "800003", at(-3), 3, "reply");
    await receivedReply(accountId, "810001", u1, at(-5));
    await receivedReply(accountId, "810002", u1, at(-6));
    await receivedReply(accountId, "810003", u3, at(-80));
    const fake = handBuiltNetwork();
    fake.lists.reposters.set("800001", [u1, u2]);
    fake.lists.reposters.set("800002", [u3]);
    fake.lists.reposters.set("800003", [u3]);
    const clock = manualClock(T0);
    const deps = { sql: harness.services.sql, clock, network: fake.network };

    const first = await syncAccountAudience(deps, accountId);
    assert.deepEqual([first.engagers.status, first.engagers.pagesRead], ["complete", 1]);
    assert.deepEqual(
      fake.reads.filter((read) => read.startsWith("reposters")),
      ["reposters 800001:"],
      "only own posts (not replies) of the last 90 days",
    );
    assert.deepEqual(await repostTimes(accountId), { [u1]: at(-10).toISOString(), [u2]: at(-10).toISOString() });
    assert.deepEqual(await contact(accountId, u1), { replies_count: 2, reposts_count: 1, engaged_count: 3 });
    assert.deepEqual(await contact(accountId, u2), { replies_count: 0, reposts_count: 1, engaged_count: 1 });
    assert.deepEqual(await contact(accountId, u3), { replies_count: 1, reposts_count: 0, engaged_count: 1 });
    assert.equal((await stateOf(accountId, "engagers")).synced_count, 3);

    // Unchanged counter: not re-read. Then the counter moves: re-read, the newcomer dated by the last read.
    clock.advance(61 * MINUTE);
    fake.reads.length = 0;
    await syncAccountAudience(deps, accountId);
    assert.deepEqual(
      fake.reads.filter((read) => read.startsWith("reposters")),
      [],
    );
    await harness.services.sql`update own_posts set reposts = 3 where account_id = ${accountId} and x_post_id = '800001'`;
    fake.lists.reposters.set("800001", [u4, u1, u2]);
    clock.advance(61 * MINUTE);
    await syncAccountAudience(deps, accountId);
    assert.deepEqual(
      await repostTimes(accountId),
      { [u1]: at(-10).toISOString(), [u2]: at(-10).toISOString(), [u4]: new Date(T0).toISOString() },
      "the newcomer is dated by the last read of the post (the first run), not by the run that skipped it",
    );

    // The window moves: the reply of 80 days ago leaves first, then the reposts dated 10 days ago.
    clock.set(T0 + 15 * DAY);
    await syncAccountAudience(deps, accountId);
    assert.deepEqual(await contact(accountId, u3), { replies_count: 0, reposts_count: 0, engaged_count: 0 });
    clock.set(T0 + 81 * DAY);
    await syncAccountAudience(deps, accountId);
    assert.deepEqual(await contact(accountId, u1), { replies_count: 2, reposts_count: 0, engaged_count: 2 });
    assert.deepEqual(await contact(accountId, u2), { replies_count: 0, reposts_count: 0, engaged_count: 0 });
    assert.deepEqual(await contact(accountId, u4), { replies_count: 0, reposts_count: 1, engaged_count: 1 });
    assert.equal((await stateOf(accountId, "engagers")).synced_count, 2);
  });

  test("engagers that counted before the content sync stored replies are due again and count them; a commit during their run leaves them due", async () => {
    const { sql } = harness.services;
    const accountId = await freshAccount("pro");
    const [u1, u2] = people(90_000, 2);
    const fake = handBuiltNetwork();
    const clock = manualClock(T0);
    const deps = { sql, clock, network: fake.network };
    /** What a content sync commit storing a reply does (core/content/content_sync.ts). */
    const contentStores = async (id: string, replier: string) => {
      await receivedReply(accountId, id, replier, at(-1));
      await sql`insert into content_sync_state (account_id) values (${accountId}) on conflict do nothing`;
      await bumpEngagementVersion(sql, accountId);
    };
    const due = async () => (await accountsDueForAudienceSync(sql, new Date(clock.now()), 10_000, AUDIENCE_SYNC_LIMITS.pagesPerDay)).includes(accountId);

    assert.equal((await syncAccountAudience(deps, accountId)).engagers.result, "synced", "the first run counts nothing yet");
    clock.advance(MINUTE);
    assert.equal(await due(), false, "counted: not due before the hour");
    await contentStores("830001", u1);
    assert.equal(await due(), true, "the content sync stored a reply since");
    const recount = await syncAccountAudience(deps, accountId);
    assert.deepEqual([recount.followers.result, recount.engagers.result], ["not_due", "synced"]);
    assert.deepEqual(await contact(accountId, u1), { replies_count: 1, reposts_count: 0, engaged_count: 1 });
    assert.equal(await due(), false);
    assert.equal((await syncAccountAudience(deps, accountId)).engagers.result, "not_due");

    // The content commits again while a run reads the new replier's profile: the run counted
    // from the version before, so the engagers stay due and the next run counts the rest.
    await contentStores("830002", u2);
    fake.state.onUsersRead = async () => {
      fake.state.onUsersRead = undefined;
      await contentStores("830003", u1);
    };
    assert.equal((await syncAccountAudience(deps, accountId)).engagers.result, "synced");
    assert.equal(await due(), true, "a commit during the run");
    await syncAccountAudience(deps, accountId);
    assert.deepEqual(await contact(accountId, u1), { replies_count: 2, reposts_count: 0, engaged_count: 2 });
    assert.deepEqual(await contact(accountId, u2), { replies_count: 1, reposts_count: 0, engaged_count: 1 });
    assert.equal(await due(), false);
  });

  test("a failing reposters read pauses the engagers and counts nothing; the next run reads it", async () => {
    const accountId = await freshAccount("pro");
    const [u1] = people(80_000, 1);
    await ownPost(accountId, "820001", at(-2), 1);
    const fake = handBuiltNetwork();
    fake.lists.reposters.set("820001", [u1]);
    fake.state.failReposters = true;
    const clock = manualClock(T0);
    const deps = { sql: harness.services.sql, clock, network: fake.network };
    const failed = await syncAccountAudience(deps, accountId);
    assert.equal(failed.engagers.status, "paused");
    assert.deepEqual(await repostTimes(accountId), {});
    assert.equal(await contact(accountId, u1), undefined);
    fake.state.failReposters = false;
    clock.advance(AUDIENCE_SYNC_LIMITS.retrySeconds * 1000);
    const resumed = await syncAccountAudience(deps, accountId);
    assert.equal(resumed.engagers.status, "complete");
    assert.deepEqual(await contact(accountId, u1), { replies_count: 0, reposts_count: 1, engaged_count: 1 });
  });
});

describe("the jobs", () => {
  test("dispatch_audience_sync enqueues one sync per due account, once per slot; sync_account_audience runs it", async () => {
    const accountId = await freshAccount("pro");
    const clock = manualClock("2027-01-01T00:00:00Z");
    assert.ok(periodicJobs.some((job) => job.kind === "dispatch_audience_sync" && job.everySeconds === 300));
    const queued = await dispatchAudienceSync({ sql: harness.services.sql, clock });
    assert.ok(queued >= 1, "a never-synced account is due");
    assert.equal(await dispatchAudienceSync({ sql: harness.services.sql, clock }), 0, "the same slot enqueues nothing twice");
    const jobs = await harness.services.sql<{ payload: { accountId: string } }[]>`
      select payload from jobs where kind = 'sync_account_audience' and payload->>'accountId' = ${accountId}`;
    assert.equal(jobs.length, 1);

    const fake = handBuiltNetwork();
    fake.lists.followers = people(0, 30);
    await jobHandlers({ sql: harness.services.sql, clock, network: fake.network }).sync_account_audience(jobs[0].payload, {} as JobRow);
    assert.equal((await stateOf(accountId, "followers")).synced_count, 30);
    clock.advance(5 * MINUTE);
    await dispatchAudienceSync({ sql: harness.services.sql, clock });
    const [{ count }] = await harness.services.sql<{ count: number }[]>`
      select count(*)::int as count from jobs where kind = 'sync_account_audience' and payload->>'accountId' = ${accountId}`;
    assert.equal(count, 1, "a synced account is not due again before its next run");
  });
});
