/**
 * Research (`POST /v1/datasets` with `source: research`; docs/areas.md "Datasets"): the four
 * sources and their exactly-one-of rule, synchronous runs (`201`) and background ones
 * (`202`, then the `build_dataset` job to `ready`, resuming after a crash without
 * duplicates, `failed` on the last attempt), 1 credit per profile researched with the
 * others refunded, the live allowance running out mid-run (skipped, no `429`), a run
 * reading nobody (`200`, `data: null`), the day cap and platform ceiling (`429
 * ai_action_limited`), an empty pool (`429 ai_credits_exhausted`), the verbatim hook check
 * on a remote model's answer (fake OpenAI-compatible server) and the local engine's briefs.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Answer, type Harness, type Transport } from "./support/harness.ts";
import { expectError } from "./support/expect_error.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "./support/fake_openai_server.ts";
import { pollUntil } from "./support/child_node.ts";
import { createContextInner } from "../core/context.ts";
import { chargeCredits, creditState, refundCreditsIn } from "../core/credits/credits.ts";
import type { CreditOwner } from "../core/request_state/credit_state.ts";
import { planById } from "../core/plans/plans.ts";
import { consumeAllowances, releaseAllowances, type AllowanceSpec } from "../core/limits/allowances.ts";
import { dailyActionCap, LIVE_LOOKUPS, PLATFORM_LIVE_DATA } from "../core/limits/allowance_catalog.ts";
import { jobHandlers } from "../jobs/task_list.ts";
import { runJobsOnce } from "../core/jobs/job_runner.ts";
import type { JobRow } from "../core/jobs/jobs_queries.ts";
import { datasetById, deleteDataset, insertDataset, rowsPage, type StoredRow } from "../core/datasets/datasets_queries.ts";
import { runResearch } from "../core/datasets/research_dataset.ts";
import { quoteIn, verbatimHooks } from "../core/datasets/hook_check.ts";
import { RESEARCH_WINDOW_DAYS } from "../core/datasets/research_profile.ts";
import { NetworkUnavailableError } from "../core/network/network_errors.ts";
import type { NetworkPost } from "../core/network/network_records.ts";
import type { SocialNetwork } from "../core/network/social_network.ts";
import { researchProfile } from "../adapters/ai/local/profile_research.ts";

const storage = process.env.DATABASE_URL ? "PostgreSQL" : "embedded PGlite";

/** Public handles of the simulated world that post often. */
const ACTIVE = ["kai_on_ai", "nina_designs", "ada_builds", "dana_writes", "eli_ships", "nia_spent", "tia_trial", "lee_lapsed"];

/** The recent original posts research reads for `handle`. */
async function recentPosts(harness: Harness, handle: string): Promise<NetworkPost[]> {
  const { network, clock } = harness.services;
  const user = await network.userByUsername(handle);
  const since = new Date(clock.now() - RESEARCH_WINDOW_DAYS * 86_400_000).toISOString();
  const page = await network.timeline(user.id, { excludeReplies: true, excludeReposts: true, since, limit: 20 });
  return page.items.filter((post) => post.kind === "post" && post.text.trim().length > 0);
}

/** A follower of a large account far down its list: exists, never posts. */
async function lurkerHandle(harness: Harness): Promise<string> {
  const { network } = harness.services;
  const kai = await network.userByUsername("kai_on_ai");
  let page = await network.followers(kai.id, { limit: 1000 });
  for (let i = 0; i < 3; i++) page = await network.followers(kai.id, { limit: 1000, cursor: page.nextCursor });
  const quiet = page.items.find((user) => user.postCount === 0 && !user.protected);
  assert.ok(quiet, "a follower who never posts");
  return quiet.username;
}

async function rowsOf(harness: Harness, id: string): Promise<StoredRow[]> {
  return rowsPage(harness.services.sql, id, { limit: 100, offset: 0 });
}

/** Every hook quotes its post verbatim. */
async function assertHooksVerbatim(harness: Harness, rows: readonly StoredRow[]): Promise<number> {
  let hooks = 0;
  for (const row of rows) {
    for (const hook of row.hooks ?? []) {
      const post = await harness.services.network.postById(hook.post_id);
      assert.ok(post.text.includes(hook.quote), `"${hook.quote}" is in post ${hook.post_id}`);
      assert.equal(post.authorId, row.x_user_id, "a hook quotes the person's own post");
      assert.match(hook.post_url, new RegExp(`/${row.handle}/status/${hook.post_id}$`));
      hooks += 1;
    }
  }
  return hooks;
}

describe(`research datasets (${storage})`, { timeout: 300_000 }, () => {
  let harness: Harness;
  let owner: CreditOwner;
  let key: string;
  let unknown: string;
  let lurker: string;
  const spent = async () => (await creditState(createContextInner({ services: harness.services }), owner)).spent;
  const ctx = () => createContextInner({ services: harness.services });
  const research = (transport: Transport, body: Record<string, unknown>, withKey = key) =>
    transport.request("POST", "/v1/datasets", { key: withKey, body: { source: "research", ...body } });

  /** Takes every unit left of `spec` for A's owner; answers how many, to give back. */
  async function exhaust(spec: AllowanceSpec, leave = 0): Promise<() => Promise<void>> {
    const read = await consumeAllowances(ctx(), owner.ownerId, [{ spec, units: 0 }]);
    assert.equal(read.status, "allowed");
    const units = Math.max(0, read.allowances[0].remaining - leave);
    const taken = await consumeAllowances(ctx(), owner.ownerId, [{ spec, units }]);
    assert.equal(taken.status, "allowed");
    return async () => {
      await releaseAllowances(ctx(), owner.ownerId, [{ spec, units }]);
    };
  }

  /** Live lookups A's owner has used today. */
  async function liveUsed(): Promise<number> {
    const read = await consumeAllowances(ctx(), owner.ownerId, [{ spec: LIVE_LOOKUPS, units: 0 }]);
    assert.equal(read.status, "allowed");
    return read.allowances[0].used;
  }

  before(async () => {
    harness = await startHarness();
    key = harness.world.keys.write;
    const main = harness.world.accounts.main;
    const [user] = await harness.services.sql<{ plan: string; billing_anchor: Date }[]>`
      select u.plan, u.billing_anchor from users u join accounts a on a.user_id = u.id where a.id = ${main}`;
    owner = { ownerId: main, plan: planById(user.plan), billingAnchor: user.billing_anchor };
    unknown = harness.world.x?.unknown_handle ?? "no_such_person_zz";
    lurker = await lurkerHandle(harness);
  });
  after(() => harness.close());

  describeMatrix(({ index, name }) => {
    describe(`through ${name}`, () => {
      const transport = () => transports(harness)[index];

      test("two handles: 201 ready, a brief and verbatim hooks per person, 1 credit each", async () => {
        const before = await spent();
        const answer = await research(transport(), { handles: ["@kai_on_ai", "nina_designs"], focus: "AI agents" });
        assert.equal(answer.status, 201, JSON.stringify(answer.body));
        const data = answer.body.data;
        assert.equal(data.status, "ready");
        assert.equal(data.source, "research");
        assert.equal(data.row_count, 2);
        assert.deepEqual(data.counts, { researched: 2, skipped: 0 });
        assert.equal(data.title, "Research: @kai_on_ai, @nina_designs");
        assert.equal(data.focus, "AI agents");
        assert.equal(data.has_people, true);
        assert.equal(answer.body.meta.credits_charged, 2);
        assert.deepEqual(answer.body.meta.skipped, []);
        assert.equal(answer.headers.get("X-Credits-Charged"), "2");
        assert.match(answer.headers.get("X-Credits-Remaining") ?? "", /^\d+$/);
        assert.match(answer.headers.get("X-Credits-Reset") ?? "", /^\d+$/);
        assert.equal((await spent()) - before, 2);
        const rows = await rowsOf(harness, data.id);
        assert.deepEqual(
          rows.map((row) => row.handle),
          ["kai_on_ai", "nina_designs"],
        );
        for (const row of rows) {
          assert.equal(row.key, row.x_user_id, "one row per person, keyed by X id");
          assert.ok(row.brief && row.brief.summary.length > 0 && row.brief.topics.length > 0 && row.brief.tone.length > 0);
          assert.ok((row.hooks ?? []).length > 0, `@${row.handle} has hooks`);
        }
        assert.ok((await assertHooksVerbatim(harness, rows)) >= 2);
        const read = await transport().request("GET", `/v1/datasets/${data.id}`, { key });
        assert.equal(read.status, 200);
        assert.deepEqual(read.body.data.counts, { researched: 2, skipped: 0 });
      });

      test("unknown, protected and quiet profiles are skipped and refunded; only the researched one is charged", async () => {
        const before = await spent();
        const answer = await research(transport(), { handles: ["kai_on_ai", unknown, "quiet_vault", lurker] });
        assert.equal(answer.status, 201, JSON.stringify(answer.body));
        assert.deepEqual(answer.body.data.counts, { researched: 1, skipped: 3 });
        assert.equal(answer.body.meta.credits_charged, 1);
        assert.equal(answer.headers.get("X-Credits-Charged"), "1");
        const reasons = Object.fromEntries(answer.body.meta.skipped.map((entry: any) => [entry.handle.toLowerCase(), entry.reason]));
        assert.deepEqual(reasons, { [unknown.toLowerCase()]: "not_found", quiet_vault: "protected", [lurker.toLowerCase()]: "no_recent_posts" });
        assert.equal((await spent()) - before, 1, "4 charged up front, 3 refunded");
      });

      test("a run that researches nobody answers 200 with data null, a note, and every credit returned", async () => {
        const before = await spent();
        const [{ count: datasetsBefore }] = await harness.services.sql<{ count: number }[]>`select count(*)::int as count from datasets`;
        const answer = await research(transport(), { handles: [unknown, "quiet_vault"] });
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        assert.equal(answer.body.data, null);
        assert.match(answer.body.note, /No profile could be researched/);
        assert.equal(answer.body.meta.credits_charged, 0);
        assert.equal(answer.body.meta.skipped.length, 2);
        assert.equal(answer.headers.get("X-Credits-Charged"), "0");
        assert.equal((await spent()) - before, 0);
        const [{ count: datasetsAfter }] = await harness.services.sql<{ count: number }[]>`select count(*)::int as count from datasets`;
        assert.equal(datasetsAfter, datasetsBefore, "nothing stored");
      });

      test("exactly one source; max_rows up to 25; collection fields refused", async () => {
        const cases: [string, Record<string, unknown>][] = [
          ["no source", {}],
          ["two sources", { handles: ["kai_on_ai"], list_id: harness.world.contact_lists.user }],
          ["three sources", { handles: ["kai_on_ai"], agent_id: harness.world.signals.agent, dataset_id: harness.world.datasets.not_research }],
          ["max_rows 26", { handles: ["kai_on_ai"], max_rows: 26 }],
          ["26 handles", { handles: Array.from({ length: 26 }, (_, i) => `person${i}`) }],
          ["a target", { handles: ["kai_on_ai"], target: "123" }],
          ["filters", { handles: ["kai_on_ai"], filters: { min_followers: 10 } }],
          ["a malformed handle", { handles: ["not a handle!"] }],
        ];
        for (const [what, body] of cases) expectError(await research(transport(), body), 400, "invalid_parameter", what);
      });

      test("unknown or foreign sources are 404; a dataset still collecting or failed is 409 with its status", async () => {
        expectError(await research(transport(), { list_id: 987654 }), 404, "list_not_found");
        expectError(await research(transport(), { agent_id: 987654 }), 404, "agent_not_found");
        expectError(await research(transport(), { dataset_id: "ds_nope" }), 404, "not_found");
        const foreign = await research(transport(), { dataset_id: harness.world.datasets.research_ready }, harness.world.keys.other_user);
        expectError(foreign, 404, "not_found", "another user's dataset");
        const collecting = await research(transport(), { dataset_id: harness.world.datasets.collecting });
        expectError(collecting, 409, "dataset_not_ready");
        assert.equal(collecting.body.error.dataset_status, "collecting");
        const failed = await research(transport(), { dataset_id: harness.world.datasets.failed });
        expectError(failed, 409, "dataset_not_ready");
        assert.equal(failed.body.error.dataset_status, "failed");
      });
    });
  });

  test("a contact list (newest members first), a signal agent's leads (best score first) and another dataset's people (row order)", async () => {
    const [transport] = transports(harness);
    const { sql } = harness.services;
    /** The X ids a run read: its rows and its skipped, as a set. */
    const readBy = async (answer: Answer) =>
      new Set([...(await rowsOf(harness, answer.body.data.id)).map((row) => row.x_user_id), ...answer.body.meta.skipped.map((entry: any) => entry.x_user_id)]);

    const listId = harness.world.contact_lists.user;
    const fromList = await research(transport, { list_id: String(listId), max_rows: 2 });
    assert.equal(fromList.status, 201, JSON.stringify(fromList.body));
    assert.match(fromList.body.data.title, /^Research: list "/);
    const members = await sql<{ x_user_id: string }[]>`
      select x_user_id from contact_list_members where list_id = ${listId} order by added_at desc, id desc limit 2`;
    assert.deepEqual(await readBy(fromList), new Set(members.map((member) => member.x_user_id)));

    const leads = await sql<{ x_user_id: string }[]>`
      select x_user_id from signal_leads where agent_id = ${harness.world.signals.agent} order by icp_score desc, discovered_at desc, id desc limit 2`;
    assert.equal(leads.length, 2, "the demo agent has leads");
    const fromAgent = await research(transport, { agent_id: harness.world.signals.agent, max_rows: 2 });
    assert.equal(fromAgent.status, 201, JSON.stringify(fromAgent.body));
    assert.match(fromAgent.body.data.title, /^Research: leads of "/);
    assert.deepEqual(await readBy(fromAgent), new Set(leads.map((lead) => lead.x_user_id)), "the best-scored leads");

    const source = harness.world.datasets.not_research;
    const liveBefore = await liveUsed();
    const fromDataset = await research(transport, { dataset_id: source, max_rows: 3, title: "Repliers researched" });
    assert.equal((await liveUsed()) - liveBefore, 3, "people known by X id: 1 live lookup each (Limits 8)");
    assert.equal(fromDataset.status, 201, JSON.stringify(fromDataset.body));
    assert.equal(fromDataset.body.data.title, "Repliers researched");
    assert.equal(fromDataset.body.data.max_rows, 3);
    const firstThree = (await rowsOf(harness, source)).slice(0, 3).map((row) => row.x_user_id);
    assert.deepEqual(await readBy(fromDataset), new Set(firstThree), "the source's first people, by X id");
    assert.equal((await datasetById(sql, fromDataset.body.data.id))?.parent_id, source);
    const handlesBefore = await liveUsed();
    assert.equal((await research(transport, { handles: ["kai_on_ai"] })).status, 201);
    assert.equal((await liveUsed()) - handlesBefore, 2, "a handle: 2 live lookups (Limits 8)");
  });

  test("more than 5 profiles: 202 collecting without X-Credits-Charged, then the job makes it ready; unknown handles refunded", async () => {
    const [transport] = transports(harness);
    const before = await spent();
    const handles = [...ACTIVE.slice(0, 6), unknown];
    // A background collection of the same account is running: research is not bound by it (Limits 7).
    const { sql: db } = harness.services;
    const collectionId = `ds_bgcollection${Date.now()}`;
    const nowDate = new Date(harness.services.clock.now());
    await insertDataset(db, {
      id: collectionId,
      owner_id: (await datasetById(db, harness.world.datasets.research_ready))!.owner_id,
      account_id: harness.world.accounts.main,
      source: "repliers",
      title: "A collection running",
      status: "collecting",
      params: { max_rows: 500 },
      created_at: nowDate,
      expires_at: new Date(nowDate.getTime() + 86_400_000),
    });
    const answer = await research(transport, { handles });
    await deleteDataset(db, collectionId);
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    assert.equal(answer.body.data.status, "collecting");
    assert.equal(answer.body.data.row_count, 0);
    assert.equal(answer.body.data.expected_total, 7);
    assert.equal(answer.headers.get("X-Credits-Charged"), null);
    assert.match(answer.headers.get("X-Credits-Remaining") ?? "", /^\d+$/);
    assert.match(answer.headers.get("X-Credits-Reset") ?? "", /^\d+$/);
    assert.equal((await spent()) - before, 7, "charged up front for every granted profile");
    const id = answer.body.data.id;
    assert.equal((await datasetById(db, id))?.quota_day, null, "no daily collection slot taken");
    const { sql, clock, network, model } = harness.services;
    const ran = await runJobsOnce({ sql, runnerId: "research-test", kinds: ["build_dataset"], handlers: jobHandlers({ sql, clock, network, model }) });
    assert.equal(ran.completed, 1);
    const ready = await pollUntil(
      "the research dataset to be ready",
      async () => {
        const read = await transport.request("GET", `/v1/datasets/${id}`, { key });
        return read.body.data.status === "ready" ? read.body.data : undefined;
      },
      { timeoutMs: 30_000 },
    );
    assert.deepEqual(ready.counts, { researched: 6, skipped: 1 });
    assert.equal(ready.row_count, 6);
    assert.match(ready.note, new RegExp(`@${unknown} \\(not_found\\)`));
    assert.equal((await spent()) - before, 6, "the unknown handle refunded");
    const rows = await rowsOf(harness, id);
    assert.deepEqual(
      rows.map((row) => row.handle),
      ACTIVE.slice(0, 6),
    );
    await assertHooksVerbatim(harness, rows);
  });

  test("a job that crashes mid-run resumes without redoing a stored profile; the last attempt fails and refunds the unread", async () => {
    const [transport] = transports(harness);
    const before = await spent();
    const answer = await research(transport, { handles: ACTIVE.slice(0, 7) });
    assert.equal(answer.status, 202);
    const id = answer.body.data.id;
    const { sql, clock, network, model } = harness.services;
    // Drop the queued job: this test drives the runner by hand.
    await sql`delete from jobs where unique_key = ${`build_dataset:${id}`}`;
    let reads = 0;
    const flaky: SocialNetwork = {
      ...network,
      userByUsername: async (handle: string) => {
        reads += 1;
        if (reads === 3) throw new NetworkUnavailableError("the network went away");
        return network.userByUsername(handle);
      },
    };
    const job = (attempts: number) => ({ attempts, max_attempts: 5 }) as JobRow;
    await assert.rejects(runResearch({ sql, clock, network: flaky, model }, (await datasetById(sql, id))!, job(1)), NetworkUnavailableError);
    const mid = (await datasetById(sql, id))!;
    assert.equal(mid.status, "collecting");
    assert.equal(mid.rows_collected, 2);
    assert.equal(mid.row_count, 2);
    const seen: string[] = [];
    const counting: SocialNetwork = {
      ...network,
      userByUsername: async (handle: string) => {
        seen.push(handle);
        return network.userByUsername(handle);
      },
    };
    await runResearch({ sql, clock, network: counting, model }, mid, job(2));
    assert.deepEqual(seen, ACTIVE.slice(2, 7), "resumed at the third profile");
    const done = (await datasetById(sql, id))!;
    assert.equal(done.status, "ready");
    assert.equal(done.row_count, 7);
    assert.equal(new Set((await rowsOf(harness, id)).map((row) => row.key)).size, 7);
    assert.equal((await spent()) - before, 7);

    const second = await research(transport, { handles: ACTIVE.slice(0, 6) });
    assert.equal(second.status, 202);
    const failingId = second.body.data.id;
    await sql`delete from jobs where unique_key = ${`build_dataset:${failingId}`}`;
    reads = 0;
    const afterSecond = await spent();
    await runResearch({ sql, clock, network: flaky, model }, (await datasetById(sql, failingId))!, job(5));
    const failed = (await datasetById(sql, failingId))!;
    assert.equal(failed.status, "failed");
    assert.match(failed.error ?? "", /4 profile\(s\) not read were refunded/);
    assert.equal(failed.row_count, 2);
    assert.equal(afterSecond - (await spent()), 4, "the 4 unread profiles refunded, the 2 researched kept");
    const read = await transport.request("GET", `/v1/datasets/${failingId}`, { key });
    assert.equal(read.body.data.status, "failed");
  });

  test("the live allowance running out mid-run: the rest skipped allowance_exhausted, no 429, only the researched charged", async () => {
    const [transport] = transports(harness);
    // 3 units left: the first handle takes 2, the second needs 2.
    const giveBack = await exhaust(LIVE_LOOKUPS, 3);
    try {
      const before = await spent();
      const answer = await research(transport, { handles: ["kai_on_ai", "nina_designs", "ada_builds"] });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      assert.deepEqual(answer.body.data.counts, { researched: 1, skipped: 2 });
      assert.deepEqual(
        answer.body.meta.skipped.map((entry: any) => [entry.handle, entry.reason]),
        [
          ["nina_designs", "allowance_exhausted"],
          ["ada_builds", "allowance_exhausted"],
        ],
      );
      assert.equal(answer.headers.get("X-Credits-Charged"), "1");
      assert.equal((await spent()) - before, 1);
      // Now 1 unit is left: a handle (2) cannot be read at all -> 200, data null, nothing charged.
      const none = await research(transport, { handles: ["nina_designs"] });
      assert.equal(none.status, 200, JSON.stringify(none.body));
      assert.equal(none.body.data, null);
      assert.equal(none.body.meta.skipped[0].reason, "allowance_exhausted");
      assert.equal((await spent()) - before, 1);
    } finally {
      await giveBack();
    }
  });

  test("the plan's research_profiles day cap: 429 ai_action_limited scope account", async () => {
    const [transport] = transports(harness);
    const giveBack = await exhaust(dailyActionCap("research_profiles", owner.plan.id), 1);
    try {
      const before = await spent();
      const answer = await research(transport, { handles: ["kai_on_ai", "nina_designs"] });
      expectError(answer, 429, "ai_action_limited");
      assert.equal(answer.body.error.scope, "account");
      assert.ok(answer.body.error.retry_after > 0 && answer.body.error.reset_at > 0);
      assert.equal((await spent()) - before, 0);
    } finally {
      await giveBack();
    }
  });

  test("the platform ceiling: 429 ai_action_limited scope platform", async () => {
    const [transport] = transports(harness);
    const giveBack = await exhaust(PLATFORM_LIVE_DATA);
    try {
      const answer = await research(transport, { handles: ["kai_on_ai"] });
      expectError(answer, 429, "ai_action_limited");
      assert.equal(answer.body.error.scope, "platform");
    } finally {
      await giveBack();
    }
  });

  test("an empty pool: 429 ai_credits_exhausted before anything runs", async () => {
    for (const transport of transports(harness)) {
      const answer = await research(transport, { handles: ["kai_on_ai"] }, harness.world.keys.no_credits);
      expectError(answer, 429, "ai_credits_exhausted", transport.name);
      assert.equal(answer.body.error.credits_required, 1);
    }
  });

  test("the local engine: topics from the posts' words, hooks copied from the posts", async () => {
    const posts = (await recentPosts(harness, "nina_designs")).map((post) => ({ id: post.id, text: post.text }));
    const brief = researchProfile({ person: { handle: "nina_designs", name: "Nina Okafor", bio: "Design lead." }, posts, focus: "design systems" });
    const allText = posts.map((post) => post.text.toLowerCase()).join("\n");
    assert.ok(brief.topics.length > 0);
    for (const topic of brief.topics) assert.ok(allText.includes(topic), `topic "${topic}" is a word of the posts`);
    assert.ok(brief.hooks.length > 0 && brief.hooks.length <= 3);
    const byId = new Map(posts.map((post) => [post.id, post.text]));
    for (const hook of brief.hooks) assert.ok(byId.get(hook.post_id)?.includes(hook.quote), `"${hook.quote}" copied from its post`);
    assert.match(brief.summary, /Nina Okafor posts mostly about/);
    assert.match(brief.summary, /design systems/);
    const empty = researchProfile({ person: { handle: "x", name: "X", bio: "" }, posts: [] });
    assert.deepEqual(empty.hooks, []);
  });

  test("refundCreditsIn gives back at most what a reference kept, in the caller's transaction", async () => {
    const reference = `test:research:${crypto.randomUUID()}`;
    await chargeCredits(ctx(), owner, { amount: 3, reference });
    const now = new Date(harness.services.clock.now());
    const first = await harness.services.sql.begin((tx) => refundCreditsIn(tx, owner, { reference, now, amount: 1 }));
    assert.equal(first, 1);
    const rest = await harness.services.sql.begin((tx) => refundCreditsIn(tx, owner, { reference, now, amount: 5 }));
    assert.equal(rest, 2, "capped at what is still kept");
    const none = await harness.services.sql.begin((tx) => refundCreditsIn(tx, owner, { reference, now }));
    assert.equal(none, 0);
  });

  test("the hook check keeps a quote only when it is in the post it names (whitespace runs aside)", () => {
    const posts = [{ id: "1", text: "Ship small.\nShip often, and   measure what users do.", createdAt: "2026-11-20T00:00:00.000Z" }];
    assert.equal(quoteIn(posts[0].text, "Ship often, and measure what users do."), "Ship often, and   measure what users do.");
    assert.equal(quoteIn(posts[0].text, "Ship often and measure what users do."), undefined, "a dropped comma is not verbatim");
    assert.equal(quoteIn(posts[0].text, "ship small."), undefined, "case is not forgiven");
    const { hooks, dropped } = verbatimHooks(
      [
        { post_id: "1", quote: "Ship small." },
        { post_id: "2", quote: "Ship small." },
        { post_id: "1", quote: "Users love small releases." },
      ],
      posts,
      "someone",
    );
    assert.deepEqual(hooks, [{ quote: "Ship small.", post_id: "1", post_url: "https://x.com/someone/status/1", posted_at: "2026-11-20T00:00:00.000Z" }]);
    assert.equal(dropped, 2);
  });
});

describe(`research with a remote model (${storage})`, { timeout: 120_000 }, () => {
  let fake: FakeOpenAiServer;
  let remote: Harness;
  before(async () => {
    fake = await startFakeOpenAiServer();
    remote = await startHarness({ config: { aiBaseUrl: fake.baseUrl, aiModel: "research-model" } });
  });
  after(async () => {
    await remote.close();
    await fake.close();
  });

  test("only the verbatim hook is kept; the paraphrased one is dropped", async () => {
    const [post] = await recentPosts(remote, "kai_on_ai");
    assert.ok(post, "kai has a recent post");
    const words = post.text.split(/\s+/).filter(Boolean);
    const verbatim = words.slice(0, Math.min(6, words.length)).join(" ");
    const paraphrase = `In short, ${words.slice(0, 4).join(" ").toLowerCase()} matters a lot`;
    fake.script({
      kind: "chat",
      text: JSON.stringify({
        summary: "Writes about AI agents.",
        topics: ["agents", "evals"],
        tone: "direct",
        recent_themes: ["shipping"],
        hooks: [
          { post_id: post.id, quote: paraphrase },
          { post_id: post.id, quote: verbatim },
          { post_id: "1", quote: verbatim },
        ],
      }),
    });
    const [transport] = transports(remote);
    const answer = await transport.request("POST", "/v1/datasets", {
      key: remote.world.keys.write,
      body: { source: "research", handles: ["kai_on_ai"], focus: "evals" },
    });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    const prompt = JSON.stringify(fake.requests.at(-1)!.body.messages);
    assert.match(prompt, new RegExp(`post_id: ${post.id}`), "the model is shown each post with its id");
    assert.match(prompt, /evals/, "and the focus");
    const [row] = await rowsOf(remote, answer.body.data.id);
    assert.deepEqual(row.brief, { summary: "Writes about AI agents.", topics: ["agents", "evals"], tone: "direct", recent_themes: ["shipping"] });
    assert.equal(row.hooks?.length, 1);
    assert.equal(row.hooks?.[0].quote, quoteIn(post.text, verbatim));
    assert.equal(row.hooks?.[0].post_id, post.id);
  });

  test("an answer that is not the brief's JSON: the profile is skipped model_failed and refunded", async () => {
    fake.script({ kind: "chat", text: "Sorry, I cannot help with that." });
    const [transport] = transports(remote);
    const answer = await transport.request("POST", "/v1/datasets", { key: remote.world.keys.write, body: { source: "research", handles: ["kai_on_ai"] } });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.data, null);
    assert.deepEqual(
      answer.body.meta.skipped.map((entry: any) => entry.reason),
      ["model_failed"],
    );
    assert.equal(answer.headers.get("X-Credits-Charged"), "0");
  });
});
