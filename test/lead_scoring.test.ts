/**
 * The ICP judge (core/signals/lead_scoring.ts) on both engines: the local engine orders
 * people the way the ICP asks (role in the bio, problem in the post), explains itself and
 * moves with feedback examples; the OpenAI-compatible engine gets the candidates in its
 * prompt, its JSON answer is mapped back by id, and a malformed answer is a ModelFailedError.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createLocalModel } from "../adapters/ai/local/local_model.ts";
import { createOpenAiCompatibleModel } from "../adapters/ai/openai_compatible/openai_compatible_model.ts";
import { ModelFailedError } from "../core/model/model_errors.ts";
import { parseTaskOutput } from "../core/model/task_output.ts";
import type { NetworkPost, NetworkUser } from "../core/network/network_records.ts";
import { LEAD_SCORING_BATCH, leadProfileOf, scoreLeads, type LeadCandidate } from "../core/signals/lead_scoring.ts";
import { leadProfileFields } from "../core/signals/signal_schema.ts";
import { z } from "zod";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "./support/fake_openai_server.ts";

const ICP = "B2B SaaS founders struggling with churn";

function user(id: string, bio: string, extra: Partial<NetworkUser> = {}): NetworkUser {
  return {
    id,
    username: `user${id}`,
    name: `User ${id}`,
    description: bio,
    location: null,
    url: null,
    avatarUrl: `https://x.com/user${id}/photo`,
    createdAt: "2020-01-01T00:00:00.000Z",
    protected: false,
    verified: false,
    verifiedType: "none",
    premium: "none",
    followersCount: 1200,
    followingCount: 300,
    postCount: 4200,
    listedCount: 3,
    pinnedPostId: null,
    canDm: true,
    ...extra,
  };
}

function post(id: string, authorId: string, text: string): NetworkPost {
  return {
    id,
    authorId,
    text,
    createdAt: "2026-11-20T12:00:00.000Z",
    kind: "post",
    conversationId: id,
    replyToId: null,
    replyToUserId: null,
    quotedId: null,
    repostedId: null,
    isThreadContinuation: false,
    mentionedUserIds: [],
    lang: "en",
    metrics: { likes: 1, replies: 0, reposts: 0, quotes: 0, impressions: 10, bookmarks: 0 },
    media: [],
    article: null,
  };
}

/** A candidate as lead search builds one (bios and posts in the simulated world's words). */
function candidate(id: string, bio: string, text: string | null): LeadCandidate {
  const p = text === null ? null : post(`9${id}`, id, text);
  return {
    user: user(id, bio),
    post: p,
    provenance: {
      action: "posted",
      signal_id: null,
      signal_type: null,
      watched: "churn",
      tweet_id: p?.id ?? null,
      post_text: p?.text ?? null,
      post_url: null,
      posted_at: p?.createdAt ?? null,
      post_age_days: p ? 5 : null,
    },
  };
}

const FOUNDER_ON_CHURN = candidate("1", "Founder @Acme. Writing about churn and pricing.", "Churn is 20% tools and 80% habits. Talk to users every week.");
const FOUNDER_ON_CHURN_PLAIN_BIO = candidate(
  "2",
  "Solo founder. Thoughts on fundraising.",
  "Unpopular opinion: churn is overrated. Your first 10 customers should feel like friends.",
);
const FOUNDER_ELSEWHERE = candidate("3", "Cofounder & CEO @Tidepool. Thoughts on runway.", "Fundraising is a distraction until it isn't.");
const COPYWRITER_ON_CHURN = candidate(
  "4",
  "Copywriter at Harbor. Thoughts on content marketing.",
  "The best churn advice I ever got: Talk to users every week.",
);
const ROLE_AS_TOPIC = candidate("9", "Early-stage investor. Helping teams with founder burnout.", "I asked 50 people about churn. The answer surprised me.");
const RUNNER = candidate("5", "Running coach. Writing about VO2 max and tempo runs.", "Easy runs should feel embarrassingly easy.");
const ALL = [RUNNER, COPYWRITER_ON_CHURN, FOUNDER_ELSEWHERE, FOUNDER_ON_CHURN_PLAIN_BIO, FOUNDER_ON_CHURN, ROLE_AS_TOPIC];

function scoreOf(scored: { candidate: LeadCandidate; score: number }[], c: LeadCandidate): number {
  const found = scored.find((lead) => lead.candidate === c);
  assert.ok(found, `${c.user.description} was scored`);
  return found.score;
}

describe("local engine", () => {
  const model = createLocalModel();

  test("founders posting about churn score high, half matches in the middle, unrelated people low", async () => {
    const { scored, costCredits } = await scoreLeads(model, { icp: ICP, candidates: ALL });
    assert.equal(scored.length, ALL.length);
    assert.deepEqual(
      scored.map((lead) => lead.candidate),
      ALL,
      "input order kept",
    );
    assert.ok(scoreOf(scored, FOUNDER_ON_CHURN) >= 70, "founder posting about churn, churn in bio");
    assert.ok(scoreOf(scored, FOUNDER_ON_CHURN_PLAIN_BIO) >= 70, "founder posting about churn");
    // "founder burnout" is what the investor writes about, not who they are.
    for (const middle of [FOUNDER_ELSEWHERE, COPYWRITER_ON_CHURN, ROLE_AS_TOPIC]) {
      const score = scoreOf(scored, middle);
      assert.ok(score >= 30 && score < 70, `${middle.user.description}: ${score} is in the middle`);
    }
    assert.ok(scoreOf(scored, RUNNER) < 20, "a running coach is not a lead");
    assert.ok(scoreOf(scored, FOUNDER_ON_CHURN) > scoreOf(scored, FOUNDER_ELSEWHERE));
    assert.ok(scoreOf(scored, FOUNDER_ON_CHURN_PLAIN_BIO) > scoreOf(scored, COPYWRITER_ON_CHURN));
    for (const lead of scored) assert.ok(Number.isInteger(lead.score) && lead.score >= 0 && lead.score <= 100);
    assert.ok(costCredits >= 1, "the local engine reports a cost like its other tasks");
  });

  test("the rationale names what matched, on one line", async () => {
    const { scored } = await scoreLeads(model, { icp: ICP, candidates: ALL });
    const rationale = (c: LeadCandidate) => scored.find((lead) => lead.candidate === c)?.rationale ?? "";
    assert.match(rationale(FOUNDER_ON_CHURN_PLAIN_BIO), /^Founder in bio; posted about churn/);
    assert.match(rationale(FOUNDER_ELSEWHERE), /CEO in bio|Cofounder in bio/);
    assert.match(rationale(COPYWRITER_ON_CHURN), /No ICP role in bio; posted about churn/);
    assert.match(rationale(ROLE_AS_TOPIC), /No ICP role in bio; posted about churn/);
    for (const lead of scored) assert.doesNotMatch(lead.rationale, /\n/);
  });

  test("feedback examples move scores: toward people like the fit ones, away from the not-fit ones", async () => {
    const icp = "founders";
    const pricingFounder = candidate("6", "Founder @Quillo. Writing about pricing.", "Charge more than feels comfortable: pricing is a product.");
    const cryptoFounder = candidate("7", "Web3 founder. Thoughts on DeFi and stablecoins.", "Stablecoins are the only product-market fit crypto found.");
    const plain = await scoreLeads(model, { icp, candidates: [pricingFounder, cryptoFounder] });
    assert.equal(scoreOf(plain.scored, pricingFounder), scoreOf(plain.scored, cryptoFounder), "without feedback both are founders alike");
    const examples = {
      fit: ["Founder @Sprout. Helping teams with pricing. | Our pricing page doubled conversions."],
      notFit: ["Crypto trader. DeFi and stablecoins all day. | Stablecoins will eat payments."],
    };
    const judged = await scoreLeads(model, { icp, examples, candidates: [pricingFounder, cryptoFounder] });
    assert.ok(scoreOf(judged.scored, pricingFounder) > scoreOf(plain.scored, pricingFounder), "like a fit example: up");
    assert.ok(scoreOf(judged.scored, cryptoFounder) < scoreOf(plain.scored, cryptoFounder), "like a not-fit example: down");
    assert.match(judged.scored[0].rationale, /like leads marked fit \(pricing/);
    assert.match(judged.scored[1].rationale, /like leads marked not fit \(.*stablecoin/i);
  });

  test("an offer word in the post counts less than an ICP topic, an ICP with no role scores topics alone", async () => {
    const offer = candidate("8", "Operator. Thoughts on runway.", "We finally fixed onboarding emails.");
    const withOffer = await scoreLeads(model, { icp: "founders fighting churn", offer: "onboarding emails that keep users", candidates: [offer] });
    assert.ok(withOffer.scored[0].score > 0 && withOffer.scored[0].score < 50);
    assert.match(withOffer.scored[0].rationale, /\(the offer\)/);
    const topicsOnly = await scoreLeads(model, { icp: "people writing about churn", candidates: [COPYWRITER_ON_CHURN, RUNNER] });
    assert.ok(topicsOnly.scored[0].score >= 60, "the post is all the ICP asks for");
    assert.equal(topicsOnly.scored[1].score, 0);
  });

  test(`batches of ${LEAD_SCORING_BATCH}: every candidate comes back once, costs add up`, async () => {
    const many = Array.from({ length: LEAD_SCORING_BATCH * 2 + 3 }, (_, i) => candidate(String(100 + i), "Founder.", i % 2 ? "churn again" : "hello"));
    const { scored, costCredits } = await scoreLeads(model, { icp: ICP, candidates: many });
    assert.deepEqual(
      scored.map((lead) => lead.candidate),
      many,
    );
    assert.ok(costCredits >= 3, "three calls, each at least a credit");
  });

  test("leadProfileOf gives exactly the lead profile fields", () => {
    const profile = leadProfileOf(user("42", "Founder.", { location: null, url: "https://acme.com" }));
    assert.deepEqual(z.object(leadProfileFields).strict().parse(profile), profile);
    assert.equal(profile.x_user_id, "42");
    assert.equal(profile.location, "");
    assert.equal(profile.posts_count, 4200);
  });
});

describe("OpenAI-compatible engine", () => {
  let fake: FakeOpenAiServer;
  before(async () => {
    fake = await startFakeOpenAiServer();
  });
  after(() => fake.close());
  const remote = () => createOpenAiCompatibleModel({ baseUrl: fake.baseUrl, apiKey: "sk-test", model: "gpt-test", retryBaseDelayMs: 10 });

  test("the prompt carries the ICP, the offer, the examples and every candidate; the answer is mapped back by id", async () => {
    const from = fake.requests.length;
    fake.script({
      kind: "chat",
      text: 'Here you go:\n```json\n{"leads": [{"id": "2", "score": 41.6, "rationale": "CEO, but\\nno churn"}, {"id": 1, "score": 88, "rationale": "Founder; churn"}, {"id": "9", "score": 99, "rationale": "not asked"}, {"id": "1", "score": 5, "rationale": "repeat"}]}\n```',
    });
    const { scored, costCredits } = await scoreLeads(remote(), {
      icp: ICP,
      offer: "a churn dashboard",
      examples: { fit: ["Founder @Acme. churn"], notFit: ["Running coach"] },
      candidates: [FOUNDER_ON_CHURN, FOUNDER_ELSEWHERE, RUNNER],
    });
    const requests = fake.requests.slice(from);
    assert.equal(requests.length, 1);
    const [system, userMessage] = requests[0].body.messages.map((message: { content: string }) => message.content);
    assert.match(system, /Judge how well each candidate fits/);
    assert.match(userMessage, /Ideal customer profile:\nB2B SaaS founders struggling with churn/);
    assert.match(userMessage, /Offer:\na churn dashboard/);
    assert.match(userMessage, /marked fit:\n<data>\n- Founder @Acme\. churn\n<\/data>/, "the examples are fenced material");
    assert.match(userMessage, /marked not fit:\n<data>\n- Running coach\n<\/data>/);
    assert.match(
      userMessage,
      /id: 1\nname: User 1 \(@user1\), 1200 followers\nbio: Founder @Acme\. Writing about churn and pricing\.\npost: Churn is 20% tools/,
    );
    assert.match(userMessage, /id: 3\n.*\nbio: Running coach/);
    // The third candidate (the runner) was left out of the answer: not judged, so not scored.
    assert.deepEqual(
      scored.map((lead) => [lead.candidate.user.id, lead.score, lead.rationale]),
      [
        ["1", 88, "Founder; churn"],
        ["3", 42, "CEO, but no churn"],
      ],
    );
    assert.ok(costCredits >= 1);
  });

  test("a malformed answer is a ModelFailedError", async () => {
    fake.script({ kind: "chat", text: "Candidate 1 looks great, candidate 2 less so." });
    await assert.rejects(() => scoreLeads(remote(), { icp: ICP, candidates: [FOUNDER_ON_CHURN] }), ModelFailedError);
    fake.script({ kind: "chat", text: '{"leads": [{"id": "1", "score": 140, "rationale": "too keen"}]}' });
    await assert.rejects(() => scoreLeads(remote(), { icp: ICP, candidates: [FOUNDER_ON_CHURN] }), ModelFailedError);
    fake.script({ kind: "chat", text: '{"leads": [{"id": "1", "score": 80, "rationale": "  "}]}' });
    await assert.rejects(() => scoreLeads(remote(), { icp: ICP, candidates: [FOUNDER_ON_CHURN] }), ModelFailedError);
  });

  test("parseTaskOutput normalises a lead_scoring answer", () => {
    const parsed = parseTaskOutput("lead_scoring", '{"leads": [{"id": 7, "score": 69.5, "rationale": "a\\n b"}]}');
    assert.deepEqual(parsed, { leads: [{ id: "7", score: 70, rationale: "a b" }] });
  });
});
