/**
 * Refine (docs/areas.md "Datasets"; supplement: refine; spec Limits 7): a criterion judged on each
 * row's own text makes a NEW dataset, synchronously (`201`) up to 100 rows with text and in
 * the background (`202`, the `build_dataset` job) beyond, resuming from saved verdicts after
 * a failure. The model is the local engine, and the OpenAI-compatible client against the
 * loopback fake server for the prompt, a reply that leaves a row out or answers `unclear`,
 * and model failures. Datasets are written through the dataset queries.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Answer, type Harness } from "./support/harness.ts";
import { expectError } from "./support/expect_error.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "./support/fake_openai_server.ts";
import { insertTestDataset, ownerOf, replierRow } from "./support/dataset_rows.ts";
import type { Sql } from "../core/db/sql.ts";
import type { Model } from "../core/model/model.ts";
import { jobHandlers } from "../jobs/task_list.ts";
import { runJobsOnce } from "../core/jobs/job_runner.ts";
import type { JobRow } from "../core/jobs/jobs_queries.ts";
import { datasetById } from "../core/datasets/datasets_queries.ts";
import { runRefine } from "../core/datasets/refine_dataset.ts";
import { quotaDayOf } from "../core/datasets/collection_quota.ts";
import { ModelUnavailableError } from "../core/model/model_errors.ts";

const storage = process.env.DATABASE_URL ? "PostgreSQL" : "embedded PGlite";

/** Ten replies: 1, 2, 7, 10 ask about pricing; 3, 4, 8 do not; 5 is too short, 6 and 9 have no text. */
const TEXTS: (string | null)[] = [
  "Your pricing is way too high for small teams",
  "What does the pricing look like for agencies?",
  "Loved the launch video, congrats to the whole team",
  "Great thread on design systems and tokens",
  "Nice",
  null,
  "Is the price per seat or per workspace?",
  "Shipping next week with the new onboarding flow",
  "",
  "pricing?",
];

const handlesOf = (answer: Answer) => answer.body.data.map((row: { handle: string }) => row.handle);

/** A model that counts calls and fails from call `failFrom` on (1-based; never when undefined). */
function flakyModel(inner: Model, failFrom?: number): Model & { calls: number } {
  const model = {
    engine: inner.engine,
    calls: 0,
    async generate(request: Parameters<Model["generate"]>[0]) {
      model.calls += 1;
      if (failFrom !== undefined && model.calls >= failFrom) throw new ModelUnavailableError("The model is down for this test", { reason: "unreachable" });
      return inner.generate(request);
    },
    generateImage: inner.generateImage.bind(inner),
  };
  return model;
}

/** A job row for calling `runRefine` directly at attempt `attempts` of 5. */
function jobAt(attempts: number): JobRow {
  return { attempts, max_attempts: 5 } as JobRow;
}

describe(`refine on the local engine (${storage})`, { timeout: 240_000 }, () => {
  let harness: Harness;
  let sql: Sql;
  let small: string;
  let large: string;
  let ownPosts: string;

  before(async () => {
    harness = await startHarness();
    sql = harness.services.sql;
    const ownerId = await ownerOf(sql, harness.world.datasets.not_research);
    const main = harness.world.accounts.main;
    small = await insertTestDataset(sql, { ownerId, accountId: main, title: "Launch repliers", rows: TEXTS.map((text, i) => replierRow(i + 1, text)) });
    // 150 rows with text (every third about pricing) and 10 without: a background refine.
    const rows = Array.from({ length: 160 }, (_, i) =>
      replierRow(i + 1, i >= 150 ? null : i % 3 === 0 ? `Question ${i} about the pricing tiers` : `Congrats on shipping release ${i} today`),
    );
    large = await insertTestDataset(sql, { ownerId, accountId: main, title: "Big launch", rows });
    ownPosts = await insertTestDataset(sql, { ownerId, accountId: main, source: "my_posts", rows: [{ key: "p1", post_id: "p1", post_text: "My post" }] });
  });
  after(() => harness.close());

  const runDatasetJobs = (model: Model = harness.services.model) =>
    runJobsOnce({
      sql,
      runnerId: "refine-test",
      kinds: ["build_dataset"],
      handlers: jobHandlers({ sql, clock: harness.services.clock, network: harness.services.network, model }),
    });

  describeMatrix(({ name, transport }) => {
    const request = (method: string, path: string, body?: unknown, key = harness.world.keys.write) => transport(harness).request(method, path, { key, body });

    describe(`synchronous (${name})`, () => {
      test("keeps the matches and the unclear rows in a new dataset, leaving the source untouched", async () => {
        const answer = await request("POST", `/v1/datasets/${small}/refine`, { criterion: "asks about pricing" });
        assert.equal(answer.status, 201, JSON.stringify(answer.body));
        const refined = answer.body.data;
        assert.notEqual(refined.id, small);
        assert.equal(refined.status, "ready");
        assert.equal(refined.source, "repliers");
        assert.equal(refined.refined_from, small);
        assert.equal(refined.criterion, "asks about pricing");
        assert.equal(refined.title, "Launch repliers (refined: asks about pricing)");
        assert.deepEqual(refined.counts, { kept: 7, dropped: 3, unclear: 3, matched: 7 });
        assert.equal(refined.row_count, 7);
        const rows = await request("GET", `/v1/datasets/${refined.id}/rows`);
        assert.deepEqual(handlesOf(rows), ["replier_1", "replier_2", "replier_5", "replier_6", "replier_7", "replier_9", "replier_10"]);
        const source = await request("GET", `/v1/datasets/${small}`);
        assert.equal(source.body.data.row_count, 10);
        assert.equal(source.body.data.criterion, null);
      });

      test("keep_matching false, sort_by followers and limit; a refined dataset refines again", async () => {
        const answer = await request("POST", `/v1/datasets/${small}/refine`, {
          criterion: "pricing",
          keep_matching: false,
          sort_by: "followers",
          limit: 3,
          title: "Not about pricing",
        });
        assert.equal(answer.status, 201, JSON.stringify(answer.body));
        assert.equal(answer.body.data.title, "Not about pricing");
        assert.deepEqual(answer.body.data.counts, { kept: 3, dropped: 4, unclear: 3, matched: 6 });
        const rows = await request("GET", `/v1/datasets/${answer.body.data.id}/rows`);
        assert.deepEqual(handlesOf(rows), ["replier_9", "replier_8", "replier_6"]);
        const byLikes = await request("POST", `/v1/datasets/${answer.body.data.id}/refine`, { criterion: "onboarding", sort_by: "likes" });
        assert.equal(byLikes.status, 201, JSON.stringify(byLikes.body));
        assert.equal(byLikes.body.data.refined_from, answer.body.data.id);
        // replier_8 matches (onboarding); 9 and 6 have no text: kept as unclear, most likes first.
        const likes = (await request("GET", `/v1/datasets/${byLikes.body.data.id}/rows`)).body.data.map((row: { likes: number }) => row.likes);
        assert.deepEqual(
          likes,
          [...likes].sort((a, b) => b - a),
        );
        assert.equal(likes.length, 3);
      });

      test("refusals: 400 bad body or a dataset without row text, 404, 409 not ready with the status, 403 read key", async () => {
        const path = `/v1/datasets/${small}/refine`;
        expectError(await request("POST", path, {}), 400, "invalid_parameter", "no criterion");
        expectError(await request("POST", path, { criterion: "   " }), 400, "invalid_parameter", "blank criterion");
        expectError(await request("POST", path, { criterion: "x".repeat(501) }), 400, "invalid_parameter", "criterion 501");
        expectError(await request("POST", path, { criterion: "pricing", sort_by: "reposts" }), 400, "invalid_parameter", "sort_by");
        expectError(await request("POST", path, { criterion: "pricing", limit: 0 }), 400, "invalid_parameter", "limit 0");
        expectError(await request("POST", path, { criterion: "pricing", limit: 1001 }), 400, "invalid_parameter", "limit 1001");
        expectError(await request("POST", path, { criterion: "pricing", keep_matching: "yes" }), 400, "invalid_parameter", "keep_matching");
        expectError(await request("POST", path, { criterion: "pricing", title: "" }), 400, "invalid_parameter", "empty title");
        const research = await request("POST", `/v1/datasets/${harness.world.datasets.research_ready}/refine`, { criterion: "pricing" });
        expectError(research, 400, "invalid_parameter", "research");
        assert.match(research.body.error.message, /repliers and quoters/);
        expectError(await request("POST", `/v1/datasets/${ownPosts}/refine`, { criterion: "pricing" }), 400, "invalid_parameter", "own posts");
        expectError(await request("POST", "/v1/datasets/bad.id/refine", { criterion: "pricing" }), 400, "invalid_parameter", "malformed id");
        expectError(await request("POST", "/v1/datasets/ds_unknown/refine", { criterion: "pricing" }), 404, "not_found", "unknown");
        expectError(await request("POST", path, { criterion: "pricing" }, harness.world.keys.other_user), 404, "not_found", "another user's");
        for (const [key, status] of [
          ["collecting", "collecting"],
          ["failed", "failed"],
        ] as const) {
          const answer = await request("POST", `/v1/datasets/${harness.world.datasets[key]}/refine`, { criterion: "pricing" });
          expectError(answer, 409, "dataset_not_ready", key);
          assert.equal(answer.body.error.dataset_status, status);
        }
        expectError(await request("POST", path, { criterion: "pricing" }, harness.world.keys.read), 403, "insufficient_scope", "read key");
        expectError(
          await request("POST", path, { criterion: "pricing", account_id: harness.world.accounts.other_user }),
          404,
          "account_not_found",
          "foreign account",
        );
      });
    });
  });

  describe("in the background", () => {
    const request = (method: string, path: string, body?: unknown) => transports(harness)[1].request(method, path, { key: harness.world.keys.write, body });
    const linked = () => harness.world.accounts.linked;
    let first: { id: string; rows: string[] };

    test("over 100 rows with text answers 202 collecting; one at a time per account; the job ends it ready", async () => {
      const answer = await request("POST", `/v1/datasets/${large}/refine`, { criterion: "pricing", account_id: linked() });
      assert.equal(answer.status, 202, JSON.stringify(answer.body));
      assert.equal(answer.body.data.status, "collecting");
      assert.equal(answer.body.data.row_count, 0);
      assert.equal(answer.body.data.expected_total, 150);
      assert.equal(answer.body.data.account_id, linked());
      expectError(
        await request("POST", `/v1/datasets/${large}/refine`, { criterion: "congrats", account_id: linked() }),
        409,
        "collection_in_progress",
        "second background refine",
      );
      expectError(await request("GET", `/v1/datasets/${answer.body.data.id}/rows`), 409, "dataset_not_ready", "rows while collecting");
      const result = await runDatasetJobs();
      assert.equal(result.completed, 1, JSON.stringify(result));
      const done = await request("GET", `/v1/datasets/${answer.body.data.id}`);
      assert.equal(done.body.data.status, "ready");
      // 50 of the 150 texts are about pricing; 10 rows have no text (unclear, kept).
      assert.deepEqual(done.body.data.counts, { kept: 60, dropped: 100, unclear: 10, matched: 60 });
      const rows = await request("GET", `/v1/datasets/${answer.body.data.id}/rows?limit=100`);
      first = { id: answer.body.data.id, rows: handlesOf(rows) };
      assert.equal(first.rows.length, 60);
      assert.equal(new Set(first.rows).size, 60);
    });

    test("a job that fails part way resumes from its saved verdicts without judging or writing a row twice", async () => {
      const answer = await request("POST", `/v1/datasets/${large}/refine`, { criterion: "pricing", account_id: linked() });
      assert.equal(answer.status, 202, JSON.stringify(answer.body));
      const id = answer.body.data.id;
      const broken = flakyModel(harness.services.model, 3);
      const deps = { sql, clock: harness.services.clock, network: harness.services.network, model: broken };
      const collecting = await datasetById(sql, id);
      assert.ok(collecting);
      await assert.rejects(runRefine(deps, collecting, jobAt(1)), ModelUnavailableError);
      const saved = await request("GET", `/v1/datasets/${id}`);
      assert.equal(saved.body.data.status, "collecting");
      assert.equal(saved.body.data.rows_collected, 50, "two batches of 25 judged and saved");
      const counting = flakyModel(harness.services.model);
      const result = await runDatasetJobs(counting);
      assert.equal(result.completed, 1, JSON.stringify(result));
      assert.equal(counting.calls, 4, "only the 100 rows not yet judged, in batches of 25");
      const rows = await request("GET", `/v1/datasets/${id}/rows?limit=100`);
      assert.deepEqual(handlesOf(rows), first.rows, "the same rows as a run that never failed");
    });

    test("on its last attempt a failing job ends the dataset failed with the reason", async () => {
      const answer = await request("POST", `/v1/datasets/${large}/refine`, { criterion: "pricing", account_id: linked() });
      assert.equal(answer.status, 202, JSON.stringify(answer.body));
      const collecting = await datasetById(sql, answer.body.data.id);
      assert.ok(collecting);
      const deps = { sql, clock: harness.services.clock, network: harness.services.network, model: flakyModel(harness.services.model, 1) };
      await runRefine(deps, collecting, jobAt(5));
      const failed = await request("GET", `/v1/datasets/${answer.body.data.id}`);
      assert.equal(failed.body.data.status, "failed");
      assert.match(failed.body.data.error, /Refine failed: The model is down/);
      expectError(await request("GET", `/v1/datasets/${answer.body.data.id}/rows`), 409, "dataset_not_ready", "a failed refine");
    });

    test("the eleventh collection of the day answers 429 collection_quota_exceeded", async () => {
      const ownerId = await ownerOf(sql, harness.world.datasets.not_research);
      const day = quotaDayOf(harness.services.clock.now());
      for (let i = 0; i < 10; i += 1) await insertTestDataset(sql, { ownerId, accountId: linked(), quotaDay: day });
      for (const transport of transports(harness)) {
        const answer = await transport.request("POST", `/v1/datasets/${small}/refine`, {
          key: harness.world.keys.write,
          body: { criterion: "pricing", account_id: linked() },
        });
        expectError(answer, 429, "collection_quota_exceeded", transport.name);
        assert.match(answer.headers.get("retry-after") ?? "", /^\d+$/);
      }
    });
  });
});

describe(`refine through an OpenAI-compatible model (${storage})`, { timeout: 180_000 }, () => {
  let fake: FakeOpenAiServer;
  let harness: Harness;
  let small: string;

  before(async () => {
    fake = await startFakeOpenAiServer();
    harness = await startHarness({ config: { aiBaseUrl: fake.baseUrl, aiModel: "test-model" } });
    const ownerId = await ownerOf(harness.services.sql, harness.world.datasets.not_research);
    small = await insertTestDataset(harness.services.sql, {
      ownerId,
      accountId: harness.world.accounts.main,
      rows: [
        replierRow(1, "How much is the team plan?"),
        replierRow(2, "Congrats!"),
        replierRow(3, "hmm"),
        replierRow(4, "Pricing page is confusing"),
        replierRow(5, null),
      ],
    });
  });
  after(async () => {
    await harness?.close();
    await fake?.close();
  });

  const refine = (index: number) =>
    transports(harness)[index].request("POST", `/v1/datasets/${small}/refine`, { key: harness.world.keys.write, body: { criterion: "asks about pricing" } });
  const datasetCount = async () => (await harness.services.sql<{ count: number }[]>`select count(*)::int as count from datasets`)[0].count;

  test("sends the criterion and each row's text; a row left out and an unclear row are kept as unclear", async () => {
    fake.script({
      kind: "chat",
      text: '```json\n{"rows": [{"id": "1", "verdict": "match"}, {"id": "2", "verdict": "no_match"}, {"id": "3", "verdict": "unclear"}, {"id": "99", "verdict": "match"}]}\n```',
    });
    const before = fake.requests.length;
    const answer = await refine(0);
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    assert.equal(fake.requests.length, before + 1, "one batch; the row without text is not sent");
    const prompt = JSON.stringify(fake.requests[before].body.messages);
    assert.match(prompt, /asks about pricing/);
    assert.match(prompt, /How much is the team plan\?/);
    assert.match(prompt, /Pricing page is confusing/);
    assert.doesNotMatch(prompt, /id: 5/);
    // 1 matched; 2 dropped; 3 unclear, 4 left out, 5 without text: kept as unclear.
    assert.deepEqual(answer.body.data.counts, { kept: 4, dropped: 1, unclear: 3, matched: 4 });
    const rows = await transports(harness)[0].request("GET", `/v1/datasets/${answer.body.data.id}/rows`, { key: harness.world.keys.write });
    assert.deepEqual(handlesOf(rows), ["replier_1", "replier_3", "replier_4", "replier_5"]);
  });

  describeMatrix(({ index, name }) => {
    test(`a model failure answers 502 upstream_error or 503 upstream_unavailable and stores nothing (${name})`, async () => {
      const count = await datasetCount();
      fake.script({ kind: "chat", text: "I cannot judge these rows." });
      expectError(await refine(index), 502, "upstream_error", "not JSON");
      fake.script({ kind: "status", status: 401, body: { error: { message: "bad key" } } });
      expectError(await refine(index), 503, "upstream_unavailable", "refused credentials");
      assert.equal(await datasetCount(), count);
    });
  });
});
