/**
 * X's rate windows (docs/x.md "X's rate limits") against the fake X server, whose answers
 * carry `x-rate-limit-*` and which answers 429 past a window, on a clock the test moves: the
 * keeper's windows in memory and in Redis (one atomic step, shared by two processes' stores);
 * a DM campaign of 100 paced at X's 15 per 15 minutes; an X 429 mid-campaign rescheduled at
 * X's reset with nothing sent twice; a scheduled thread that meets a used-up window waits for
 * it, without spending its job's attempts, and publishes after the reset.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import type { SimulatedNetwork } from "../adapters/x/simulated/simulated_network.ts";
import { createXApiNetwork } from "../adapters/x/x_api/x_api_network.ts";
import { reportedWindowKey, xRateWindows } from "../adapters/x/x_api/x_rate_windows.ts";
import { openNetwork, openXRateWindows } from "../adapters/x/open_network.ts";
import { networkSettingsOf } from "../adapters/runtime/config.ts";
import { createMemoryRateWindows } from "../adapters/counters/memory_rate_windows.ts";
import { createRedisRateWindows } from "../adapters/counters/redis_rate_windows.ts";
import type { RateWindows } from "../core/ports/rate_windows.ts";
import { enqueueCampaign } from "../core/dm/create_campaign.ts";
import { dmAllowanceOf, readDmLimits } from "../core/dm/dm_limits.ts";
import type { AccountContext } from "../core/context.ts";
import { sendDueMessages } from "../core/dm/dm_sender.ts";
import { NetworkRateLimitedError } from "../core/network/network_errors.ts";
import type { SocialNetwork } from "../core/network/social_network.ts";
import { runJobsOnce } from "../core/jobs/job_runner.ts";
import { deductPostQuota } from "../core/post_quota/post_quota.ts";
import { schedulePublication } from "../core/scheduling/schedule_publication.ts";
import { insertPost, updatePostColumns } from "../core/scheduling/scheduled_posts_queries.ts";
import { jobHandlers } from "../jobs/task_list.ts";
import { startFakeXServer, type FakeXServer } from "./support/fake_x_api/fake_x_server.ts";
import type { FakeRateWindowOptions } from "./support/fake_x_api/x_rate_windows.ts";
import { dmPeople, dmSenderAccount, messagedPeople } from "./support/dm_people.ts";
import { startHarness, type Harness } from "./support/harness.ts";
import { manualClock } from "./support/manual_clock.ts";
import { testRedisPrefix } from "./support/test_database.ts";

const REDIS_URL = process.env.REDIS_URL;
const REDIS_SKIP = REDIS_URL ? false : "REDIS_URL not set: set REDIS_URL=redis://host:port to run the Redis rate windows cases";
const MINUTES_15 = 15 * 60_000;
const DM_ENDPOINT = /^\/2\/dm_conversations\/with\/\d+\/messages$/;

let harness: Harness;
let people: ReturnType<typeof dmPeople>;
const sim = () => harness.services.network as SimulatedNetwork;
const sql = () => harness.services.sql;

before(async () => {
  harness = await startHarness();
  people = dmPeople(sim(), await messagedPeople(sql()));
});
after(() => harness.close());

/** A fake X serving the harness's world on `clock`, with `account` acting through `token`. */
async function fakeX(clock: ReturnType<typeof manualClock>, account: string, token: string, rateWindows: FakeRateWindowOptions = {}): Promise<FakeXServer> {
  return startFakeXServer({ network: sim(), clock, userTokens: { [token]: account }, rateWindows });
}

/** The X API network over `fake` with the rate-window keeper on `store`. */
function xNetwork(fake: FakeXServer, clock: ReturnType<typeof manualClock>, store: RateWindows, account: string, token: string): SocialNetwork {
  return createXApiNetwork({
    baseUrl: fake.url,
    bearerToken: fake.bearerToken,
    clock,
    timeoutMs: 5000,
    userToken: (id) => (id === account ? token : undefined),
    watchers: [xRateWindows({ store, clock })],
  });
}

const dmRequests = (fake: FakeXServer) => fake.requests.filter((request) => request.method === "POST" && DM_ENDPOINT.test(request.pathname));

async function queueCampaign(account: string, recipients: string[], now: number) {
  const allowance = (await dmAllowanceOf(sql(), account))!;
  const list = recipients.map((x_user_id, i) => ({ x_user_id, name: `Person ${i}`, handle: `person_${i}` }));
  return sql().begin((tx) =>
    enqueueCampaign(tx, { accountId: account, allowance, now, message: "Hello [first]", recipients: list, spread: false, source: "api" }),
  );
}

/** Each recipient's DMs from `account` on the network. */
async function deliveredCounts(account: string, recipients: string[]): Promise<number[]> {
  const dms: { recipientId: string; senderId: string }[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 10; page++) {
    const result = await sim().directMessages(account, { limit: 100, ...(cursor ? { cursor } : {}) });
    dms.push(...result.items);
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return recipients.map((id) => dms.filter((dm) => dm.senderId === account && dm.recipientId === id).length);
}

const sharedPrefix = testRedisPrefix();
/**
 * Two processes' views of the windows: in memory, the one store of a process (its server and
 * in-process job runner share it); in Redis, two connections under one prefix.
 */
const storeCases: { name: string; skip: string | false; pair: () => [RateWindows, RateWindows] }[] = [
  {
    name: "in memory",
    skip: false,
    pair: () => {
      const store = createMemoryRateWindows();
      return [store, store];
    },
  },
  {
    name: "in Redis",
    skip: REDIS_SKIP,
    pair: () => [createRedisRateWindows({ url: REDIS_URL!, prefix: sharedPrefix }), createRedisRateWindows({ url: REDIS_URL!, prefix: sharedPrefix })],
  },
];
const closeAll = (stores: RateWindows[]) => Promise.all([...new Set(stores)].map((store) => store.close()));

/** A test clock on a whole second, as X's resets are (epoch seconds). */
const wholeSecondClock = () => manualClock(Math.floor(Date.now() / 1000) * 1000);

for (const { name, skip, pair } of storeCases) {
  describe(`the rate windows ${name}`, { skip }, () => {
    test("a rolling window takes its limit in any span of its length, then says when room comes back; all or nothing", async () => {
      const [store, other] = pair();
      try {
        const key = `t:${randomBytes(4).toString("hex")}`;
        const check = { key, limit: 3, windowMs: 60_000 };
        const wide = { key: `${key}:wide`, limit: 100, windowMs: 60_000 };
        const start = Date.parse("2026-12-01T10:00:00Z");
        for (const at of [0, 10_000, 20_000]) assert.deepEqual(await store.reserve({ reported: [], rolling: [check, wide] }, start + at), { allowed: true });
        // Full: refused until the oldest leaves; the wide window took nothing for the refused request.
        assert.deepEqual(await other.reserve({ reported: [], rolling: [wide, check] }, start + 30_000), { allowed: false, retryAtMs: start + 60_000, key });
        const narrowWide = { ...wide, limit: 4 };
        assert.deepEqual(await store.reserve({ reported: [], rolling: [narrowWide] }, start + 30_000), { allowed: true }, "three taken, a fourth fits");
        assert.equal((await store.reserve({ reported: [], rolling: [narrowWide] }, start + 30_000)).allowed, false);
        assert.equal((await other.reserve({ reported: [], rolling: [check] }, start + 59_999)).allowed, false);
        assert.equal((await other.reserve({ reported: [], rolling: [check] }, start + 60_000)).allowed, true);
      } finally {
        await closeAll([store, other]);
      }
    });

    test("concurrent reservations never take more than the window holds", async () => {
      const stores = pair();
      try {
        const check = { key: `c:${randomBytes(4).toString("hex")}`, limit: 15, windowMs: MINUTES_15 };
        const now = Date.now();
        const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => stores[i % 2].reserve({ reported: [], rolling: [check] }, now)));
        assert.equal(answers.filter((answer) => answer.allowed).length, 15);
      } finally {
        await closeAll(stores);
      }
    });

    test("a reported window is taken from until it is used up, refused until its reset, and stale reports are ignored", async () => {
      const [store, other] = pair();
      try {
        const key = `w:${randomBytes(4).toString("hex")}`;
        const now = Date.parse("2026-12-01T10:00:00Z");
        const reset = now + 600_000;
        await store.record(key, { limit: 15, remaining: 2, resetAtMs: reset }, now);
        // An answer sent earlier in the same window arrives late: the lower remaining stays.
        await other.record(key, { limit: 15, remaining: 9, resetAtMs: reset }, now);
        // A report of a window that already ended is stale.
        await other.record(key, { limit: 15, remaining: 15, resetAtMs: now - 1 }, now);
        assert.deepEqual(await other.peek(key, now), { limit: 15, remaining: 2, resetAtMs: reset });
        assert.equal((await store.reserve({ reported: [key], rolling: [] }, now)).allowed, true);
        assert.equal((await other.reserve({ reported: [key], rolling: [] }, now)).allowed, true);
        assert.deepEqual(await store.reserve({ reported: [key], rolling: [] }, now + 1000), { allowed: false, retryAtMs: reset, key });
        assert.equal((await other.reserve({ reported: [key], rolling: [] }, reset)).allowed, true, "the window ended: unknown again");
        // The next window replaces the old one.
        await other.record(key, { limit: 15, remaining: 14, resetAtMs: reset + 900_000 }, reset);
        assert.equal((await store.peek(key, reset))?.remaining, 14);
      } finally {
        await closeAll([store, other]);
      }
    });

    test("X's headers seen by one network hold back another network sharing the store", async () => {
      const clock = wholeSecondClock();
      const account = await dmSenderAccount(sql(), people.open(1)[0]);
      const token = `user-token-shared-${randomBytes(3).toString("hex")}`;
      const fake = await fakeX(clock, account, token, { limits: { "POST /2/tweets": { user: 1 } } });
      const stores = pair();
      try {
        const [first, second] = stores.map((store) => xNetwork(fake, clock, store, account, token));
        await first.publishPost({ authorId: account, text: `Shared window ${randomBytes(4).toString("hex")}` });
        const window = await stores[1].peek(reportedWindowKey("POST /2/tweets", account), clock.now());
        assert.equal(window?.remaining, 0);
        const sent = fake.requests.length;
        const refused = await second.publishPost({ authorId: account, text: "Held back" }).catch((error: unknown) => error);
        assert.ok(refused instanceof NetworkRateLimitedError, String(refused));
        assert.equal(clock.now() + refused.retryAfter * 1000 >= window!.resetAtMs, true);
        assert.equal(fake.requests.length, sent, "the held-back request never reached X");
        clock.set(window!.resetAtMs);
        await second.publishPost({ authorId: account, text: `After the reset ${randomBytes(4).toString("hex")}` });
      } finally {
        await fake.close();
        await closeAll(stores);
      }
    });
  });
}

describe("DM campaigns within X's windows", () => {
  test("a campaign of 100 goes out at most 15 per 15 minutes (X's documented DM window), each message once", async () => {
    const clock = wholeSecondClock();
    const account = await dmSenderAccount(sql(), people.open(1)[0]);
    const token = `user-token-campaign-${randomBytes(3).toString("hex")}`;
    const fake = await fakeX(clock, account, token);
    const store = createMemoryRateWindows();
    try {
      const x = xNetwork(fake, clock, store, account, token);
      const recipients = people.open(100);
      const campaign = await queueCampaign(account, recipients, clock.now());
      const runs: number[] = [];
      for (let run = 0; run < 10 && runs.reduce((a, b) => a + b, 0) < 100; run++) {
        const result = await sendDueMessages({ sql: sql(), network: x, clock }, account);
        runs.push(result.sent);
        if (result.stop === "idle") break;
        assert.equal(result.stop, "later");
        assert.ok(result.nextAt && result.nextAt.getTime() >= clock.now() + MINUTES_15 - 1000, `waits for the window, got ${result.nextAt?.toISOString()}`);
        clock.set(result.nextAt!.getTime());
      }
      assert.deepEqual(runs, [15, 15, 15, 15, 15, 15, 10]);
      // X never had to refuse: the keeper held every 16th message back.
      assert.equal(dmRequests(fake).length, 100);
      const sentAt = (
        await sql()<{ sent_at: Date }[]>`select sent_at from dm_messages where campaign_id = ${campaign.id} and status = 'sent' order by sent_at`
      ).map((row) => row.sent_at.getTime());
      assert.equal(sentAt.length, 100);
      for (let i = 15; i < sentAt.length; i++) assert.ok(sentAt[i] - sentAt[i - 15] >= MINUTES_15, `16 DMs within 15 minutes at message ${i}`);
      assert.deepEqual(await deliveredCounts(account, recipients), new Array(100).fill(1));
    } finally {
      await fake.close();
      await store.close();
    }
  });

  test("an X 429 mid-campaign reschedules at X's reset, without spending the message's attempts, and sends nothing twice", async () => {
    const clock = wholeSecondClock();
    const account = await dmSenderAccount(sql(), people.open(1)[0]);
    const token = `user-token-429-${randomBytes(3).toString("hex")}`;
    const fake = await fakeX(clock, account, token);
    const store = createMemoryRateWindows();
    try {
      const x = xNetwork(fake, clock, store, account, token);
      const recipients = people.open(8);
      const campaign = await queueCampaign(account, recipients, clock.now());
      assert.equal((await sendDueMessages({ sql: sql(), network: x, clock }, account, { maxMessages: 3 })).sent, 3);
      // Someone else used the account's window (the X app itself): X refuses the next send, saying when its window resets.
      const known = await store.peek(reportedWindowKey("POST /2/dm_conversations/with/:id/messages", account), clock.now());
      assert.equal(known?.remaining, 12, "X's headers of the three sends were kept");
      const reset = known!.resetAtMs / 1000;
      const headers = { "x-rate-limit-limit": "15", "x-rate-limit-remaining": "0", "x-rate-limit-reset": String(reset) };
      fake.script({ path: DM_ENDPOINT, kind: "status", status: 429, headers, body: { errors: [{ code: 88, message: "Rate limit exceeded" }] } });
      const refused = await sendDueMessages({ sql: sql(), network: x, clock }, account);
      assert.deepEqual({ sent: refused.sent, stop: refused.stop, nextAt: refused.nextAt?.getTime() }, { sent: 0, stop: "later", nextAt: reset * 1000 });
      const waiting = await sql()<{ status: string; send_after: Date; publish_attempts: number; reason: string | null }[]>`
        select status, send_after, publish_attempts, reason from dm_messages where campaign_id = ${campaign.id} and reason like 'X rate limit%'`;
      assert.equal(waiting.length, 1);
      assert.deepEqual([waiting[0].status, waiting[0].send_after.getTime(), waiting[0].publish_attempts], ["pending", reset * 1000, 0]);
      assert.equal(dmRequests(fake).length, 4, "three sent, one refused by X");
      // Before the reset nothing is tried: the keeper knows the window is used up.
      clock.set(reset * 1000 - 1000);
      assert.equal((await sendDueMessages({ sql: sql(), network: x, clock }, account)).sent, 0);
      assert.equal(dmRequests(fake).length, 4);
      clock.set(reset * 1000);
      const rest = await sendDueMessages({ sql: sql(), network: x, clock }, account);
      assert.deepEqual({ sent: rest.sent, stop: rest.stop }, { sent: 5, stop: "idle" });
      assert.equal(dmRequests(fake).length, 9);
      assert.deepEqual(await deliveredCounts(account, recipients), new Array(8).fill(1));
    } finally {
      await fake.close();
      await store.close();
    }
  });
});

describe("the keeper", () => {
  test("the settings a job thread receives name the same Redis (or memory) for X's windows as the server's", async () => {
    const settings = networkSettingsOf({ xApiBaseUrl: "https://api.x.com", xBearerToken: "app", redisUrl: REDIS_URL, redisPrefix: sharedPrefix });
    assert.deepEqual(settings.xApi?.rateWindows, { redisUrl: REDIS_URL, redisPrefix: sharedPrefix });
    assert.equal(openXRateWindows(networkSettingsOf({})), undefined, "the simulated network keeps no X windows");
    // Two openings of the settings (the server's ports and a job thread's) share what one records.
    const [server, thread] = [openXRateWindows(settings)!, openXRateWindows(settings)!];
    try {
      const now = Date.now();
      const key = `job-thread:${randomBytes(4).toString("hex")}`;
      await server.record(key, { limit: 15, remaining: 0, resetAtMs: now + 60_000 }, now);
      const seen = await thread.peek(key, now);
      assert.equal(seen?.remaining, REDIS_URL ? 0 : undefined, REDIS_URL ? "shared through Redis" : "in memory each opening is its own process's");
    } finally {
      await server.close();
      await thread.close();
    }
  });

  test("X's 24-hour user headers, when sent, hold requests back until their reset", async () => {
    const clock = wholeSecondClock();
    const account = await dmSenderAccount(sql(), people.open(1)[0]);
    const token = `user-token-day-${randomBytes(3).toString("hex")}`;
    const fake = await fakeX(clock, account, token);
    const store = createMemoryRateWindows();
    try {
      const x = xNetwork(fake, clock, store, account, token);
      const [first, second] = people.open(2);
      const reset = clock.now() / 1000 + 3_600;
      const headers = { "x-user-limit-24hour-limit": "1440", "x-user-limit-24hour-remaining": "0", "x-user-limit-24hour-reset": String(reset) };
      fake.script({
        path: DM_ENDPOINT,
        kind: "status",
        status: 201,
        headers,
        body: { data: { dm_event_id: "1900000000000000001", dm_conversation_id: `${account}-${first}` } },
      });
      await x.sendDm({ senderId: account, recipientId: first, text: "The day's last" });
      const refused = await x.sendDm({ senderId: account, recipientId: second, text: "Held back" }).catch((error: unknown) => error);
      assert.ok(refused instanceof NetworkRateLimitedError, String(refused));
      assert.equal(clock.now() + refused.retryAfter * 1000, reset * 1000);
      assert.equal(dmRequests(fake).length, 1);
      clock.set(reset * 1000);
      await x.sendDm({ senderId: account, recipientId: second, text: "After the day's reset" });
      assert.equal(dmRequests(fake).length, 2);
    } finally {
      await fake.close();
      await store.close();
    }
  });
});

describe("DM limits and spread with X's window", () => {
  const X_WINDOW = { perWindow: 15, windowMs: MINUTES_15, perDay: 1_440 };

  test("a campaign for the X API is placed 15 to each 15 minutes, never faster than X allows", async () => {
    const account = await dmSenderAccount(sql(), people.open(1)[0]);
    const allowance = (await dmAllowanceOf(sql(), account))!;
    const now = Math.floor(Date.now() / 1000) * 1000;
    const recipients = people.open(100).map((x_user_id) => ({ x_user_id }));
    const campaign = await sql().begin((tx) =>
      enqueueCampaign(tx, { accountId: account, allowance, now, message: "Hi", recipients, spread: true, source: "api", networkWindow: X_WINDOW }),
    );
    assert.equal(campaign.counts.queued, 100);
    const rows = await sql()<{ send_after: Date }[]>`select send_after from dm_messages where campaign_id = ${campaign.id} order by send_after`;
    const perWindow = new Map<number, number>();
    for (const row of rows) {
      const window = (row.send_after.getTime() - now) / MINUTES_15;
      perWindow.set(window, (perWindow.get(window) ?? 0) + 1);
    }
    assert.deepEqual(
      [...perWindow],
      [0, 1, 2, 3, 4, 5, 6].map((window) => [window, window < 6 ? 15 : 10]),
    );
  });

  test("GET /v1/dm/limits shows X's window beyond the plan's: used in the last 15 minutes, and null on the simulated network", async () => {
    const account = await dmSenderAccount(sql(), people.open(1)[0]);
    const now = Math.floor(Date.now() / 1000) * 1000;
    const campaign = await queueCampaign(account, people.open(16), now - 20 * 60_000);
    // 15 sent in the last 15 minutes, the oldest 10 minutes ago; one sent 20 minutes ago is outside the window.
    await sql()`update dm_messages set status = 'sent', sent_at = ${new Date(now - 10 * 60_000)} where campaign_id = ${campaign.id}`;
    await sql()`update dm_messages set sent_at = ${new Date(now - 20 * 60_000)} where id = (select min(id) from dm_messages where campaign_id = ${campaign.id})`;
    const limitsOn = (network: SocialNetwork) =>
      readDmLimits({ services: { ...harness.services, network, clock: { now: () => now } }, account: { id: account } } as unknown as AccountContext);
    const onX = await limitsOn({ ...sim(), info: { kind: "x_api", searchWindowDays: 7, dmWindow: X_WINDOW } });
    assert.deepEqual(onX.data.network_window, {
      max: 15,
      window_minutes: 15,
      used: 15,
      remaining: 0,
      resets_at: new Date(now + 5 * 60_000).toISOString(),
      daily_max: 1_440,
    });
    assert.equal((await limitsOn(sim())).data.network_window, null);
  });
});

describe("posts within X's windows", () => {
  const JOB_KIND = "publish_scheduled_post";

  test("a thread meeting a used-up window waits for its reset without spending attempts, then publishes each part once", async () => {
    const account = harness.world.accounts.main;
    const clock = wholeSecondClock();
    const token = `user-token-post-${randomBytes(3).toString("hex")}`;
    // X's window for posting, small: two posts per 15 minutes for this user.
    const fake = await fakeX(clock, account, token, { limits: { "POST /2/tweets": { user: 2 } } });
    const store = createMemoryRateWindows();
    try {
      // The configured network (open_network.ts), with the keeper on the store the ports would open.
      const x = openNetwork({
        sql: sql(),
        clock,
        xApi: { baseUrl: fake.url, bearerToken: fake.bearerToken, userToken: token, timeoutMs: 5000 },
        rateWindows: store,
      });
      const tag = randomBytes(4).toString("hex");
      for (const n of [1, 2]) await x.publishPost({ authorId: account, text: `Uses the window ${tag} (${n})` });
      const { postId, version } = await sql().begin(async (tx) => {
        const now = new Date(clock.now());
        const parts = [1, 2].map((n) => ({ text: `Thread ${tag}, part ${n}`, media: [] }));
        const id = await insertPost(tx, account, { status: "scheduled", scheduled_for: new Date(clock.now() - 1000), parts }, now);
        const charge = await deductPostQuota(tx, account, [`post:${id}`], { now, reason: "scheduled" });
        await updatePostColumns(tx, id, { quota_period_start: charge.periodStart }, now);
        await schedulePublication(tx, [id]);
        const [row] = await tx<{ publish_version: number }[]>`select publish_version from scheduled_posts where id = ${id}`;
        return { postId: id, version: row.publish_version };
      });
      // One attempt only: waiting for a window must not spend it.
      await sql()`update jobs set max_attempts = 1 where kind = ${JOB_KIND} and payload->>'postId' = ${String(postId)}`;
      const handlers = jobHandlers({ sql: sql(), clock, network: x });
      const runJob = () => runJobsOnce({ sql: sql(), handlers: { [JOB_KIND]: handlers[JOB_KIND] }, runnerId: "x-windows-test", kinds: [JOB_KIND] });
      const job = async () =>
        (
          await sql()<{ status: string; attempts: number; run_at: Date; last_error: string | null }[]>`
            select status, attempts, run_at, last_error from jobs where kind = ${JOB_KIND} and payload->>'postId' = ${String(postId)}`
        )[0];
      const postStatus = async () => (await sql()<{ status: string }[]>`select status from scheduled_posts where id = ${postId}`)[0].status;
      const posted = () => fake.requests.filter((request) => request.method === "POST" && request.pathname === "/2/tweets").length;

      const window = (await store.peek(reportedWindowKey("POST /2/tweets", account), clock.now()))!;
      assert.equal(window.remaining, 0);
      assert.equal((await runJob()).retried, 1);
      let row = await job();
      assert.deepEqual([row.status, row.attempts, row.run_at.getTime()], ["queued", 0, window.resetAtMs]);
      assert.match(row.last_error ?? "", /waits for the network's rate window/);
      assert.equal(await postStatus(), "scheduled");
      assert.equal(posted(), 2, "nothing sent while the window was used up");

      // After the reset part 1 goes out, and X refuses part 2 with a 429 of its own (another client used the window).
      clock.set(window.resetAtMs);
      await sql()`update jobs set run_at = now() - interval '1 second' where kind = ${JOB_KIND} and payload->>'postId' = ${String(postId)}`;
      const reset = Math.ceil(clock.now() / 1000) + 900;
      const headers = { "x-rate-limit-limit": "2", "x-rate-limit-remaining": "0", "x-rate-limit-reset": String(reset) };
      const body = { errors: [{ code: 88, message: "Rate limit exceeded" }] };
      fake.script({ path: "/2/tweets", match: (sent: any) => sent?.text === `Thread ${tag}, part 2`, kind: "status", status: 429, headers, body });
      assert.equal((await runJob()).retried, 1);
      row = await job();
      assert.deepEqual([row.status, row.attempts, row.run_at.getTime()], ["queued", 0, reset * 1000]);
      assert.equal(posted(), 4, "part 1 sent, part 2 refused by X");

      clock.set(reset * 1000);
      await sql()`update jobs set run_at = now() - interval '1 second' where kind = ${JOB_KIND} and payload->>'postId' = ${String(postId)}`;
      assert.equal((await runJob()).completed, 1);
      assert.equal(await postStatus(), "sent");
      const onNetwork = await sql()<{ text: string; client_token: string | null }[]>`
        select text, client_token from network_posts where author_id = ${account} and text like ${`Thread ${tag}%`} order by text`;
      assert.deepEqual(
        onNetwork.map((post) => post.text),
        [`Thread ${tag}, part 1`, `Thread ${tag}, part 2`],
        "each part once",
      );
      assert.equal(posted(), 5);
      void version;
    } finally {
      await fake.close();
      await store.close();
    }
  });
});
