/**
 * `GET /v1/inspiration/media` (supplement "### Inspiration"; spec Limits 9), through both
 * transports: modes, filters checked on the results, bounds, no URL but `source_url`, the
 * burst and daily limits on a manual clock, free cached repeats, limits failing closed, and
 * the hosted library's HTTP adapter against a loopback fake.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { startHarness, transports, type Harness, type Transport } from "./support/harness.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { manualClock } from "./support/manual_clock.ts";
import { startFakeMediaLibrary, type FakeMediaLibraryServer } from "./support/fake_media_library_server.ts";
import { createContextInner } from "../core/context.ts";
import { createUser } from "../core/accounts/users.ts";
import { createKey } from "../core/auth/keys.ts";
import { consumeAllowances } from "../core/limits/allowances.ts";
import { MEDIA_SEARCHES_DAILY } from "../core/inspiration/media_search_limits.ts";
import { MEDIA_PLATFORMS } from "../core/ports/media_item_schema.ts";
import { createSimulatedMediaLibrary, LIBRARY_DAYS } from "../adapters/inspiration/simulated_media_library.ts";
import { CONTENT_LABELS } from "../adapters/inspiration/media_vocabulary.ts";
import { openMediaLibrary } from "../adapters/inspiration/open_media_library.ts";

const START = "2026-11-20T12:00:00Z";
const clock = manualClock(START);
let harness: Harness;
before(async () => {
  harness = await startHarness({ config: { clock } });
});
after(() => harness.close());

/** A new user on the largest plan (request buckets never interfere), with a read-only key. */
async function newOwner(h: Harness = harness): Promise<{ key: string; ownerId: string }> {
  const username = `im_${randomBytes(5).toString("hex")}`;
  const { userId, mainAccountId } = await createUser(h.services.sql, { name: "Media", plan: "enterprise" }, { username, name: "Media Tester" });
  const { key } = await createKey(h.services.sql, { userId, name: "media", scopes: ["read"], prefix: h.services.settings.keyPrefix });
  return { key, ownerId: mainAccountId };
}

/** Fresh searches the owner spent today (a zero-unit check only reads). */
async function dailyUsed(ownerId: string, h: Harness = harness): Promise<number> {
  const outcome = await consumeAllowances(createContextInner({ services: h.services }), ownerId, [{ spec: MEDIA_SEARCHES_DAILY, units: 0 }]);
  assert.equal(outcome.status, "allowed");
  return outcome.status === "allowed" ? outcome.allowances[0].used : -1;
}

const ITEM_KEYS = ["author", "caption", "content_type", "engagement", "id", "media_type", "platform", "posted_at", "source_url", "summary"];

/** Every string anywhere in `value` that looks like a URL, with its path. */
function urlsIn(value: unknown, path = ""): string[] {
  if (typeof value === "string") return /^[a-z][a-z0-9+.-]*:\/\//i.test(value) || /\.(jpe?g|png|webp|gif|mp4|mov)(\?|$)/i.test(value) ? [path] : [];
  if (value && typeof value === "object") return Object.entries(value).flatMap(([key, inner]) => urlsIn(inner, path ? `${path}.${key}` : key));
  return [];
}

function assertItemShape(item: any, mode: "search" | "browse"): void {
  assert.deepEqual(Object.keys(item).sort(), mode === "search" ? [...ITEM_KEYS, "score"].sort() : ITEM_KEYS);
  assert.deepEqual(urlsIn(item), ["source_url"], `only source_url is a URL: ${JSON.stringify(item)}`);
  assert.match(item.source_url, /^https:\/\//);
  assert.ok(MEDIA_PLATFORMS.includes(item.platform));
  assert.ok(["video", "image"].includes(item.media_type));
  for (const field of ["likes", "comments"]) assert.ok(Number.isInteger(item.engagement[field]) && item.engagement[field] >= 0);
  assert.equal(typeof item.author.handle, "string");
  assert.equal(typeof item.author.name, "string");
  assert.ok(Date.parse(item.posted_at) <= clock.now(), "nothing from the future");
  if (mode === "search") assert.ok(item.score >= 0 && item.score <= 1);
}

describeMatrix(({ index, name }) => {
  describe(`inspiration media over ${name}`, () => {
    let owner: { key: string; ownerId: string };
    let transport: Transport;
    before(async () => {
      owner = await newOwner();
      transport = transports(harness)[index];
    });
    const get = (query: string, key = owner.key) => transport.request("GET", `/v1/inspiration/media${query}`, { key });
    // Each case starts with a full burst (20 refills in 60 s): the limits have their own cases.
    const rest = () => clock.advance(60_000);

    test("without q it browses the newest items: mode browse, no score, newest first, 20 by default", async () => {
      rest();
      const answer = await get("");
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body.meta, { mode: "browse", cached: false });
      assert.equal(answer.body.data.length, 20);
      for (const item of answer.body.data) assertItemShape(item, "browse");
      const times = answer.body.data.map((item: any) => Date.parse(item.posted_at));
      assert.deepEqual(
        times,
        [...times].sort((a, b) => b - a),
      );
      assert.match(answer.headers.get("x-ratelimit-limit") ?? "", /^\d+$/);
      const blank = await get("?q=%20%20");
      assert.equal(blank.body.meta.mode, "browse");
    });

    test("with q it searches: mode search, every item scored and matching, best first", async () => {
      rest();
      const answer = await get("?q=AI%20agents&limit=50");
      assert.equal(answer.status, 200);
      assert.equal(answer.body.meta.mode, "search");
      assert.ok(answer.body.data.length > 10);
      for (const item of answer.body.data) {
        assertItemShape(item, "search");
        assert.ok(item.score > 0);
      }
      const scores = answer.body.data.map((item: any) => item.score);
      assert.deepEqual(
        scores,
        [...scores].sort((a, b) => b - a),
      );
      // The best results name agents in their text.
      assert.match(`${answer.body.data[0].caption} ${answer.body.data[0].summary}`.toLowerCase(), /agent/);
    });

    test("platforms, media_type, content_type and time_filter filter the results", async () => {
      rest();
      const platforms = await get("?platforms=youtube,reddit&limit=60");
      assert.equal(platforms.status, 200);
      assert.deepEqual([...new Set(platforms.body.data.map((item: any) => item.platform))].sort(), ["reddit", "youtube"]);
      const videos = await get("?media_type=video&limit=60");
      assert.ok(videos.body.data.length === 60 && videos.body.data.every((item: any) => item.media_type === "video"));
      const images = await get("?media_type=image&platforms=instagram&limit=30");
      assert.ok(images.body.data.length > 0 && images.body.data.every((item: any) => item.media_type === "image" && item.platform === "instagram"));
      const label = await get("?content_type=Behind%20the%20scenes&limit=30");
      assert.ok(label.body.data.length > 0 && label.body.data.every((item: any) => item.content_type === "behind_the_scenes"));
      for (const [filter, hours] of [
        ["24h", 24],
        ["7d", 168],
        ["30d", 720],
      ] as const) {
        const recent = await get(`?time_filter=${filter}&limit=120`);
        assert.equal(recent.status, 200);
        assert.ok(recent.body.data.length > 0, filter);
        const since = clock.now() - hours * 3_600_000;
        assert.ok(
          recent.body.data.every((item: any) => Date.parse(item.posted_at) >= since),
          filter,
        );
      }
      // One item per 30 minutes: the last 24 hours hold 48, so 120 asked answers those 48 at most.
      const day = await get("?time_filter=24h&limit=120");
      assert.ok(day.body.data.length <= 48);
      const searched = await get("?q=design&time_filter=30d&platforms=x&limit=120");
      assert.ok(searched.body.data.every((item: any) => item.platform === "x" && Date.parse(item.posted_at) >= clock.now() - 720 * 3_600_000));
    });

    test("limit is 1 to 120 with no pagination; 0 and 121 are 400 invalid_parameter", async () => {
      rest();
      assert.equal((await get("?limit=1")).body.data.length, 1);
      const most = await get("?limit=120");
      assert.equal(most.body.data.length, 120);
      assert.equal(most.body.pagination, undefined);
      for (const bad of ["0", "121", "2.5", "many"]) {
        const answer = await get(`?limit=${bad}`);
        assert.equal(answer.status, 400, bad);
        assert.equal(answer.body.error.code, "invalid_parameter");
        assert.match(answer.body.error.message, /limit/);
      }
    });

    test("an unknown platform, time_filter or media_type is 400 invalid_parameter naming the field", async () => {
      for (const [query, field] of [
        ["?platforms=x,tiktok", "platforms"],
        ["?time_filter=1h", "time_filter"],
        ["?media_type=gif", "media_type"],
        [`?q=${"a".repeat(201)}`, "q"],
      ]) {
        const answer = await get(query);
        assert.equal(answer.status, 400, query);
        assert.equal(answer.body.error.code, "invalid_parameter");
        assert.match(answer.body.error.message, new RegExp(field));
      }
    });

    test("an unknown content_type answers zero items and still counts as a fresh search", async () => {
      rest();
      const before = await dailyUsed(owner.ownerId);
      const answer = await get("?content_type=interpretive_dance");
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body.data, []);
      assert.equal(await dailyUsed(owner.ownerId), before + 1);
    });

    test("a repeat of the same normalised query within 15 minutes is cached and free; after that it is fresh again", async () => {
      rest();
      const first = await get("?q=Cold%20email&platforms=x,linkedin&limit=10");
      assert.equal(first.body.meta.cached, false);
      const used = await dailyUsed(owner.ownerId);
      clock.advance(14 * 60_000);
      const repeat = await get("?q=%20cold%20%20EMAIL&platforms=linkedin,x,x&limit=10");
      assert.deepEqual(repeat.body.meta, { mode: "search", cached: true });
      assert.deepEqual(repeat.body.data, first.body.data);
      assert.equal(await dailyUsed(owner.ownerId), used);
      // Another limit is another query.
      assert.equal((await get("?q=cold%20email&platforms=x,linkedin&limit=11")).body.meta.cached, false);
      clock.advance(60_001);
      const expired = await get("?q=cold%20email&platforms=x,linkedin&limit=10");
      assert.equal(expired.body.meta.cached, false);
      assert.equal(await dailyUsed(owner.ownerId), used + 2);
    });

    test("a burst of 20 fresh searches, the 21st 429 rate_limited with Retry-After 3, one more 3 s later; cached repeats still answer", async () => {
      const burstOwner = await newOwner();
      const search = (n: number) => get(`?q=topic${n}`, burstOwner.key);
      for (let n = 0; n < 20; n++) assert.equal((await search(n)).status, 200, `search ${n}`);
      const refused = await search(20);
      assert.equal(refused.status, 429);
      assert.equal(refused.body.error.code, "rate_limited");
      assert.equal(refused.body.error.bucket, "inspiration_media_burst");
      assert.equal(refused.body.error.limit, 20);
      assert.equal(refused.body.error.retry_after, 3);
      assert.equal(refused.headers.get("retry-after"), "3");
      assert.match(refused.headers.get("x-ratelimit-limit") ?? "", /^\d+$/);
      // A cached repeat costs nothing, so it answers while the bucket is empty.
      const repeat = await search(3);
      assert.deepEqual([repeat.status, repeat.body.meta?.cached], [200, true]);
      clock.advance(2_999);
      assert.equal((await search(21)).status, 429);
      clock.advance(1);
      assert.equal((await search(22)).status, 200);
      assert.equal((await search(23)).status, 429);
      // Refused searches spent nothing from the day.
      assert.equal(await dailyUsed(burstOwner.ownerId), 21);
    });

    test("500 fresh searches a UTC day, then 429 rate_limited until midnight, which starts a fresh day", async () => {
      const dayOwner = await newOwner();
      const ctx = createContextInner({ services: harness.services });
      await consumeAllowances(ctx, dayOwner.ownerId, [{ spec: MEDIA_SEARCHES_DAILY, units: 499 }]);
      rest();
      assert.equal((await get("?q=last%20one", dayOwner.key)).status, 200);
      const refused = await get("?q=one%20more", dayOwner.key);
      assert.equal(refused.status, 429);
      assert.equal(refused.body.error.code, "rate_limited");
      assert.equal(refused.body.error.bucket, "inspiration_media_daily");
      assert.equal(refused.body.error.limit, 500);
      const midnight = Math.floor(clock.now() / 86_400_000 + 1) * 86_400;
      assert.equal(refused.body.error.reset_at, midnight);
      const wait = Math.ceil(midnight - clock.now() / 1000);
      assert.equal(refused.headers.get("retry-after"), String(wait));
      assert.equal(refused.body.error.retry_after, wait);
      // A repeat is still free.
      assert.equal((await get("?q=last%20one", dayOwner.key)).body.meta.cached, true);
      clock.set(midnight * 1000 + 1_000);
      assert.equal((await get("?q=one%20more", dayOwner.key)).status, 200);
    });

    test("limits are per account owner: one owner's spent burst leaves another's untouched", async () => {
      const [a, b] = [await newOwner(), await newOwner()];
      for (let n = 0; n < 20; n++) await get(`?q=owner${n}`, a.key);
      assert.equal((await get("?q=owner20", a.key)).status, 429);
      assert.equal((await get("?q=owner20", b.key)).status, 200);
    });
  });
});

describe("limits fail closed (spec rule 9)", () => {
  let faulty: Harness;
  before(async () => {
    faulty = await startHarness({ config: { clock, faults: "counters" } });
  });
  after(() => faulty.close());

  test("when the counters cannot answer, a fresh search is 429 rate_limited with a short Retry-After; request buckets fail open", async () => {
    const owner = await newOwner(faulty);
    for (const transport of transports(faulty)) {
      const answer = await transport.request("GET", "/v1/inspiration/media?q=anything", { key: owner.key });
      assert.equal(answer.status, 429, transport.name);
      assert.equal(answer.body.error.code, "rate_limited");
      assert.equal(answer.body.error.bucket, "inspiration_media_daily");
      assert.equal(answer.headers.get("retry-after"), "30");
    }
  });
});

describe("the simulated library", () => {
  test("is deterministic for a seed and a time, and differs by seed", async () => {
    const query = { platforms: [...MEDIA_PLATFORMS], nowMs: Date.parse(START), mediaType: "all" as const, limit: 50 };
    const one = await createSimulatedMediaLibrary({ seed: 1 }).search(query);
    assert.deepEqual(await createSimulatedMediaLibrary({ seed: 1 }).search(query), one);
    assert.notDeepEqual(await createSimulatedMediaLibrary({ seed: 2 }).search(query), one);
  });

  test(`holds thousands of items over ${LIBRARY_DAYS} days, on all six platforms and every content label`, async () => {
    const items = await createSimulatedMediaLibrary({ seed: 1 }).search({
      platforms: [...MEDIA_PLATFORMS],
      nowMs: Date.parse(START),
      mediaType: "all",
      limit: 100_000,
    });
    assert.ok(items.length > 8_000, String(items.length));
    assert.deepEqual([...new Set(items.map((item) => item.platform))].sort(), [...MEDIA_PLATFORMS].sort());
    assert.deepEqual([...new Set(items.map((item) => item.content_type))].sort(), [...CONTENT_LABELS].sort());
    assert.ok(items.every((item) => item.platform !== "youtube" || item.media_type === "video"));
    const oldest = Date.parse(items[items.length - 1].posted_at);
    assert.ok(oldest >= Date.parse(START) - LIBRARY_DAYS * 86_400_000);
    const views = items.flatMap((item) => (item.engagement.views === null ? [] : [item.engagement.views])).sort((a, b) => a - b);
    assert.ok(views[Math.floor(views.length / 2)] > 100_000, "viral posts have viral views");
  });
});

describe("the hosted library over HTTP (INSPIRATION_MEDIA_URL)", () => {
  let fake: FakeMediaLibraryServer;
  let hosted: Harness;
  before(async () => {
    fake = await startFakeMediaLibrary();
    // The fake builds the simulated library's 8,640 items on its first search (about 0.5 s on
    // the 2-core CI machine), so a 500 ms bound could trip on an answer that was only slow;
    // 2 s still ends the scripted hang quickly.
    hosted = await startHarness({ config: { clock, inspirationMediaUrl: fake.url, inspirationMediaKey: "media-secret", inspirationMediaTimeoutMs: 2000 } });
  });
  after(async () => {
    await hosted.close();
    await fake.close();
  });

  test("sends the documented request with the bearer key and answers the source's items without its media URLs", async () => {
    const owner = await newOwner(hosted);
    for (const transport of transports(hosted)) {
      // Past the 15-minute cache: each transport's search reaches the source.
      clock.advance(16 * 60_000);
      const answer = await transport.request(
        "GET",
        `/v1/inspiration/media?q=Design%20system&platforms=instagram,x&time_filter=7d&media_type=image&content_type=Carousel&limit=7`,
        {
          key: owner.key,
        },
      );
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const sent = fake.requests[fake.requests.length - 1];
      assert.deepEqual([sent.method, sent.path, sent.headers.authorization], ["POST", "/search", "Bearer media-secret"]);
      assert.deepEqual(sent.body, {
        q: "design system",
        platforms: ["x", "instagram"],
        since: new Date(clock.now() - 7 * 86_400_000).toISOString(),
        until: new Date(clock.now()).toISOString(),
        media_type: "image",
        content_type: "carousel",
        limit: 7,
      });
      assert.equal(answer.body.meta.mode, "search");
      for (const item of answer.body.data) {
        assertItemShape(item, "search");
        assert.equal(item.content_type, "carousel");
      }
      const browse = await transport.request("GET", "/v1/inspiration/media?limit=3&platforms=reddit", { key: owner.key });
      assert.equal(browse.body.data.length, 3);
      for (const item of browse.body.data) assertItemShape(item, "browse");
      assert.equal(fake.requests[fake.requests.length - 1].body.q, null);
    }
  });

  test("an unreachable source is 503 upstream_unavailable, a slow one 504 upstream_timeout (both give the day's unit back), a failing one 502 upstream_error", async () => {
    const owner = await newOwner(hosted);
    const [inProcess, http] = transports(hosted);
    clock.advance(60_000);
    const cases = [
      { reply: { kind: "status", status: 503 }, status: 503, code: "upstream_unavailable", spends: 0 },
      { reply: { kind: "status", status: 401 }, status: 503, code: "upstream_unavailable", spends: 0 },
      { reply: { kind: "hang" }, status: 504, code: "upstream_timeout", spends: 0 },
      { reply: { kind: "status", status: 500 }, status: 502, code: "upstream_error", spends: 1 },
      { reply: { kind: "malformed" }, status: 502, code: "upstream_error", spends: 1 },
    ] as const;
    for (const [n, item] of cases.entries()) {
      const before = await dailyUsed(owner.ownerId, hosted);
      fake.script(item.reply);
      const answer = await (n % 2 === 0 ? inProcess : http).request("GET", `/v1/inspiration/media?q=failure${n}`, { key: owner.key });
      assert.equal(answer.status, item.status, item.reply.kind);
      assert.equal(answer.body.error.code, item.code);
      assert.equal(await dailyUsed(owner.ownerId, hosted), before + item.spends, item.reply.kind);
      // A failure is not cached: the same query asks the source again.
      const retry = await inProcess.request("GET", `/v1/inspiration/media?q=failure${n}`, { key: owner.key });
      assert.deepEqual([retry.status, retry.body.meta?.cached], [200, false]);
    }
  });

  test("a malformed INSPIRATION_MEDIA_URL or timeout stops the start with the variable named", () => {
    assert.throws(() => openMediaLibrary({ url: "ftp://media.example" }), /INSPIRATION_MEDIA_URL/);
    assert.throws(() => openMediaLibrary({ url: "https://media.example", timeoutMs: 0 }), /INSPIRATION_MEDIA_TIMEOUT_MS/);
  });
});
