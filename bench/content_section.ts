/**
 * The content section of `npm run bench` (docs/areas.md "Content and analytics"): `GET /v1/posts/analytics` over 366
 * days on an account with 100,000 stored posts, one request at a time through the full REST
 * path, against a bare h3 route answering the same body from the same queries on the same pool
 * (target: p50 under 50 ms and within 2x of the bare route; the SQL alone printed beside); then the content sync of an account with 10,000 posts on the
 * network, run after run until its backfill is done (time and peak memory, figures only).
 */
import { performance } from "node:perf_hooks";
import type { Services } from "../core/context.ts";
import { H3 } from "h3";
import { analyticsOf } from "../core/content/post_analytics.ts";
import { serveFetch } from "./serve_fetch.ts";
import { CONTENT_SYNC_LIMITS, syncAccountContent } from "../core/content/content_sync.ts";
import { refreshPostDays } from "../core/content/content_sync_queries.ts";
import type { NetworkPost, NetworkUser, Page } from "../core/network/network_records.ts";
import type { SocialNetwork } from "../core/network/social_network.ts";
import { seedSectionUser } from "./seed.ts";
import { timeAlternating, type SequentialResult } from "./sequential_timing.ts";
import { formatColumns, round } from "./report.ts";

/** What the section needs. */
export interface ContentTarget {
  services: Services;
  origin: string;
  keyPrefix: string;
}

/** Settings: posts stored for analytics, calls per case, posts on the network for the sync. */
export interface ContentSettings {
  posts: number;
  calls: number;
  syncPosts: number;
}

const DAY_MS = 86_400_000;
const TARGET_P50_MS = 50;
const TARGET_MULTIPLE = 2;
const BARE_ANALYTICS_PATH = "/bare/analytics";

/** Seeds, measures, prints and answers the section's figures. */
export async function measureContent(target: ContentTarget, settings: ContentSettings, notReal: string | undefined) {
  const { sql } = target.services;
  const user = await seedSectionUser(sql, { keyPrefix: target.keyPrefix, label: "content" });
  console.log("");
  console.log(`Content: seeding ${settings.posts.toLocaleString("en")} synced posts over 366 days on one account ...`);
  const until = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS);
  const since = new Date(until.getTime() - 366 * DAY_MS);
  const seedStart = performance.now();
  await seedOwnPosts(target.services, user.ownerId, settings.posts, since, until);
  const seedSeconds = (performance.now() - seedStart) / 1000;

  const query = `since=${since.toISOString()}&until=${until.toISOString()}`;
  const headers = { Authorization: `Bearer ${user.key}` };
  // The baseline: a bare h3 route answering the same body from the same function and pool,
  // with no auth, limits, tRPC or zod, as the scheduled-posts list section compares.
  const bareApp = new H3();
  bareApp.get(BARE_ANALYTICS_PATH, async () => ({ data: await analyticsOf(sql, user.ownerId, since, until) }));
  const bareServer = await serveFetch((request) => bareApp.fetch(request));
  const answered = async (url: string, init?: RequestInit) => {
    const response = await fetch(url, init);
    const body = (await response.json()) as { data?: { days: unknown[]; totals: { posts: number } } };
    return response.ok && body.data?.days.length === 366 && body.data.totals.posts > 0;
  };
  let full: SequentialResult;
  let bare: SequentialResult;
  let sqlOnly: SequentialResult;
  try {
    [full, bare, sqlOnly] = await timeAlternating(settings.calls, [
      () => answered(`${target.origin}/v1/posts/analytics?${query}`, { headers }),
      () => answered(`${bareServer.url}${BARE_ANALYTICS_PATH}?${query}`),
      async () => (await analyticsOf(sql, user.ownerId, since, until)).days.length === 366,
    ]);
  } finally {
    await bareServer.close();
  }
  const multiple = full.p50Us / bare.p50Us;
  const pass = full.p50Us / 1000 < TARGET_P50_MS && multiple <= TARGET_MULTIPLE;

  console.log("");
  console.log(
    `== GET /v1/posts/analytics, 366 days, ${settings.posts.toLocaleString("en")} posts (one request at a time, ${settings.calls} each, alternating) ==`,
  );
  console.log(
    formatColumns(["case", "p50 ms", "p99 ms", "avg ms"], [row("full REST path", full), row("bare route (same queries)", bare), row("SQL only", sqlOnly)]),
  );
  console.log(
    `(seeded in ${seedSeconds.toFixed(1)} s; bare = an h3 route calling the same analyticsOf on the same pool and answering the same JSON, ` +
      "no auth, limits, tRPC or zod; SQL only = analyticsOf without HTTP)",
  );
  console.log(
    `target: p50 under ${TARGET_P50_MS} ms and within ${TARGET_MULTIPLE}x the bare route: ${pass ? "PASS" : "FAIL"} ` +
      `(${(full.p50Us / 1000).toFixed(2)} ms, ${multiple.toFixed(2)}x)`,
  );

  const sync = await measureSync(target.services, settings.syncPosts);
  console.log("");
  console.log(`== Content sync of an account with ${settings.syncPosts.toLocaleString("en")} posts on the network ==`);
  console.log(
    `${sync.runs} runs of at most ${CONTENT_SYNC_LIMITS.pagesPerRun} pages (${sync.pages} pages of ${CONTENT_SYNC_LIMITS.pageSize}): ` +
      `${sync.seconds.toFixed(2)} s in all, ${(sync.seconds / sync.runs).toFixed(2)} s per run; ` +
      `heap peak +${sync.heapPeakMb.toFixed(1)} MB, RSS peak +${sync.rssPeakMb.toFixed(1)} MB over the start; ${sync.stored.toLocaleString("en")} posts stored`,
  );
  if (notReal) console.log(`(${notReal.replace(/^!!! | !!!$/g, "")})`);
  const invalid = full.failed + bare.failed + sqlOnly.failed + (sync.stored === settings.syncPosts ? 0 : 1);
  if (invalid > 0) console.log(`INVALID: ${invalid} calls answered wrongly`);
  return {
    summary: {
      posts: settings.posts,
      calls: settings.calls,
      seed_s: round(seedSeconds, 2),
      analytics_full_p50_ms: round(full.p50Us / 1000, 3),
      analytics_full_p99_ms: round(full.p99Us / 1000, 3),
      analytics_bare_p50_ms: round(bare.p50Us / 1000, 3),
      analytics_sql_p50_ms: round(sqlOnly.p50Us / 1000, 3),
      multiple: round(multiple, 3),
      pass,
      sync: {
        posts: settings.syncPosts,
        runs: sync.runs,
        pages: sync.pages,
        seconds: round(sync.seconds, 3),
        heap_peak_mb: round(sync.heapPeakMb, 1),
        rss_peak_mb: round(sync.rssPeakMb, 1),
      },
      valid: invalid === 0,
      real_target: notReal === undefined,
    },
    valid: invalid === 0,
  };
}

function row(name: string, result: SequentialResult): string[] {
  return [name, (result.p50Us / 1000).toFixed(2), (result.p99Us / 1000).toFixed(2), (result.avgUs / 1000).toFixed(2)];
}

/** `count` own posts spread over [since, until): 70% posts, 20% replies, 10% reposts, in one statement. */
async function seedOwnPosts(services: Services, accountId: string, count: number, since: Date, until: Date): Promise<void> {
  const span = until.getTime() - since.getTime();
  await services.sql`
    insert into own_posts (account_id, x_post_id, category, is_thread, text, posted_at, conversation_id, likes, replies, reposts, quotes, bookmarks, impressions, synced_at)
    select ${accountId}, (2000000000000000000 + i)::text,
           case when i % 10 = 0 then 'repost' when i % 10 < 3 then 'reply' else 'post' end,
           i % 17 = 0, 'bench post ' || i,
           ${since}::timestamptz + ((i * 7919) % ${span}::bigint) * interval '1 millisecond',
           (2000000000000000000 + i)::text,
           case when i % 10 = 0 then 0 else (i * 31) % 400 end, case when i % 10 = 0 then 0 else (i * 7) % 40 end,
           case when i % 10 = 0 then 0 else (i * 13) % 60 end, case when i % 10 = 0 then 0 else i % 9 end,
           case when i % 10 = 0 then 0 else (i * 3) % 25 end, case when i % 10 = 0 then 0 else (i * 97) % 20000 end, now()
      from generate_series(1, ${count}) as i`;
  await services.sql`
    insert into account_daily_stats (account_id, day, followers_count, recorded_at)
    select ${accountId}, d::date, 5000 + (extract(doy from d)::int * 9), now()
      from generate_series(${since}::date, ${until}::date, interval '1 day') as d`;
  const days = await services.sql<{ day: string }[]>`
    select to_char(d, 'YYYY-MM-DD') as day from generate_series(${since}::date, ${until}::date, interval '1 day') as d`;
  await refreshPostDays(
    services.sql,
    accountId,
    days.map((row) => row.day),
  );
  await services.sql`analyze own_posts`;
}

/** Syncs a generated account with `count` posts until its backfill is done, sampling memory. */
async function measureSync(services: Services, count: number) {
  const authorId = `19${String(Date.now()).slice(-10).padStart(10, "0")}0000001`;
  await services.sql`insert into users (name, email, plan) values ('Bench sync', ${`bench-sync-${authorId}@bench.threadline.local`}, 'enterprise')`;
  const [{ id: userId }] = await services.sql<{ id: number }[]>`select id from users where email = ${`bench-sync-${authorId}@bench.threadline.local`}`;
  await services.sql`insert into accounts (id, user_id, username, name, avatar_url) values (${authorId}, ${userId}, 'bench_sync', 'Bench Sync', '')`;
  const network = generatedNetwork(authorId, count, Date.now());
  const baseline = process.memoryUsage();
  let heapPeak = baseline.heapUsed;
  let rssPeak = baseline.rss;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    heapPeak = Math.max(heapPeak, now.heapUsed);
    rssPeak = Math.max(rssPeak, now.rss);
  }, 20);
  const started = performance.now();
  let runs = 0;
  let pages = 0;
  try {
    for (;;) {
      const outcome = await syncAccountContent({ sql: services.sql, clock: services.clock, network }, authorId);
      runs += 1;
      pages += outcome.pagesRead;
      if (outcome.backfillDone || outcome.skipped || runs > 100) break;
    }
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  const [{ stored }] = await services.sql<{ stored: number }[]>`select count(*)::int as stored from own_posts where account_id = ${authorId}`;
  return { runs, pages, seconds, stored, heapPeakMb: (heapPeak - baseline.heapUsed) / 2 ** 20, rssPeakMb: (rssPeak - baseline.rss) / 2 ** 20 };
}

/** A network holding `count` posts of one author over the last year, generated page by page (nothing kept). */
function generatedNetwork(authorId: string, count: number, nowMs: number): SocialNetwork {
  const step = Math.floor((360 * DAY_MS) / count);
  const postAt = (i: number): NetworkPost => ({
    id: String(3000000000000000000n + BigInt(count - i)),
    authorId,
    text: `Post number ${i} about shipping small tools and what they taught me.`,
    createdAt: new Date(nowMs - (i + 1) * step).toISOString(),
    kind: i % 10 === 0 ? "repost" : i % 10 < 3 ? "reply" : "post",
    conversationId: String(3000000000000000000n + BigInt(count - i)),
    replyToId: i % 10 > 0 && i % 10 < 3 ? "1" : null,
    replyToUserId: i % 10 > 0 && i % 10 < 3 ? "42" : null,
    quotedId: null,
    repostedId: i % 10 === 0 ? "2" : null,
    isThreadContinuation: false,
    mentionedUserIds: [],
    lang: "en",
    metrics: { likes: i % 300, replies: i % 20, reposts: i % 30, quotes: i % 5, impressions: (i * 37) % 9000, bookmarks: i % 12 },
    media: [],
    article: null,
  });
  const profile: NetworkUser = {
    id: authorId,
    username: "bench_sync",
    name: "Bench Sync",
    description: "",
    location: null,
    url: null,
    avatarUrl: "",
    createdAt: "2020-01-01T00:00:00.000Z",
    protected: false,
    verified: false,
    verifiedType: "none",
    premium: "none",
    followersCount: 1000,
    followingCount: 100,
    postCount: count,
    listedCount: 0,
    pinnedPostId: null,
    canDm: true,
  };
  const empty: Page<NetworkPost> = { items: [] };
  return {
    info: { kind: "simulated", searchWindowDays: 7 },
    async timeline(_id: string, options: { cursor?: string; limit?: number; since?: string } = {}) {
      // Posts newest first; `since` ends the list as the real network's window does.
      const inWindow = options.since ? Math.min(count, Math.max(0, Math.floor((nowMs - Date.parse(options.since)) / step))) : count;
      const start = Number(options.cursor ?? 0);
      const size = options.limit ?? 20;
      const items = Array.from({ length: Math.max(0, Math.min(size, inWindow - start)) }, (_, k) => postAt(start + k));
      return { items, nextCursor: start + size < inWindow ? String(start + size) : undefined };
    },
    async mentions() {
      return empty;
    },
    async userById() {
      return profile;
    },
    async usersByIds() {
      return [];
    },
  } as unknown as SocialNetwork;
}
