/**
 * `POST /v1/signals/leads/search` (spec: Other endpoints with stated parameters; Limits 11;
 * AI credits; supplement: Signals): bounds, leads from the simulated network's real posts,
 * precision, freshness counts, the time budget, the platform ceiling, the unreachable
 * network that charges nothing, and that nothing is created.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { manualClock } from "./support/manual_clock.ts";
import { createContextInner, type AccountContext } from "../core/context.ts";
import { authenticate } from "../core/auth/authenticate.ts";
import { resolveAccount } from "../core/accounts/resolve_account.ts";
import { withCredits } from "../core/credits/credit_call.ts";
import { consumeAllowances, releaseAllowances } from "../core/limits/allowances.ts";
import { PLATFORM_LIVE_DATA } from "../core/limits/allowance_catalog.ts";
import { searchLeads } from "../core/signals/lead_search.ts";
import { scoreLeads } from "../core/signals/lead_scoring.ts";
import { contentWords } from "../core/model/role_lexicon.ts";
import { leadSearchInput, type LeadSearchOutput } from "../core/signals/lead_search_schema.ts";
import { planQueries, roleWordsOf } from "../core/signals/query_plan.ts";

const clock = manualClock(Date.now());
let harness: Harness;
before(async () => {
  harness = await startHarness({ config: { clock } });
});
after(() => harness.close());

const ICP = "B2B SaaS founders struggling with churn";
const SEARCH = { keywords: "churn, pricing", icp_description: ICP };
const PATH = "/v1/signals/leads/search";
const DAY_MS = 86_400_000;

/** Platform units used today (a zero-unit check only reads). */
async function platformUsed(h: Harness): Promise<number> {
  const outcome = await consumeAllowances(createContextInner({ services: h.services }), h.world.accounts.main, [{ spec: PLATFORM_LIVE_DATA, units: 0 }]);
  assert.equal(outcome.status, "allowed");
  return outcome.status === "allowed" ? outcome.allowances[0].used : -1;
}

async function count(table: string): Promise<number> {
  const [row] = await harness.services.sql`select count(*)::int as n from ${harness.services.sql(table)}`;
  return row.n;
}

describeMatrix(({ name, transport }) => {
  describe(`lead search over ${name}`, () => {
    const post = (body: unknown, key = harness.world.keys.write) => transport(harness).request("POST", PATH, { key, body });

    test("out-of-bounds bodies answer 400 invalid_parameter and charge nothing", async () => {
      for (const body of [
        {},
        { icp_description: ICP },
        { keywords: "churn" },
        { ...SEARCH, keywords: "" },
        { ...SEARCH, keywords: " , ,, " },
        { ...SEARCH, keywords: "a, b, c, d, e, f" },
        { ...SEARCH, keywords: `churn, ${"x".repeat(101)}` },
        { ...SEARCH, keywords: 7 },
        { ...SEARCH, icp_description: "ab" },
        { ...SEARCH, icp_description: "x".repeat(501) },
        { ...SEARCH, offer: "ab" },
        { ...SEARCH, offer: "x".repeat(301) },
        { ...SEARCH, precision: "medium" },
        { ...SEARCH, max_leads: 0 },
        { ...SEARCH, max_leads: 31 },
        { ...SEARCH, max_leads: 2.5 },
        { ...SEARCH, max_post_age_days: 0 },
        { ...SEARCH, max_post_age_days: 91 },
        { ...SEARCH, max_post_age_days: "30" },
        { ...SEARCH, account_id: "not-a-number" },
      ]) {
        const answer = await post(body);
        assert.equal(answer.status, 400, JSON.stringify(body).slice(0, 80));
        assert.equal(answer.body.error.code, "invalid_parameter");
        assert.equal(answer.headers.get("x-credits-charged"), null);
      }
    });

    test("a read key is refused: the search needs the write scope", async () => {
      const answer = await post(SEARCH, harness.world.keys.read);
      assert.equal(answer.status, 403);
    });

    test("leads come from the network's real posts: one per person, scored, ordered, with provenance; charged and counted", async () => {
      const unitsBefore = await platformUsed(harness);
      const contactsBefore = await count("contacts");
      const leadsBefore = await count("signal_leads");
      const answer = await post(SEARCH);
      assert.equal(answer.status, 200, JSON.stringify(answer.body).slice(0, 300));
      const data: LeadSearchOutput["data"] = answer.body.data;
      assert.equal(answer.body.meta.account_id, harness.world.accounts.main);
      const charged = Number(answer.headers.get("x-credits-charged"));
      assert.ok(charged >= 1, "at least 1 credit once the network was reached");
      assert.equal(answer.body.meta.credits_charged, charged);

      // The plan: each angle alone, then each with the ICP's role word.
      assert.deepEqual(
        data.query_plan.map(({ query, angle }) => ({ query, angle })),
        [
          { query: "churn", angle: "churn" },
          { query: "pricing", angle: "pricing" },
          { query: "churn founder OR churn founders", angle: "churn" },
          { query: "pricing founder OR pricing founders", angle: "pricing" },
        ],
      );
      assert.equal(data.queries_used, 4);
      assert.equal(data.partial, false);
      assert.ok(data.query_plan.every((query) => query.searched));
      assert.equal(await platformUsed(harness), unitsBefore + 4, "one platform unit per query");

      assert.equal(data.precision, "discovery", "discovery is the default here");
      assert.equal(data.min_score, 50);
      assert.ok(data.leads.length >= 3 && data.leads.length <= 10, `${data.leads.length} leads`);
      assert.equal(new Set(data.leads.map((lead) => lead.x_user_id)).size, data.leads.length, "one lead per person");
      for (const [i, lead] of data.leads.entries()) {
        assert.notEqual(lead.x_user_id, harness.world.accounts.main, "never the account itself");
        assert.ok(lead.icp_score >= 50 && lead.icp_score <= 100);
        assert.ok(lead.icp_rationale.length > 0);
        const next = data.leads[i + 1];
        if (next) {
          assert.ok(
            lead.icp_score > next.icp_score || (lead.icp_score === next.icp_score && lead.provenance.posted_at! >= next.provenance.posted_at!),
            "score, then freshest",
          );
        }
        const { provenance } = lead;
        assert.equal(provenance.action, "posted");
        assert.equal(provenance.signal_id, null);
        assert.equal(provenance.signal_type, null);
        assert.ok(data.query_plan.some((query) => query.query === provenance.watched));
        const real = await harness.services.network.postById(provenance.tweet_id!);
        assert.equal(real.authorId, lead.x_user_id);
        assert.equal(real.text, provenance.post_text);
        assert.match(real.text, /churn|pricing/i, "the post is on an angle");
        assert.equal(provenance.posted_at, real.createdAt);
        assert.equal(provenance.post_url, `https://x.com/${lead.username}/status/${real.id}`);
        assert.equal(provenance.post_age_days, Math.floor((clock.now() - Date.parse(real.createdAt)) / DAY_MS));
        assert.ok(provenance.post_age_days! <= 30);
        const person = await harness.services.network.userById(lead.x_user_id);
        assert.equal(lead.bio, person.description);
        assert.equal(lead.posts_count, person.postCount);
      }
      // The ICP asks for founders on churn: the best lead is one.
      assert.ok(data.leads[0].icp_score >= 70);
      assert.match(data.leads[0].bio, /founder|ceo/i);
      assert.equal(
        data.query_plan.reduce((sum, query) => sum + query.leads_found, 0),
        data.leads.length,
      );
      assert.ok(data.candidates_judged >= data.leads.length);
      assert.ok(data.freshness.posts_in_window > 0);
      assert.equal(data.freshness.search_window_days, harness.services.network.info.searchWindowDays);
      assert.equal(await count("contacts"), contactsBefore, "creates no contacts");
      assert.equal(await count("signal_leads"), leadsBefore, "stores no leads");
    });

    test("high precision keeps only clear fits; max_leads caps the answer; offer is accepted", async () => {
      const answer = await post({ ...SEARCH, precision: "high", max_leads: 3, offer: "a churn dashboard for SaaS" });
      assert.equal(answer.status, 200);
      const { leads, min_score } = answer.body.data;
      assert.equal(min_score, 70);
      assert.ok(leads.length >= 1 && leads.length <= 3);
      for (const lead of leads) assert.ok(lead.icp_score >= 70);
    });

    test("freshness: posts older than max_post_age_days are skipped and counted", async () => {
      const answer = await post({ ...SEARCH, max_post_age_days: 1 });
      assert.equal(answer.status, 200);
      const { freshness, leads, query_plan } = answer.body.data;
      // Count independently: the same searches, split at the window.
      const windowStart = clock.now() - DAY_MS;
      const inWindow = new Set<string>();
      const stale = new Map<string, number>();
      for (const { query } of query_plan) {
        const page = await harness.services.network.search({ query, originalsOnly: true, limit: 100 });
        for (const found of page.items) {
          const postedAt = Date.parse(found.createdAt);
          if (postedAt < windowStart) stale.set(found.id, postedAt);
          else inWindow.add(found.id);
        }
      }
      assert.ok(stale.size > 0, "the world has older posts on these angles");
      assert.deepEqual(freshness, {
        max_post_age_days: 1,
        posts_in_window: inWindow.size,
        stale_skipped: stale.size,
        oldest_skipped_days: Math.max(...[...stale.values()].map((postedAt) => Math.floor((clock.now() - postedAt) / DAY_MS))),
        search_window_days: 30,
      });
      for (const lead of leads) assert.ok(lead.provenance.post_age_days <= 1);
      const wide = await post({ ...SEARCH, max_post_age_days: 90 });
      assert.equal(wide.body.data.freshness.stale_skipped, 0, "nothing the network returns is older than 90 days");
      assert.equal(wide.body.data.freshness.oldest_skipped_days, null);
    });
  });
});

describe("the account itself", () => {
  test("is never a lead, even when its own post matches and would score", async () => {
    const { network, model } = harness.services;
    const self = harness.world.accounts.main;
    const own = await network.timeline(self, { excludeReplies: true, excludeReposts: true, limit: 50 });
    const mine = own.items.find((found) => found.kind === "post" && !found.isThreadContinuation && clock.now() - Date.parse(found.createdAt) < 20 * DAY_MS);
    assert.ok(mine, "the demo account posted recently");
    const words = contentWords(mine.text)
      .map(({ word }) => word)
      .filter((word) => /^[a-z]{4,}$/.test(word));
    const angle = words.slice(0, 2).join(" ");
    const icp = `people posting about ${angle}`;
    // Preconditions: the search finds the account's post, and the judge would keep it.
    const page = await network.search({ query: angle, originalsOnly: true, limit: 100 });
    assert.ok(
      page.items.some((found) => found.id === mine.id),
      `"${angle}" finds the account's own post`,
    );
    const user = await network.userById(self);
    const provenance = {
      action: "posted" as const,
      signal_id: null,
      signal_type: null,
      watched: angle,
      tweet_id: mine.id,
      post_text: mine.text,
      post_url: null,
      posted_at: mine.createdAt,
      post_age_days: 0,
    };
    const { scored } = await scoreLeads(model, { icp, candidates: [{ user, post: mine, provenance }] });
    assert.ok(scored[0].score >= 50, `the account would score ${scored[0].score}`);

    const answer = await transports(harness)[0].request("POST", PATH, {
      key: harness.world.keys.write,
      body: { keywords: angle, icp_description: icp, max_leads: 30 },
    });
    assert.equal(answer.status, 200);
    assert.ok(answer.body.data.query_plan[0].posts_found >= 1);
    assert.ok(answer.body.data.leads.every((lead: { x_user_id: string }) => lead.x_user_id !== self));
  });
});

describe("the plan", () => {
  test("angles alone first, then with the ICP's role word, at most 10; operators run as written", () => {
    assert.deepEqual(roleWordsOf("B2B SaaS founders"), ["founder", "founders"]);
    assert.deepEqual(roleWordsOf("CEO of a small agency"), ["ceo", "ceos"]);
    assert.deepEqual(roleWordsOf("people who write about churn"), []);
    assert.deepEqual(
      planQueries(['"cold email"', "churn"], "sales leaders").map(({ query }) => query),
      ['"cold email"', "churn", "churn sales"],
    );
    const five = planQueries(["a1", "a2", "a3", "a4", "a5"], "founders");
    assert.equal(five.length, 10);
    assert.deepEqual(
      planQueries(["churn"], "people on churn").map(({ query }) => query),
      ["churn"],
    );
  });

  test("keywords: repeats (any casing) and empty angles are dropped", () => {
    const parsed = leadSearchInput.parse({ keywords: "Churn, churn, , pricing", icp_description: ICP });
    assert.equal(parsed.keywords, "Churn, churn, , pricing");
    assert.deepEqual(
      planQueries(["Churn", "pricing"], "x").map(({ query }) => query),
      ["Churn", "pricing"],
    );
  });
});

describe("the time budget", () => {
  test("a spent budget ends the search after the first query: partial, the rest skipped and its units given back", async () => {
    const headers = new Headers({ Authorization: `Bearer ${harness.world.keys.write}` });
    const base = createContextInner({ services: harness.services, headers });
    const principal = await authenticate(base);
    const account = await resolveAccount(base, principal, undefined, { write: true });
    const ctx = { ...base, principal, account } as AccountContext;
    const unitsBefore = await platformUsed(harness);
    const input = leadSearchInput.parse(SEARCH);
    const result = await withCredits(ctx, principal, { pricing: { metered: 1 }, procedure: "test.searchLeads", background: false }, async (credits) => {
      const data = await searchLeads({ ...ctx, credits }, input, { budgetMs: 0 });
      return { ok: true as const, data };
    });
    const { data, meta } = result.data;
    assert.equal(data.partial, true);
    assert.equal(data.queries_used, 1);
    assert.deepEqual(
      data.query_plan.map((query) => query.searched),
      [true, false, false, false],
    );
    assert.ok(data.query_plan.slice(1).every((query) => query.posts_found === 0 && query.leads_found === 0));
    assert.ok(meta.credits_charged >= 1);
    assert.equal(await platformUsed(harness), unitsBefore + 1, "units of the queries never run went back");
  });
});

describe("the platform ceiling", () => {
  test("full: 429 ai_action_limited with scope platform, nothing searched or charged", async () => {
    const owner = harness.world.accounts.main;
    const ctx = createContextInner({ services: harness.services });
    const charge = [{ spec: PLATFORM_LIVE_DATA, units: PLATFORM_LIVE_DATA.limit - (await platformUsed(harness)) }];
    assert.equal((await consumeAllowances(ctx, owner, charge)).status, "allowed");
    try {
      for (const transport of transports(harness)) {
        const refused = await transport.request("POST", PATH, { key: harness.world.keys.write, body: SEARCH });
        assert.equal(refused.status, 429, transport.name);
        assert.equal(refused.body.error.code, "ai_action_limited");
        assert.equal(refused.body.error.scope, "platform");
        assert.equal(refused.headers.get("x-credits-charged"), "0");
      }
      assert.equal(await platformUsed(harness), PLATFORM_LIVE_DATA.limit, "the refused searches took nothing");
    } finally {
      await releaseAllowances(ctx, owner, charge);
    }
  });
});

describe("with the network unreachable", () => {
  let failing: Harness;
  before(async () => {
    failing = await startHarness({ config: { faults: "x" } });
  });
  after(() => failing.close());

  test("503 upstream_unavailable: no credit kept, the platform units given back", async () => {
    const before = await platformUsed(failing);
    for (const transport of transports(failing)) {
      const answer = await transport.request("POST", PATH, { key: failing.world.keys.write, body: SEARCH });
      assert.equal(answer.status, 503, transport.name);
      assert.equal(answer.body.error.code, "upstream_unavailable");
      assert.equal(answer.headers.get("x-credits-charged"), "0");
    }
    assert.equal(await platformUsed(failing), before);
  });
});

describe("with the model unreachable", () => {
  let failing: Harness;
  before(async () => {
    failing = await startHarness({ config: { faults: "ai" } });
  });
  after(() => failing.close());

  test("503 upstream_unavailable after the searches: the credits are refunded, the platform units stay spent", async () => {
    const before = await platformUsed(failing);
    const answer = await transports(failing)[1].request("POST", PATH, { key: failing.world.keys.write, body: SEARCH });
    assert.equal(answer.status, 503);
    assert.equal(answer.body.error.code, "upstream_unavailable");
    assert.equal(answer.headers.get("x-credits-charged"), "0");
    assert.equal(await platformUsed(failing), before + 4, "the network was read: its units are used");
  });
});
