/**
 * Own content and analytics (docs/areas.md "Content and analytics"; spec: GET /v1/posts, /v1/replies,
 * /v1/replies/received, /v1/posts/analytics; Versioning 4; errors range_too_large): the
 * demo account's synced year through both transports, and the sync's rules on a
 * hand-built timeline (the counting rule, threads, bounds, failure, deletion, links).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { manualClock } from "./support/manual_clock.ts";
import { syncAccountContent } from "../core/content/content_sync.ts";
import { syncStateOf } from "../core/content/content_sync_queries.ts";
import { categoryOf } from "../core/content/own_content_rows.ts";
import { dispatchContentSync } from "../core/content/content_jobs.ts";
import { NetworkUnavailableError } from "../core/network/network_errors.ts";
import type { NetworkPost, NetworkUser, Page } from "../core/network/network_records.ts";
import type { SocialNetwork } from "../core/network/social_network.ts";

let harness: Harness;
before(async () => {
  harness = await startHarness({ demoContent: true });
});
after(() => harness.close());

const DAY = 86_400_000;

describeMatrix(({ name, transport }) => {
  const get = (path: string, key = harness.world.keys.write) => transport(harness).request("GET", path, { key });

  describe(`the demo account's synced content (${name})`, () => {
    test("GET /v1/posts lists posts (originals, quotes, thread continuations) newest first with counters and flags", async () => {
      const answer = await get("/v1/posts?limit=100");
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const posts = answer.body.data;
      assert.equal(posts.length, 100);
      assert.equal(answer.body.pagination.has_more, true);
      for (const post of posts) {
        assert.equal(post.is_reply, false);
        assert.equal(post.is_repost, false);
        assert.match(post.url, new RegExp(`^https://x\\.com/${harness.world.handles.main}/status/${post.id}$`));
        for (const field of ["likes", "replies", "reposts", "quotes", "bookmarks", "impressions"]) assert.equal(typeof post.metrics[field], "number");
      }
      const times = posts.map((post: { posted_at: string }) => Date.parse(post.posted_at));
      assert.deepEqual(
        times,
        [...times].sort((a, b) => b - a),
      );
      assert.ok(
        posts.some((post: { is_thread: boolean }) => post.is_thread),
        "threads are marked",
      );
      const page2 = await get("/v1/posts?limit=100&page=2");
      assert.ok(!page2.body.data.some((post: { id: string }) => posts.some((first: { id: string }) => first.id === post.id)), "pages do not overlap");
    });

    test("type=replies and type=all; GET /v1/replies lists the same replies newest first", async () => {
      const replies = await get("/v1/posts?type=replies&limit=50");
      assert.ok(replies.body.data.length > 0);
      assert.ok(replies.body.data.every((post: { is_reply: boolean; in_reply_to_post_id: string | null }) => post.is_reply && post.in_reply_to_post_id));
      const sent = await get("/v1/replies?limit=50");
      assert.equal(sent.status, 200);
      assert.deepEqual(
        sent.body.data.map((reply: { id: string }) => reply.id),
        replies.body.data.map((reply: { id: string }) => reply.id),
      );
      assert.ok(sent.body.data.every((reply: { metrics_pending: boolean }) => reply.metrics_pending === false));
      const all = await get("/v1/posts?type=all&limit=100");
      const reposts = all.body.data.filter((post: { is_repost: boolean }) => post.is_repost);
      assert.ok(reposts.length > 0, "reposts appear under type=all");
      assert.ok(reposts.every((post: { metrics: Record<string, number> }) => Object.values(post.metrics).every((value) => value === 0)));
    });

    test("sort=likes and sort=impressions; since/until bound posted_at", async () => {
      for (const sort of ["likes", "impressions"]) {
        const answer = await get(`/v1/posts?sort=${sort}&limit=30`);
        const values = answer.body.data.map((post: { metrics: Record<string, number> }) => post.metrics[sort]);
        assert.deepEqual(
          values,
          [...values].sort((a: number, b: number) => b - a),
          sort,
        );
      }
      const until = new Date(Date.now() - 10 * DAY).toISOString();
      const since = new Date(Date.now() - 40 * DAY).toISOString();
      const windowed = await get(`/v1/posts?type=all&since=${since}&until=${until}&limit=100`);
      assert.ok(windowed.body.data.length > 0);
      for (const post of windowed.body.data) assert.ok(post.posted_at >= since && post.posted_at < until, post.posted_at);
      const backwards = await get(`/v1/posts?since=${until}&until=${since}`);
      assert.equal(backwards.status, 400);
      assert.equal(backwards.body.error.code, "invalid_parameter");
    });

    test("GET /v1/replies/received: recent or most liked first, with the replier's profile and the post answered", async () => {
      const recent = await get("/v1/replies/received?limit=50");
      assert.equal(recent.status, 200, JSON.stringify(recent.body));
      assert.ok(recent.body.data.length > 0);
      const reply = recent.body.data[0];
      assert.ok(reply.author.username && reply.author.x_user_id && typeof reply.author.followers_count === "number");
      assert.notEqual(reply.author.x_user_id, harness.world.accounts.main);
      assert.ok(
        recent.body.data.some((item: { in_reply_to: { text: string | null } }) => item.in_reply_to.text),
        "answered posts carry their text",
      );
      const times = recent.body.data.map((item: { posted_at: string }) => item.posted_at);
      assert.deepEqual(times, [...times].sort().reverse());
      const liked = await get("/v1/replies/received?sort=most_liked&limit=50");
      const likes = liked.body.data.map((item: { likes: number }) => item.likes);
      assert.deepEqual(
        likes,
        [...likes].sort((a: number, b: number) => b - a),
      );
      const bad = await get("/v1/replies/received?sort=oldest");
      assert.equal(bad.status, 400);
      assert.equal(bad.body.error.code, "invalid_parameter");
    });

    test("GET /v1/posts/analytics: 30 zero-filled UTC days by default; totals are the sum of the days and agree with /v1/posts", async () => {
      const answer = await get("/v1/posts/analytics");
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const { totals, days, followers, since, until } = answer.body.data;
      assert.equal(days.length, 30);
      assert.equal(days.at(-1).date, new Date().toISOString().slice(0, 10));
      for (const field of Object.keys(totals)) {
        assert.equal(
          totals[field],
          days.reduce((sum: number, day: Record<string, number>) => sum + day[field], 0),
          field,
        );
      }
      let likes = 0;
      let impressions = 0;
      let counted = { posts: 0, replies_sent: 0, reposts_sent: 0 };
      for (let page = 1; ; page++) {
        const listed = await get(`/v1/posts?type=all&since=${since}&until=${until}&limit=100&page=${page}`);
        for (const post of listed.body.data) {
          likes += post.metrics.likes;
          impressions += post.metrics.impressions;
          const kind = post.is_repost ? "reposts_sent" : post.is_reply ? "replies_sent" : "posts";
          counted = { ...counted, [kind]: counted[kind as keyof typeof counted] + 1 };
        }
        if (!listed.body.pagination.has_more) break;
      }
      assert.equal(totals.likes, likes);
      assert.equal(totals.impressions, impressions);
      assert.deepEqual({ posts: totals.posts, replies_sent: totals.replies_sent, reposts_sent: totals.reposts_sent }, counted);
      assert.ok(totals.posts > 0 && totals.replies_sent > 0);
      assert.ok(followers.start > 0 && followers.end > 0);
      assert.equal(followers.change, followers.end - followers.start);
      assert.ok(
        days.every((day: { followers: number | null }) => typeof day.followers === "number"),
        "90 days of follower history",
      );
    });

    test("analytics over partial days (a window inside one day, or starting and ending mid-day) counts what /v1/posts lists", async () => {
      const base = Math.floor(Date.now() / DAY) * DAY;
      for (const [since, until] of [
        [base - 20 * DAY + 10.5 * 3_600_000, base - 3 * DAY + 7.25 * 3_600_000],
        [base - 5 * DAY + 2 * 3_600_000, base - 5 * DAY + 23 * 3_600_000],
      ]) {
        const window = `since=${new Date(since).toISOString()}&until=${new Date(until).toISOString()}`;
        const analytics = await get(`/v1/posts/analytics?${window}`);
        assert.equal(analytics.status, 200, JSON.stringify(analytics.body));
        let likes = 0;
        let listed = 0;
        for (let page = 1; ; page++) {
          const posts = await get(`/v1/posts?type=all&${window}&limit=100&page=${page}`);
          for (const post of posts.body.data) likes += post.metrics.likes;
          listed += posts.body.data.length;
          if (!posts.body.pagination.has_more) break;
        }
        const { totals } = analytics.body.data;
        assert.equal(totals.likes, likes, window);
        assert.equal(totals.posts + totals.replies_sent + totals.reposts_sent, listed, window);
      }
    });

    test("analytics ranges: 366 days is the most (400 range_too_large beyond); since must precede until", async () => {
      const until = "2026-11-01T00:00:00Z";
      const year = await get(`/v1/posts/analytics?since=2025-10-31T00:00:00Z&until=${until}`);
      assert.equal(year.status, 200, JSON.stringify(year.body));
      assert.equal(year.body.data.days.length, 366);
      const tooLong = await get(`/v1/posts/analytics?since=2025-10-30T23:59:59Z&until=${until}`);
      assert.equal(tooLong.status, 400);
      assert.equal(tooLong.body.error.code, "range_too_large");
      const backwards = await get(`/v1/posts/analytics?since=${until}&until=2026-10-01T00:00:00Z`);
      assert.equal(backwards.status, 400);
      assert.equal(backwards.body.error.code, "invalid_parameter");
    });

    test("a read key may read; a foreign account_id answers 404 account_not_found", async () => {
      assert.equal((await get("/v1/posts/analytics", harness.world.keys.read)).status, 200);
      const foreign = await get(`/v1/posts?account_id=${harness.world.accounts.other_user}`);
      assert.equal(foreign.status, 404);
      assert.equal(foreign.body.error.code, "account_not_found");
    });
  });
});

/** A hand-built network around one author: a timeline, mentions and profiles, with counters for what was read. */
function handBuiltNetwork(authorId: string, timeline: NetworkPost[], mentions: NetworkPost[] = []) {
  const reads: string[] = [];
  const state = { failMentions: false, loopTimeline: false };
  const user = (id: string): NetworkUser => ({
    id,
    username: `user_${id.slice(-4)}`,
    name: `User ${id.slice(-4)}`,
    description: "",
    location: null,
    url: null,
    avatarUrl: `https://x.com/user_${id.slice(-4)}/photo`,
    createdAt: "2020-01-01T00:00:00.000Z",
    protected: false,
    verified: false,
    verifiedType: "none",
    premium: "none",
    followersCount: id === authorId ? 1234 : 50,
    followingCount: 10,
    postCount: timeline.length,
    listedCount: 0,
    pinnedPostId: null,
    canDm: true,
  });
  const paged = (items: NetworkPost[], cursor: string | undefined, limit: number, since?: string): Page<NetworkPost> => {
    const sorted = items.filter((post) => !since || post.createdAt >= since).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    const start = Number(cursor ?? 0);
    const size = Math.min(limit, 2);
    const next = start + size < sorted.length ? String(start + size) : undefined;
    return { items: sorted.slice(start, start + size), nextCursor: state.loopTimeline ? "0" : next };
  };
  const network = {
    info: { kind: "simulated", searchWindowDays: 7 },
    async timeline(_id: string, options: { cursor?: string; limit?: number; since?: string } = {}) {
      reads.push(`timeline:${options.cursor ?? ""}`);
      return paged(timeline, options.cursor, options.limit ?? 20, options.since);
    },
    async mentions(_id: string, options: { cursor?: string; limit?: number } = {}) {
      reads.push(`mentions:${options.cursor ?? ""}`);
      if (state.failMentions) throw new NetworkUnavailableError("X is down");
      return paged(mentions, options.cursor, options.limit ?? 20);
    },
    async userById(id: string) {
      return user(id);
    },
    async usersByIds(ids: readonly string[]) {
      return ids.map(user);
    },
  } as unknown as SocialNetwork;
  return { network, reads, state };
}

function post(id: string, authorId: string, at: string, fields: Partial<NetworkPost> = {}): NetworkPost {
  return {
    id,
    authorId,
    text: `post ${id}`,
    createdAt: at,
    kind: "post",
    conversationId: id,
    replyToId: null,
    replyToUserId: null,
    quotedId: null,
    repostedId: null,
    isThreadContinuation: false,
    mentionedUserIds: [],
    lang: "en",
    metrics: { likes: 10, replies: 2, reposts: 1, quotes: 1, impressions: 500, bookmarks: 3 },
    media: [],
    article: null,
    ...fields,
  };
}

describe("the content sync on a hand-built timeline", () => {
  const clock = manualClock("2026-11-20T12:00:00Z");
  const account = () => harness.world.accounts.other_user;
  const other = "1700000000000000009";
  const timeline = () => {
    const me = account();
    return [
      post("900001", me, "2026-11-20T09:00:00.000Z"),
      post("900002", me, "2026-11-20T09:01:00.000Z", {
        kind: "reply",
        conversationId: "900001",
        replyToId: "900001",
        replyToUserId: me,
        isThreadContinuation: true,
      }),
      post("900003", me, "2026-11-19T10:00:00.000Z", { kind: "reply", conversationId: "800001", replyToId: "800001", replyToUserId: other }),
      post("900004", me, "2026-11-18T10:00:00.000Z", { kind: "repost", repostedId: "800002", text: "RT post" }),
      post("900005", me, "2026-11-17T10:00:00.000Z", { kind: "quote", quotedId: "800003" }),
    ];
  };
  const mentions = () => [
    post("950001", other, "2026-11-20T10:00:00.000Z", {
      kind: "reply",
      conversationId: "900001",
      replyToId: "900001",
      replyToUserId: account(),
      metrics: { likes: 7, replies: 0, reposts: 0, quotes: 0, impressions: 40, bookmarks: 0 },
    }),
    post("950002", other, "2026-11-20T11:00:00.000Z", { kind: "post", mentionedUserIds: [account()] }),
  ];

  test("the counting rule: thread continuations and quotes are posts, answers to others replies, reposts reposts", () => {
    const [first, continuation, reply, repost, quote] = timeline();
    assert.deepEqual([first, continuation, reply, repost, quote].map(categoryOf), ["post", "post", "reply", "repost", "post"]);
  });

  test("a failing network call leaves the stored state as it was; then a run stores everything, in bounded pages", async () => {
    const fake = handBuiltNetwork(account(), timeline(), mentions());
    fake.state.failMentions = true;
    await assert.rejects(syncAccountContent({ sql: harness.services.sql, clock, network: fake.network }, account()), NetworkUnavailableError);
    assert.equal(await syncStateOf(harness.services.sql, account()), undefined);
    const [{ count }] = await harness.services.sql<{ count: number }[]>`select count(*)::int as count from own_posts where account_id = ${account()}`;
    assert.equal(count, 0);

    fake.state.failMentions = false;
    // Two pages a run: the first run reads 2 timeline pages and stops; the next continues the backfill.
    const first = await syncAccountContent({ sql: harness.services.sql, clock, network: fake.network }, account(), { pagesPerRun: 2 });
    assert.deepEqual([first.pagesRead, first.postsStored, first.backfillDone], [2, 4, false]);
    const second = await syncAccountContent({ sql: harness.services.sql, clock, network: fake.network }, account(), { pagesPerRun: 6 });
    assert.equal(second.backfillDone, true);
    assert.ok(second.repliesStored >= 1);

    const key = harness.world.keys.other_user;
    const request = (path: string) => transports(harness)[0].request("GET", path, { key });
    const analytics = await request("/v1/posts/analytics?since=2026-11-17T00:00:00Z&until=2026-11-21T00:00:00Z");
    assert.equal(analytics.status, 200);
    assert.deepEqual(
      { posts: analytics.body.data.totals.posts, replies_sent: analytics.body.data.totals.replies_sent, reposts_sent: analytics.body.data.totals.reposts_sent },
      { posts: 3, replies_sent: 1, reposts_sent: 1 },
    );
    // The repost carries no counters of its own: 4 counted posts of 10 likes each.
    assert.equal(analytics.body.data.totals.likes, 40);
    assert.deepEqual(
      analytics.body.data.days.map((day: { date: string; posts: number }) => [day.date, day.posts]),
      [
        ["2026-11-17", 1],
        ["2026-11-18", 0],
        ["2026-11-19", 0],
        ["2026-11-20", 2],
      ],
    );
    const posts = await request("/v1/posts?type=all");
    const byId = new Map(posts.body.data.map((item: { id: string }) => [item.id, item]));
    assert.equal((byId.get("900001") as { is_thread: boolean }).is_thread, true, "a thread's first post");
    assert.equal((byId.get("900002") as { is_thread: boolean; is_reply: boolean }).is_thread, true);
    assert.equal((byId.get("900002") as { is_reply: boolean }).is_reply, false);
    assert.equal((byId.get("900003") as { is_reply: boolean }).is_reply, true);
    assert.equal((byId.get("900005") as { is_quote: boolean }).is_quote, true);
    const received = await request("/v1/replies/received");
    assert.deepEqual(
      received.body.data.map((item: { id: string; likes: number; in_reply_to: { id: string; text: string } }) => [
        item.id,
        item.likes,
        item.in_reply_to.id,
        item.in_reply_to.text,
      ]),
      [["950001", 7, "900001", "post 900001"]],
      "a mention that is not a reply is left out",
    );
  });

  test("never reads the same page twice in a run, and stops at the day's page budget", async () => {
    const fake = handBuiltNetwork(account(), timeline(), mentions());
    fake.state.loopTimeline = true;
    clock.advance(DAY);
    const looped = await syncAccountContent({ sql: harness.services.sql, clock, network: fake.network }, account(), { pagesPerRun: 50 });
    const timelineReads = fake.reads.filter((read) => read.startsWith("timeline:"));
    assert.equal(new Set(timelineReads).size, timelineReads.length, "no page read twice");
    assert.ok(looped.pagesRead <= 4);
    await harness.services.sql`update content_sync_state set pages_today = 400 where account_id = ${account()}`;
    const spent = await syncAccountContent({ sql: harness.services.sql, clock, network: fake.network }, account());
    assert.deepEqual([spent.skipped, spent.pagesRead], [true, 0]);
  });

  test("a run storing a new received reply or a moved repost counter bumps the engagement version (the audience's engagers count again); a re-read does not", async () => {
    const { sql } = harness.services;
    const deps = (timelinePosts: NetworkPost[], mentionPosts: NetworkPost[]) => ({
      sql,
      clock,
      network: handBuiltNetwork(account(), timelinePosts, mentionPosts).network,
    });
    const version = async () => {
      const [row] = await sql<{ engagement_version: number }[]>`select engagement_version from content_sync_state where account_id = ${account()}`;
      return row.engagement_version;
    };
    clock.advance(DAY);
    const before = await version();
    const reread = await syncAccountContent(deps(timeline(), mentions()), account(), { pagesPerRun: 50 });
    assert.equal(reread.engagementStored, false, "nothing new");
    assert.equal(await version(), before);

    const reply = post("950003", other, "2026-11-21T10:00:00.000Z", { kind: "reply", conversationId: "900001", replyToId: "900001", replyToUserId: account() });
    const replied = await syncAccountContent(deps(timeline(), [...mentions(), reply]), account(), { pagesPerRun: 50 });
    assert.equal(replied.engagementStored, true, "a reply not stored before");
    assert.equal(await version(), before + 1);

    const [first, ...rest] = timeline();
    const reposted = { ...first, metrics: { ...first.metrics, reposts: first.metrics.reposts + 2 } };
    const moved = await syncAccountContent(deps([reposted, ...rest], [...mentions(), reply]), account(), { pagesPerRun: 50 });
    assert.equal(moved.engagementStored, true, "a repost counter that moved");
    assert.equal(await version(), before + 2);
  });

  test("a post deleted on the network leaves the stored list at the next complete read; published posts link to their scheduled post", async () => {
    clock.advance(DAY);
    const [scheduled] = await harness.services.sql<{ id: string }[]>`
      insert into scheduled_posts (account_id, status, parts, sent_at, x_post_ids)
      select ${account()}, 'sent', '[{"text":"post 900005","media":[]}]'::jsonb, now(), array['900005']
      returning id::text`;
    const remaining = timeline().filter((item) => item.id !== "900001");
    const fake = handBuiltNetwork(account(), remaining, mentions());
    await syncAccountContent({ sql: harness.services.sql, clock, network: fake.network }, account(), { pagesPerRun: 50 });
    const posts = await transports(harness)[0].request("GET", "/v1/posts?type=all", { key: harness.world.keys.other_user });
    const ids = posts.body.data.map((item: { id: string }) => item.id);
    assert.ok(!ids.includes("900001"));
    const quote = posts.body.data.find((item: { id: string }) => item.id === "900005");
    assert.equal(quote.scheduled_post_id, Number(scheduled.id));
  });

  test("page 1 of /v1/posts carries what Threadline published in the last 4 hours before the sync read it (metrics_pending)", async () => {
    const { sql } = harness.services;
    const [scheduled] = await sql<{ id: string }[]>`
      insert into scheduled_posts (account_id, status, parts, sent_at, x_post_ids, publish_version)
      select ${account()}, 'sent', '[{"text":"fresh one","media":[]},{"text":"fresh two","media":[]}]'::jsonb, now(), array['990001', '990002'], 1
      returning id::text`;
    await sql`
      insert into publish_parts (post_id, publish_version, part_index, state, token, x_post_id, started_at, published_at)
      values (${scheduled.id}, 1, 0, 'published', 't0', '990001', now(), now() - interval '2 minutes'),
             (${scheduled.id}, 1, 1, 'published', 't1', '990002', now(), now() - interval '1 minute'),
             (${scheduled.id}, 1, 2, 'published', 't2', '990003', now(), now() - interval '5 hours')`;
    const key = harness.world.keys.other_user;
    for (const transport of transports(harness)) {
      const first = await transport.request("GET", "/v1/posts?limit=2", { key });
      assert.equal(first.status, 200);
      const pending = first.body.data.filter((item: { metrics_pending: boolean }) => item.metrics_pending);
      assert.deepEqual(
        pending.map((item: { id: string; text: string; in_reply_to_post_id: string | null; is_thread: boolean }) => [
          item.id,
          item.text,
          item.in_reply_to_post_id,
          item.is_thread,
        ]),
        [
          ["990002", "fresh two", "990001", true],
          ["990001", "fresh one", null, true],
        ],
        "newest first; older than 4 hours left out",
      );
      assert.ok(
        pending.every(
          (item: { metrics: Record<string, number>; synced_at: string | null; scheduled_post_id: number }) =>
            Object.values(item.metrics).every((value) => value === 0) && item.synced_at === null && item.scheduled_post_id === Number(scheduled.id),
        ),
      );
      assert.equal(first.body.data.length, 2, "limit is a maximum: the two pending parts fill page 1");
      assert.equal(first.body.pagination.has_more, true);
      // The pages walk one list: the pending parts, then every synced post once, in order.
      const synced = await transport.request("GET", "/v1/posts?limit=100&sort=likes", { key });
      const walked: string[] = [];
      for (let page = 1; page <= 50; page++) {
        const answer = await transport.request("GET", `/v1/posts?limit=3&page=${page}`, { key });
        assert.equal(answer.status, 200);
        assert.ok(answer.body.data.length <= 3, `page ${page} holds ${answer.body.data.length}`);
        walked.push(...answer.body.data.map((item: { id: string }) => item.id));
        if (!answer.body.pagination.has_more) break;
      }
      assert.deepEqual(walked.slice(0, 2), ["990002", "990001"]);
      assert.deepEqual(
        [...walked.slice(2)].sort(),
        synced.body.data.map((item: { id: string }) => item.id).sort(),
        "every synced post once, none lost to the pending ones",
      );
      for (const path of [
        "/v1/posts?limit=2&page=2",
        `/v1/posts?since=${new Date(Date.now() - 86_400_000).toISOString()}`,
        "/v1/posts?sort=likes",
        "/v1/replies",
      ]) {
        const other = await transport.request("GET", path, { key });
        assert.ok(!other.body.data.some((item: { metrics_pending: boolean }) => item.metrics_pending), path);
      }
    }
  });

  test("dispatch_content_sync enqueues one job per due account, once per slot", async () => {
    const now = new Date("2026-12-01T00:00:00Z");
    const dispatchClock = manualClock(now.getTime());
    const queued = await dispatchContentSync({ sql: harness.services.sql, clock: dispatchClock });
    assert.ok(queued >= 1);
    assert.equal(await dispatchContentSync({ sql: harness.services.sql, clock: dispatchClock }), 0, "the same slot enqueues nothing twice");
    const [{ count }] = await harness.services.sql<{ count: number }[]>`
      select count(*)::int as count from jobs where kind = 'sync_account_content' and payload->>'accountId' = ${account()}`;
    assert.equal(count, 1);
  });
});
