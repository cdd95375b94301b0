/**
 * GET /v1/inspiration (supplement: Inspiration; spec: Other endpoints): the topic
 * classifier measured on a labelled set, outlier scores on a hand-built corpus with known
 * rates, then filters, sorts, paging and errors on the simulated network's corpus,
 * through both transports.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Answer, type Harness } from "./support/harness.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { manualClock } from "./support/manual_clock.ts";
import { classifyTopics } from "../core/inspiration/topic_classifier.ts";
import { INSPIRATION_TOPICS } from "../core/inspiration/topic_lexicon.ts";
import { ingestInspiration } from "../core/inspiration/ingest_inspiration.ts";
import { type NewInspirationPost, refreshTierRates, upsertInspirationPosts } from "../core/inspiration/inspiration_queries.ts";
import { TOPIC_EXAMPLES } from "./fixtures/topic_examples.ts";
import { jobHandlers, periodicJobs } from "../jobs/task_list.ts";
import type { JobRow } from "../core/jobs/jobs_queries.ts";

// A clock that stands still: the simulated world posts nothing new between two ingests.
const clock = manualClock(Date.now());
let harness: Harness;
before(async () => {
  harness = await startHarness({ config: { clock } });
});
after(() => harness.close());

const get = (path: string, index = 0, key = harness.world.keys.write): Promise<Answer> => transports(harness)[index].request("GET", path, { key });

function assertInvalid(answer: Answer, field: string) {
  assert.equal(answer.status, 400, JSON.stringify(answer.body));
  assert.equal(answer.body.error.code, "invalid_parameter");
  assert.match(answer.body.error.message, new RegExp(field));
}

describe("topic classifier", () => {
  test("classifies the labelled set with precision and recall of at least 0.85 per topic", (t) => {
    assert.ok(TOPIC_EXAMPLES.length >= 120, `${TOPIC_EXAMPLES.length} examples`);
    for (const topic of INSPIRATION_TOPICS) {
      let truePositives = 0;
      let falsePositives = 0;
      let falseNegatives = 0;
      for (const example of TOPIC_EXAMPLES) {
        const said = classifyTopics(example.text).topics.includes(topic);
        const truth = example.topics.includes(topic);
        if (said && truth) truePositives++;
        else if (said) falsePositives++;
        else if (truth) falseNegatives++;
      }
      const precision = truePositives / (truePositives + falsePositives);
      const recall = truePositives / (truePositives + falseNegatives);
      const line = `${topic}: precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)} (${truePositives + falseNegatives} positives of ${TOPIC_EXAMPLES.length})`;
      t.diagnostic(line);
      console.log(`topic classifier ${line}`);
      assert.ok(precision >= 0.85, line);
      assert.ok(recall >= 0.85, line);
    }
  });

  test("a strong plug is promotional, a mention of a newsletter is not", () => {
    assert.equal(classifyTopics("My new course is live! Use code LAUNCH for 30% off, link in bio").promotional, true);
    assert.equal(classifyTopics("I unsubscribed from every newsletter and my focus doubled").promotional, false);
  });
});

/** A hand-built post: `engagements` split over likes, replies, reposts and quotes. */
function handBuilt(n: number, followers: number | null, engagements: number, text = `zebracorn growth note ${n}`): NewInspirationPost {
  const likes = engagements - 3 * Math.floor(engagements / 10);
  const part = Math.floor(engagements / 10);
  return {
    post_id: String(9_100_000_000_000 + n),
    author_id: String(9_200_000_000 + n),
    author_username: `zebra_${n}`,
    author_name: `Zebra ${n}`,
    author_avatar_url: null,
    author_verified: false,
    author_followers: followers,
    text,
    url: `https://x.com/zebra_${n}/status/${9_100_000_000_000 + n}`,
    lang: "en",
    posted_at: new Date(Date.UTC(2026, 10, 1, 12, n)),
    likes,
    replies: part,
    reposts: part,
    quotes: part,
    bookmarks: 0,
    impressions: engagements * 40,
    topics: 0,
    promotional: false,
  };
}

describe("a fresh server on the simulated network", () => {
  test("fills the empty corpus on the first search, so the first request finds posts", async () => {
    const answer = await get("/v1/inspiration?q=startup");
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.ok(answer.body.data.length > 0);
    await harness.services.sql`delete from inspiration_posts`;
    await harness.services.sql`delete from inspiration_tier_rates`;
  });
});

describe("outlier scores on a hand-built corpus", () => {
  // Tier under 1k followers (500 each): rates 0.01 .. 0.05, median 0.03.
  // Tier 10k-100k (50,000 each): rates 0.01, 0.02, 0.03, 0.04, 0.2, median 0.03.
  // Tier 1M+: a single post, too few to measure. One author with an unknown follower count.
  const small = [5, 10, 15, 20, 25].map((engagements, i) => handBuilt(i + 1, 500, engagements));
  const mid = [500, 1000, 1500, 2000, 10_000].map((engagements, i) => handBuilt(i + 11, 50_000, engagements));
  const lone = handBuilt(21, 2_000_000, 100_000);
  const unknown = handBuilt(22, null, 40);

  before(async () => {
    await upsertInspirationPosts(harness.services.sql, [...small, ...mid, lone, unknown]);
    await refreshTierRates(harness.services.sql, 5);
  });

  const scores = async (query: string) => {
    const answer = await get(`/v1/inspiration?q=zebracorn&limit=50${query}`);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return new Map<string, number | null>(answer.body.data.map((post: any) => [post.id, post.outlier_score]));
  };

  test("the score is the post's rate per follower over its tier's measured median rate", async () => {
    const byId = await scores("");
    assert.equal(byId.size, 12);
    const expected = (post: NewInspirationPost, median: number) =>
      (post.likes + post.replies + post.reposts + post.quotes) / (post.author_followers ?? 0) / median;
    for (const post of small) assert.equal(byId.get(post.post_id), Math.round(expected(post, 0.03) * 100) / 100, post.post_id);
    for (const post of mid) assert.equal(byId.get(post.post_id), Math.round(expected(post, 0.03) * 100) / 100, post.post_id);
    assert.equal(byId.get(small[2].post_id), 1, "the median post is exactly expected");
    assert.equal(byId.get(mid[4].post_id), 6.67);
    assert.equal(byId.get(lone.post_id), null, "a tier with one post has no measured rate");
    assert.equal(byId.get(unknown.post_id), null, "an unknown follower count has no score");
  });

  test("min_outlier_score is rounded to 1 decimal and leaves out posts without a score above 0", async () => {
    // 25 engagements at 500 followers: 0.05 / 0.03 = 1.67.
    assert.ok((await scores("&min_outlier_score=1.64")).has(small[4].post_id), "1.64 rounds to 1.6");
    assert.ok(!(await scores("&min_outlier_score=1.65")).has(small[4].post_id), "1.65 rounds to 1.7");
    const zero = await scores("&min_outlier_score=0");
    assert.ok(zero.has(unknown.post_id), "0 keeps posts without a score");
    const some = await scores("&min_outlier_score=0.1");
    assert.ok(!some.has(unknown.post_id) && !some.has(lone.post_id));
    assert.deepEqual([...(await scores("&min_outlier_score=1000")).keys()], []);
    for (const value of ["-0.1", "1000.1", "abc"]) assertInvalid(await get(`/v1/inspiration?min_outlier_score=${value}`), "min_outlier_score");
  });

  test("sort=outlier puts the highest score first and unscored posts last", async () => {
    const answer = await get("/v1/inspiration?q=zebracorn&sort=outlier&limit=50");
    const list: (number | null)[] = answer.body.data.map((post: any) => post.outlier_score);
    assert.equal(list[0], 6.67);
    const firstNull = list.indexOf(null);
    assert.ok(list.slice(firstNull).every((score) => score === null));
    const scored = list.slice(0, firstNull) as number[];
    assert.deepEqual(
      scored,
      [...scored].sort((a, b) => b - a),
    );
  });

  test("with a query, weak matches and promotional posts are dropped, so a page may be short", async () => {
    const filler = Array.from({ length: 20 }, (_, i) => `filler${i}`).join(" ");
    const close = handBuilt(31, null, 10, "nebulite quasar tips for everyone");
    const far = handBuilt(32, null, 10, `nebulite ${filler} quasar`);
    const plug = { ...handBuilt(33, null, 10, "nebulite quasar course, use code QUASAR for 50% off, link in bio"), promotional: true };
    await upsertInspirationPosts(harness.services.sql, [close, far, plug]);
    const ids = async (query: string) => {
      const answer = await get(`/v1/inspiration?${query}`);
      assert.equal(answer.status, 200);
      return answer.body.data.map((post: any) => post.id).sort();
    };
    assert.deepEqual(await ids("q=nebulite%20quasar"), [close.post_id], "the scattered match is weak, the plug promotional");
    assert.deepEqual(await ids("q=nebulite"), [close.post_id, far.post_id].sort());
    assert.ok((await ids("sort=recent&limit=50")).includes(plug.post_id), "browsing without a query keeps every post");
    const short = await get("/v1/inspiration?q=nebulite%20quasar&limit=1");
    assert.equal(short.body.data.length, 1);
    assert.equal(short.body.pagination.has_more, false);
  });

  after(async () => {
    await harness.services.sql`delete from inspiration_posts`;
    await harness.services.sql`delete from inspiration_tier_rates`;
  });
});

describe("search of the simulated network's corpus", () => {
  let stored = 0;
  before(async () => {
    stored = await ingestInspiration({ sql: harness.services.sql, network: harness.services.network, clock: harness.services.clock });
  });

  test("ingest stores several thousand posts, measures every tier, and a second run is idempotent", async (t) => {
    assert.ok(stored >= 3000, `${stored} posts stored`);
    t.diagnostic(`${stored} posts stored`);
    const [{ count }] = await harness.services.sql<{ count: number }[]>`select count(*)::int as count from inspiration_posts`;
    assert.equal(count, stored);
    const rates = await harness.services.sql<{ tier: number; expected_rate: number }[]>`select tier, expected_rate from inspiration_tier_rates order by tier`;
    assert.ok(rates.length >= 3, JSON.stringify(rates));
    // Measured, not assumed: the expected rate falls as accounts grow, as the world draws it.
    for (let i = 1; i < rates.length; i++) assert.ok(rates[i].expected_rate < rates[i - 1].expected_rate, JSON.stringify(rates));
    const classified = await harness.services.sql<
      { topics: number; n: number }[]
    >`select topics, count(*)::int as n from inspiration_posts where topics <> 0 group by topics`;
    assert.ok(classified.some((row) => (row.topics & 1) !== 0) && classified.some((row) => (row.topics & 2) !== 0), JSON.stringify(classified));
    await ingestInspiration({ sql: harness.services.sql, network: harness.services.network, clock: harness.services.clock }, 500);
    const [{ again }] = await harness.services.sql<{ again: number }[]>`select count(*)::int as again from inspiration_posts`;
    assert.equal(again, stored);
  });

  test("ingest_inspiration is a periodic job kind whose handler refreshes the corpus", async () => {
    assert.ok(periodicJobs.some((job) => job.kind === "ingest_inspiration"));
    const { services } = harness;
    const [top] = await services.sql<{ post_id: string; likes: number }[]>`
      select post_id, likes from inspiration_posts order by likes desc, post_id limit 1`;
    assert.ok(top.likes > 0);
    await services.sql`update inspiration_posts set likes = 0 where post_id = ${top.post_id}`;
    await jobHandlers({ sql: services.sql, clock: services.clock, network: services.network }).ingest_inspiration({}, {} as JobRow);
    const [{ n }] = await services.sql<{ n: number }[]>`select count(*)::int as n from inspiration_posts`;
    assert.equal(n, stored);
    const [again] = await services.sql<{ likes: number }[]>`select likes from inspiration_posts where post_id = ${top.post_id}`;
    assert.equal(again.likes, top.likes, "the run wrote the network's metrics back");
  });

  describeMatrix(({ index, name }) => {
    describe(`over ${name}`, () => {
      const search = async (query: string) => {
        const answer = await get(`/v1/inspiration?${query}`, index);
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        return answer.body;
      };

      test("a two-word query finds posts with both words, relevance first, with the documented fields", async () => {
        const body = await search("q=design%20systems");
        assert.ok(body.data.length > 0);
        for (const post of body.data) {
          assert.match(post.text.toLowerCase(), /design/);
          assert.match(post.text.toLowerCase(), /system/);
          assert.equal(post.lang, "en");
          assert.equal(post.url, `https://x.com/${post.author.username}/status/${post.id}`);
          assert.equal(typeof post.author.followers_count, "number");
          assert.ok(Array.isArray(post.topics));
          for (const name of ["likes", "replies", "reposts", "quotes", "bookmarks", "impressions"]) assert.equal(typeof post.metrics[name], "number");
        }
        assert.deepEqual(Object.keys(body.pagination).sort(), ["has_more", "limit", "page"]);
      });

      test("a read-only key may search; answers carry the rate-limit headers", async () => {
        const answer = await get("/v1/inspiration?q=startup", index, harness.world.keys.read);
        assert.equal(answer.status, 200);
        assert.match(answer.headers.get("x-ratelimit-remaining") ?? "", /^\d+$/);
      });

      test("every metric floor holds on every result", async () => {
        for (const [param, field] of [
          ["min_likes", "likes"],
          ["min_reposts", "reposts"],
          ["min_replies", "replies"],
          ["min_bookmarks", "bookmarks"],
          ["min_impressions", "impressions"],
        ] as const) {
          const all = await search(`sort=${field === "replies" || field === "bookmarks" ? "likes" : field}&limit=50`);
          const floor = all.data[Math.floor(all.data.length / 2)].metrics[field];
          assert.ok(floor > 0, `${field} floor`);
          const body = await search(`${param}=${floor}&limit=50`);
          assert.ok(body.data.length > 0, param);
          assert.ok(
            body.data.every((post: any) => post.metrics[field] >= floor),
            param,
          );
        }
      });

      test("author size bounds hold on every result", async () => {
        const body = await search("min_followers=1000&max_followers=20000&limit=50");
        assert.ok(body.data.length > 0);
        assert.ok(body.data.every((post: any) => post.author.followers_count >= 1000 && post.author.followers_count <= 20000));
        assertInvalid(await get("/v1/inspiration?min_followers=500&max_followers=100", index), "min_followers");
      });

      test("since and until bound posted_at; they need an explicit offset", async () => {
        const newest = (await search("sort=recent&limit=1")).data[0].posted_at;
        const until = new Date(Date.parse(newest) - 24 * 3600_000).toISOString();
        const since = new Date(Date.parse(newest) - 48 * 3600_000).toISOString();
        const body = await search(`since=${since}&until=${until}&sort=recent&limit=50`);
        assert.ok(body.data.length > 0);
        assert.ok(body.data.every((post: any) => post.posted_at >= since && post.posted_at < until));
        assertInvalid(await get("/v1/inspiration?since=2026-11-01T00:00:00", index), "since");
        assertInvalid(await get(`/v1/inspiration?since=${until}&until=${since}`, index), "since");
      });

      test("lang picks the language, en by default", async () => {
        assert.ok((await search("limit=50")).data.every((post: any) => post.lang === "en"));
        const spanish = await search("lang=es&limit=50");
        assert.ok(spanish.data.length > 0);
        assert.ok(spanish.data.every((post: any) => post.lang === "es"));
        assertInvalid(await get("/v1/inspiration?lang=english!", index), "lang");
      });

      test("each sort orders the page by its field", async () => {
        for (const [sort, read] of [
          ["recent", (post: any) => Date.parse(post.posted_at)],
          ["likes", (post: any) => post.metrics.likes],
          ["reposts", (post: any) => post.metrics.reposts],
          ["impressions", (post: any) => post.metrics.impressions],
          ["outlier", (post: any) => post.outlier_score ?? -1],
        ] as const) {
          const values = (await search(`q=lessons&sort=${sort}&limit=50`)).data.map(read);
          assert.ok(values.length > 1, sort);
          assert.deepEqual(
            values,
            [...values].sort((a: number, b: number) => b - a),
            sort,
          );
        }
        assertInvalid(await get("/v1/inspiration?sort=best", index), "sort");
      });

      test("exclude_topics removes the posts classified with those topics", async () => {
        const crypto = await search("q=bitcoin&limit=50");
        assert.ok(crypto.data.some((post: any) => post.topics.includes("crypto")));
        const without = await search("q=bitcoin&exclude_topics=crypto&limit=50");
        assert.ok(without.data.every((post: any) => !post.topics.includes("crypto")));
        const politics = await search("exclude_topics=politics,crypto&limit=50&sort=likes");
        assert.ok(politics.data.length > 0);
        assert.ok(politics.data.every((post: any) => !post.topics.includes("politics") && !post.topics.includes("crypto")));
        assertInvalid(await get("/v1/inspiration?exclude_topics=crypto,sports", index), "exclude_topics");
      });

      test("pages 1 to 7 do not repeat; page 8 and limit 51 are refused", async () => {
        const seen = new Set<string>();
        for (let page = 1; page <= 7; page++) {
          const body = await search(`sort=recent&limit=10&page=${page}`);
          assert.equal(body.data.length, 10);
          assert.equal(body.pagination.page, page);
          assert.equal(body.pagination.has_more, page < 7, `has_more on page ${page}`);
          for (const post of body.data) seen.add(post.id);
        }
        assert.equal(seen.size, 70);
        assertInvalid(await get("/v1/inspiration?page=8", index), "page");
        assertInvalid(await get("/v1/inspiration?page=0", index), "page");
        assertInvalid(await get("/v1/inspiration?limit=51", index), "limit");
        assert.equal((await search("limit=50")).data.length, 50);
      });

      test("a query nothing matches answers an empty page without more", async () => {
        const body = await search("q=qwertyuiopasdf");
        assert.deepEqual(body.data, []);
        assert.equal(body.pagination.has_more, false);
      });
    });
  });
});
