/** Triage (spec: POST /v1/posts/triage; AI credits; Limits 8 and 11; Errors, Special cases). */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { daysFromToday, manualClock } from "./support/manual_clock.ts";
import { createContextInner } from "../core/context.ts";
import { consumeAllowances, releaseAllowances } from "../core/limits/allowances.ts";
import { dailyActionCap, LIVE_LOOKUPS, PLATFORM_LIVE_DATA } from "../core/limits/allowance_catalog.ts";
import type { AllowanceSpec } from "../core/limits/allowances.ts";
import { judgePost, POST_KINDS } from "../core/composer/triage_classifier.ts";
import { textFeatures } from "../core/composer/text_features.ts";
import { laneOf } from "../core/composer/triage_lanes.ts";

const clock = manualClock(Date.now());
let harness: Harness;
before(async () => {
  harness = await startHarness({ config: { clock } });
});
after(() => harness.close());

/** Units of `spec` used today for `ownerId` (a zero-unit check only reads). */
async function used(ownerId: string, spec: AllowanceSpec): Promise<number> {
  const outcome = await consumeAllowances(createContextInner({ services: harness.services }), ownerId, [{ spec, units: 0 }]);
  assert.equal(outcome.status, "allowed");
  return outcome.status === "allowed" ? outcome.allowances[0].used : -1;
}

// Broad enough that the simulated world has posts on it every week.
const FOUND = { query: "AI", max_age_days: 7 };
const NOTHING = { query: "zzqx nothingmatches" };

describeMatrix(({ name, transport }) => {
  describe(`triage over ${name}`, () => {
    const post = (body: unknown, key = harness.world.keys.write) => transport(harness).request("POST", "/v1/posts/triage", { key, body });

    test("out-of-bounds query and max_age_days answer 400 invalid_parameter and charge nothing", async () => {
      for (const body of [
        { query: "a" },
        { query: "x".repeat(81) },
        { query: "ai", max_age_days: 0 },
        { query: "ai", max_age_days: 8 },
        { query: "ai", max_age_days: 2.5 },
        {},
      ]) {
        const answer = await post(body);
        assert.equal(answer.status, 400, JSON.stringify(body).slice(0, 40));
        assert.equal(answer.body.error.code, "invalid_parameter");
        assert.equal(answer.headers.get("x-credits-charged"), null);
      }
    });

    test("posts found: lanes, pct ranges, kinds, answers, author, posts_searched and receipt; 2 credits", async () => {
      const answer = await post(FOUND);
      assert.equal(answer.status, 200);
      const { posts, posts_searched, receipt } = answer.body.data;
      assert.ok(posts.length >= 1 && posts.length <= 40);
      assert.ok(posts_searched >= posts.length);
      for (const item of posts) {
        assert.ok(["read", "pass", "unsure"].includes(item.lane));
        if (item.lane === "unsure") assert.ok(item.pct > 40 && item.pct < 60, `unsure pct ${item.pct}`);
        else assert.ok(item.pct >= 50 && item.pct <= 99, `${item.lane} pct ${item.pct}`);
        assert.ok((POST_KINDS as readonly string[]).includes(item.kind));
        for (const name of ["r_specific", "r_new", "r_bait", "r_plug", "r_platitude", "r_reply_room"]) assert.equal(typeof item.answers[name], "boolean");
        assert.equal(typeof item.author.username, "string");
        assert.match(item.url, /^https:\/\/x\.com\/\w+\/status\/\d+$/);
        assert.ok(item.metrics.likes >= 30, "the 30-like floor");
      }
      assert.equal(receipt.posts_judged, posts_searched);
      assert.equal(receipt.questions_answered, posts_searched * 6);
      assert.equal(typeof receipt.ms, "number");
      assert.equal(receipt.model_spend, 0);
      assert.equal(answer.headers.get("x-credits-charged"), "2");
      assert.equal(answer.body.meta.credits_charged, 2);
    });

    test("nothing found answers an empty list and keeps no credits", async () => {
      const answer = await post(NOTHING);
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body.data.posts, []);
      assert.equal(answer.body.data.posts_searched, 0);
      assert.equal(answer.headers.get("x-credits-charged"), "0");
    });
  });
});

describe("what triage spends and when it is refused", () => {
  const ctx = () => createContextInner({ services: harness.services });
  const send = (body: unknown, key: string) => transports(harness)[0].request("POST", "/v1/posts/triage", { key, body });

  test("a single word spends 1 live lookup, several words 2", async () => {
    clock.set(daysFromToday(3, "10:00:00"));
    const key = harness.world.keys.other_user;
    const owner = harness.world.accounts.other_user;
    const start = await used(owner, LIVE_LOOKUPS);
    assert.equal((await send({ query: "zzqxsingle" }, key)).status, 200);
    assert.equal(await used(owner, LIVE_LOOKUPS), start + 1);
    assert.equal((await send({ query: "zzqx two words" }, key)).status, 200);
    assert.equal(await used(owner, LIVE_LOOKUPS), start + 3);
  });

  test("the trial cap: 20 runs a day, the 21st answers 429 ai_action_limited with scope account", async () => {
    clock.set(daysFromToday(4, "10:00:00"));
    const key = harness.world.keys.trial;
    for (let run = 1; run <= 20; run++) {
      // Trial allows 20 writes a minute: a new minute every 10 runs keeps the bucket out of it.
      if (run % 10 === 1) clock.advance(61_000);
      assert.equal((await send(NOTHING, key)).status, 200, `run ${run}`);
    }
    clock.advance(61_000);
    const refused = await send(NOTHING, key);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, "ai_action_limited");
    assert.equal(refused.body.error.scope, "account");
    assert.equal(refused.body.error.reset_at, Date.parse(daysFromToday(5, "00:00:00")) / 1000);
    clock.set(daysFromToday(5, "00:00:30"));
    assert.equal((await send(NOTHING, key)).status, 200, "the cap resets at midnight UTC");
  });

  test("the platform ceiling full answers 429 ai_action_limited with scope platform, taking nothing", async () => {
    clock.set(daysFromToday(6, "10:00:00"));
    const owner = harness.world.accounts.main;
    const left = PLATFORM_LIVE_DATA.limit - (await used(owner, PLATFORM_LIVE_DATA));
    const charge = [{ spec: PLATFORM_LIVE_DATA, units: left }];
    const filled = await consumeAllowances(ctx(), owner, charge);
    assert.equal(filled.status, "allowed");
    try {
      const capBefore = await used(owner, dailyActionCap("triage", "ultra"));
      const refused = await send(NOTHING, harness.world.keys.write);
      assert.equal(refused.status, 429);
      assert.equal(refused.body.error.code, "ai_action_limited");
      assert.equal(refused.body.error.scope, "platform");
      assert.equal(await used(owner, dailyActionCap("triage", "ultra")), capBefore, "all or nothing: the cap slot was given back");
    } finally {
      await releaseAllowances(ctx(), owner, charge);
    }
  });

  test("the live allowance used answers a bare 429 lookup_quota_exceeded (code and message only)", async () => {
    clock.set(daysFromToday(7, "10:00:00"));
    const owner = harness.world.accounts.main;
    await consumeAllowances(ctx(), owner, [{ spec: LIVE_LOOKUPS, units: 299 - (await used(owner, LIVE_LOOKUPS)) }]);
    const capBefore = await used(owner, dailyActionCap("triage", "ultra"));
    const refused = await send({ query: "zzqx two words" }, harness.world.keys.write);
    assert.equal(refused.status, 429);
    assert.deepEqual(Object.keys(refused.body.error).sort(), ["code", "message"]);
    assert.equal(refused.body.error.code, "lookup_quota_exceeded");
    assert.match(refused.headers.get("retry-after") ?? "", /^\d+$/);
    assert.equal(await used(owner, LIVE_LOOKUPS), 299, "the refused 2-lookup run took nothing");
    assert.equal(await used(owner, dailyActionCap("triage", "ultra")), capBefore, "nor a cap slot");
    assert.equal((await send({ query: "zzqxsingle" }, harness.world.keys.write)).status, 200, "1 lookup still fits");
  });
});

describe("with the network unreachable", () => {
  let failing: Harness;
  before(async () => {
    failing = await startHarness({ config: { faults: "x" } });
  });
  after(() => failing.close());

  test("triage answers 503 upstream_unavailable and spends nothing", async () => {
    const owner = failing.world.accounts.main;
    const read = async () => {
      const outcome = await consumeAllowances(createContextInner({ services: failing.services }), owner, [
        { spec: LIVE_LOOKUPS, units: 0 },
        { spec: dailyActionCap("triage", "ultra"), units: 0 },
      ]);
      return outcome.status === "allowed" ? outcome.allowances.map((allowance) => allowance.used) : [];
    };
    const before = await read();
    for (const transport of transports(failing)) {
      const answer = await transport.request("POST", "/v1/posts/triage", { key: failing.world.keys.write, body: { query: "cold email" } });
      assert.equal(answer.status, 503, transport.name);
      assert.equal(answer.body.error.code, "upstream_unavailable");
      assert.equal(answer.headers.get("x-credits-charged"), "0");
    }
    assert.deepEqual(await read(), before);
  });
});

describe("the triage judge", () => {
  const judge = (text: string, rarity = { rareShare: 0.5, rareWords: 4 }) => judgePost(text, textFeatures(text), rarity);

  test("kinds follow what the text measurably says", () => {
    const cases: [string, string][] = [
      ["We just launched our analytics dashboard for indie founders", "launch"],
      ["Just crossed 1,000 paying customers after 14 months", "progress"],
      ["How do you price a developer tool when usage is spiky?", "question"],
      ["Our churn fell from 8% to 3% after we moved onboarding to week one", "data"],
      ["Hi, I'm Sam: new here, building tools for small bakeries", "intro"],
      ["Stripe announced today that it acquired a payments startup in Lagos", "news"],
      ["Nobody: absolutely nobody: me at 3am rewriting the landing page again lol", "joke"],
      ["Three years ago I quit my job with six months of savings. Here is what actually worked", "story"],
      ["Unpopular opinion: standups are overrated for teams of four", "opinion"],
      ["The best onboarding advice I ever got: design the empty state first", "insight"],
    ];
    for (const [text, kind] of cases) assert.equal(judge(text).kind, kind, text);
  });

  test("bait, plugs and platitudes are flagged and sent to the pass lane", () => {
    const bait = judge("Like if you agree. RT if you ship on Fridays. Comment YES for the template");
    assert.equal(bait.answers.r_bait, true);
    assert.equal(bait.answers.r_reply_room, false);
    const plug = judge("Check out my course on cold email, link in bio: https://example.com/course");
    assert.equal(plug.answers.r_plug, true);
    const platitude = judge("Consistency is key. Just start and never give up.");
    assert.equal(platitude.answers.r_platitude, true);
    for (const verdict of [bait, plug, platitude]) assert.equal(laneOf(verdict.score).lane, "pass");
  });

  test("specific, new posts with room for a reply are read; the judge is deterministic", () => {
    const text =
      "We cut p95 latency from 900 ms to 120 ms by moving Postgres reads to a replica in Frankfurt. Surprised the cache mattered less than the region";
    const verdict = judge(text);
    assert.equal(verdict.answers.r_specific, true);
    assert.equal(verdict.answers.r_new, true);
    assert.equal(laneOf(verdict.score).lane, "read");
    assert.deepEqual(judge(text), verdict);
    assert.equal(judge(text, { rareShare: 0, rareWords: 0 }).answers.r_new, false, "common words for the topic are not new");
  });

  test("pct is 50-99 on read and pass and the raw score on unsure", () => {
    assert.deepEqual(laneOf(0.999), { lane: "read", pct: 99 });
    assert.deepEqual(laneOf(0.6), { lane: "read", pct: 60 });
    assert.deepEqual(laneOf(0.0), { lane: "pass", pct: 99 });
    assert.deepEqual(laneOf(0.45), { lane: "unsure", pct: 45 });
  });
});
