/**
 * Article covers (docs/areas.md "Articles and Workers"; spec: POST /v1/articles/{id}/cover, AI credits, Credit headers,
 * Idempotency; supplement: Articles "cover" row, GET /v1/cover-styles, errors
 * `article_title_required`, `cover_style_not_found`, `cover_gen_in_progress`). The request
 * answers 202 and the `generate_article_cover` job makes the image, run here through the
 * job runner (`runJobsOnce`) or a bree worker thread; the model is the local engine or the
 * OpenAI-compatible client against the loopback fake server, scripted to answer, hang
 * past the image bound, refuse or rate limit. Articles are inserted with SQL (their REST
 * endpoints are another area's).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { inflateSync } from "node:zlib";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { expectError } from "./support/expect_error.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "./support/fake_openai_server.ts";
import { manualClock } from "./support/manual_clock.ts";
import { pollUntil } from "./support/child_node.ts";
import type { Sql } from "../core/db/sql.ts";
import { createContextInner } from "../core/context.ts";
import { grantCredits, creditState } from "../core/credits/credits.ts";
import type { CreditOwner } from "../core/request_state/credit_state.ts";
import { keptForReference } from "../core/credits/credits_queries.ts";
import { planById } from "../core/plans/plans.ts";
import { jobHandlers } from "../jobs/task_list.ts";
import { runJobsOnce } from "../core/jobs/job_runner.ts";
import { generateArticleCover } from "../core/covers/generate_article_cover.ts";
import { creditOwnerRow, insertCoverStyle, type CoverGenerationRow } from "../core/covers/cover_queries.ts";
import { COVER_JOB_KIND, COVER_MAX_ATTEMPTS } from "../core/covers/cover_job.ts";
import { latestCoverGeneration } from "../core/covers/cover_reads.ts";
import { startJobs } from "../adapters/runtime/start_jobs.ts";

/** The 202 form of a cover request (RFC 7240); without it the request waits for the cover. */
const ASYNC = { Prefer: "respond-async" };

const storage = process.env.DATABASE_URL ? "PostgreSQL" : "embedded PGlite";

/** Inserts an article row (the articles endpoints are built elsewhere); answers its id. */
async function insertArticle(sql: Sql, accountId: string, options: { title?: string; status?: "draft" | "published" } = {}): Promise<string> {
  const [row] = await sql<{ id: number }[]>`
    insert into articles (account_id, title, status) values (${accountId}, ${options.title ?? "Why small teams ship faster"}, ${options.status ?? "draft"})
    returning id`;
  return String(row.id);
}

/** The generation row of `id`. */
async function generation(sql: Sql, id: string): Promise<CoverGenerationRow> {
  const [row] = await sql<CoverGenerationRow[]>`select * from cover_generations where id = ${Number(id)}`;
  assert.ok(row, `generation ${id} exists`);
  return row;
}

/** The ledger movements of one generation's charge, oldest first. */
async function ledgerOf(sql: Sql, row: CoverGenerationRow): Promise<{ entry: string; amount: number }[]> {
  const rows = await sql<{ entry: string; amount: number }[]>`
    select entry, amount from credit_ledger where owner_id = ${row.credit_owner_id} and reference = ${row.credit_reference} order by id`;
  return rows.map((movement) => ({ ...movement }));
}

/** The credit pool owner of the main account, with plenty of bonus credits for the file. */
async function fundedOwner(harness: Harness, accountId: string): Promise<CreditOwner> {
  const user = await creditOwnerRow(harness.services.sql, accountId);
  assert.ok(user);
  const owner = { ownerId: accountId, plan: planById(user.plan), billingAnchor: user.billing_anchor };
  await grantCredits(createContextInner({ services: harness.services }), owner, { amount: 5_000, reference: `test:covers:${Date.now()}` });
  return owner;
}

/** Runs the due cover jobs once with the harness's model and media store. */
async function runCoverJobs(harness: Harness, clock = harness.services.clock) {
  const { sql, network, media, model } = harness.services;
  return runJobsOnce({ sql, runnerId: "covers-test", kinds: [COVER_JOB_KIND], handlers: jobHandlers({ sql, clock, network, media, model }) });
}

/**
 * The tRPC query `covers.status` through transport `index` (REST clients poll
 * `GET /v1/articles/{id}`; the /v1 surface serves only the spec's inventory). Answers the
 * status and, on success, the procedure's `{ data }`.
 */
async function coverStatusOf(harness: Harness, index: number, id: string, key = harness.world.keys.write): Promise<{ status: number; data: any; error: any }> {
  const answer = await transports(harness)[index].request("GET", `/trpc/covers.status?input=${encodeURIComponent(JSON.stringify({ id }))}`, { key });
  return { status: answer.status, data: answer.body?.result?.data?.data, error: answer.body?.error };
}

/** Width and height of a PNG, after checking its signature. */
function pngInfo(bytes: Uint8Array): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "PNG signature");
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

describe(`a cover request past its wait (${storage})`, { timeout: 120_000 }, () => {
  let harness: Harness;
  before(async () => {
    // Nothing runs the job while the request waits 300 ms (COVER_WAIT_MS, default 120 s).
    harness = await startHarness({ config: { coverWaitMs: 300 } });
  });
  after(() => harness.close());

  test("answers 504 upstream_timeout naming the generation, keeps the 25 credits, and the job still makes the cover", async () => {
    const { sql } = harness.services;
    const owner = await fundedOwner(harness, harness.world.accounts.main);
    const spent = async () => (await creditState(createContextInner({ services: harness.services }), owner)).spent;
    const before = await spent();
    const id = await insertArticle(sql, harness.world.accounts.main, { title: "A slow cover" });
    const answer = await transports(harness)[1].request("POST", `/v1/articles/${id}/cover`, { key: harness.world.keys.write, body: {} });
    expectError(answer, 504, "upstream_timeout", "past the wait");
    assert.match(answer.body.error.message, /still being generated/);
    assert.equal(answer.body.error.generation_status, "queued");
    assert.equal(answer.headers.get("x-credits-charged"), null, "settled by the job");
    assert.equal(await spent(), before + 25, "spec: a cover that times out with 504 keeps its credits");
    await runCoverJobs(harness);
    const row = await generation(sql, answer.body.error.generation_id);
    assert.equal(row.status, "done");
    assert.equal(await spent(), before + 25, "kept once, never refunded");
    assert.deepEqual(await ledgerOf(sql, row), [{ entry: "charge", amount: -25 }]);
  });
});

describe(`covers on the local engine (${storage})`, { timeout: 180_000 }, () => {
  let harness: Harness;
  let sql: Sql;
  let owner: CreditOwner;
  let spentBefore: () => Promise<number>;

  before(async () => {
    harness = await startHarness();
    sql = harness.services.sql;
    owner = await fundedOwner(harness, harness.world.accounts.main);
    spentBefore = async () => (await creditState(createContextInner({ services: harness.services }), owner)).spent;
  });
  after(() => harness.close());

  describeMatrix(({ index, name, transport }) => {
    describe(`errors (${name})`, () => {
      const post = (id: string, body: unknown = {}, key = harness.world.keys.write, headers: Record<string, string> = {}) =>
        transport(harness).request("POST", `/v1/articles/${id}/cover`, { key, body, headers: { ...ASYNC, ...headers } });

      test("a refused request keeps no credits", async () => {
        const spent = await spentBefore();
        const other = await insertArticle(sql, harness.world.accounts.other_user);
        expectError(await post("999999999"), 404, "not_found", "unknown article");
        expectError(await post(other), 404, "not_found", "another user's article");
        const shared = await insertArticle(sql, harness.world.accounts.shared);
        expectError(await post(shared), 403, "writes_main_account_only", "article of a shared account");
        const untitled = await insertArticle(sql, harness.world.accounts.main, { title: "   " });
        expectError(await post(untitled), 400, "article_title_required", "blank title");
        const main = await insertArticle(sql, harness.world.accounts.main);
        expectError(await post(main, { style_id: "999999" }), 404, "cover_style_not_found", "unknown style");
        const foreignStyle = await insertCoverStyle(sql, { workspaceId: harness.world.accounts.other_user, name: "Theirs", styleText: "Neon noir" });
        expectError(await post(main, { style_id: String(foreignStyle.id) }), 404, "cover_style_not_found", "another workspace's style");
        const published = await insertArticle(sql, harness.world.accounts.main, { status: "published" });
        expectError(await post(published), 409, "article_not_editable", "published article, attach");
        assert.equal(await spentBefore(), spent, "every refusal was refunded in full");
      });

      test("validation errors answer 400 invalid_parameter before any charge", async () => {
        const main = await insertArticle(sql, harness.world.accounts.main);
        const both = await post(main, { style_id: "1", style_text: "Watercolour" });
        expectError(both, 400, "invalid_parameter", "both style fields");
        assert.match(both.body.error.message, /style_id/);
        expectError(await post("abc"), 400, "invalid_parameter", "malformed id");
        expectError(await post(main, { style_text: "x".repeat(8001) }), 400, "invalid_parameter", "style_text too long");
        expectError(await post(main, { attach: "no" }), 400, "invalid_parameter", "attach not boolean");
      });

      test("a second request while one is queued answers 409 cover_gen_in_progress", async () => {
        const main = await insertArticle(sql, harness.world.accounts.main);
        const first = await post(main);
        assert.equal(first.status, 202, JSON.stringify(first.body));
        const spent = await spentBefore();
        const second = await post(main, { attach: false });
        expectError(second, 409, "cover_gen_in_progress", "second request");
        assert.equal(second.body.error.generation_id, first.body.data.id);
        assert.equal(await spentBefore(), spent, "the refused second request was refunded");
        await runCoverJobs(harness);
        assert.equal((await post(main, { attach: false })).status, 202, "free again once the first is done");
        await runCoverJobs(harness);
      });

      test("an empty pool answers 429 ai_credits_exhausted", async () => {
        const main = await insertArticle(sql, harness.world.accounts.main);
        expectError(await post(main, {}, harness.world.keys.no_credits), 429, "ai_credits_exhausted", "no credits");
      });

      test("a read-only key answers 403 insufficient_scope", async () => {
        const main = await insertArticle(sql, harness.world.accounts.main);
        expectError(await post(main, {}, harness.world.keys.read), 403, "insufficient_scope", "read key");
      });

      test("covers.status answers 404 not_found for an unknown or foreign article", async () => {
        const other = await insertArticle(sql, harness.world.accounts.other_user);
        for (const id of ["999999999", other]) {
          const answer = await coverStatusOf(harness, index, id);
          assert.equal(answer.status, 404, JSON.stringify(answer.error));
          assert.equal(answer.error?.data?.code, "not_found");
        }
      });
    });
  });

  describeMatrix(({ name, transport }) => {
    test(`without Prefer the request waits for the job's cover and answers it 200 with X-Credits-Charged: 25 (${name})`, async () => {
      const id = await insertArticle(sql, harness.world.accounts.main, { title: "Covers answered in the request" });
      const spent = await spentBefore();
      const pending = transport(harness).request("POST", `/v1/articles/${id}/cover`, { key: harness.world.keys.write, body: {} });
      // The job runner of another process, as it were: run the due cover jobs until the request answers.
      let answer: Awaited<typeof pending> | undefined;
      for (let round = 0; round < 200 && !answer; round++) {
        answer = await Promise.race([pending, new Promise<undefined>((resolve) => setTimeout(resolve, 50))]);
        if (!answer) await runCoverJobs(harness);
      }
      assert.ok(answer, "the request answered");
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.headers.get("x-credits-charged"), "25");
      assert.equal(answer.headers.get("preference-applied"), null);
      assert.equal(answer.body.data.status, "done");
      assert.equal(answer.body.data.article_id, id);
      assert.equal(answer.body.data.attached, true);
      assert.match(answer.body.data.cover.url, /^https?:\/\//);
      assert.equal(await spentBefore(), spent + 25, "25 credits kept");
      const article = await transport(harness).request("GET", `/v1/articles/${id}`, { key: harness.world.keys.write });
      assert.equal(article.body.data.cover.url, answer.body.data.cover.url);
    });
  });

  test("a generation that fails answers its code (503 upstream_unavailable) and refunds the 25 credits once", async () => {
    const id = await insertArticle(sql, harness.world.accounts.main, { title: "A cover with no model" });
    const spent = await spentBefore();
    const pending = transports(harness)[1].request("POST", `/v1/articles/${id}/cover`, { key: harness.world.keys.write, body: {} });
    // A job runner without a model: the generation ends failed, refunded by the job.
    const { network, media, clock } = harness.services;
    const handlers = jobHandlers({ sql, clock, network, media, model: undefined as never });
    let answer: Awaited<typeof pending> | undefined;
    for (let round = 0; round < 200 && !answer; round++) {
      answer = await Promise.race([pending, new Promise<undefined>((resolve) => setTimeout(resolve, 50))]);
      if (!answer) await runJobsOnce({ sql, runnerId: "covers-no-model", kinds: [COVER_JOB_KIND], handlers });
    }
    assert.ok(answer, "the request answered");
    expectError(answer, 503, "upstream_unavailable", "the job had no model");
    assert.equal(answer.body.error.generation_status, "failed");
    assert.equal(await spentBefore(), spent, "refunded in full");
    const row = await generation(sql, answer.body.error.generation_id);
    assert.deepEqual(await ledgerOf(sql, row), [
      { entry: "charge", amount: -25 },
      { entry: "refund", amount: 25 },
    ]);
  });

  test("Prefer: respond-async answers 202 at once and says the preference was applied", async () => {
    const id = await insertArticle(sql, harness.world.accounts.main, { title: "Covers answered later" });
    const answer = await transports(harness)[0].request("POST", `/v1/articles/${id}/cover`, {
      key: harness.world.keys.write,
      body: { attach: false },
      headers: { Prefer: "wait=5, respond-async" },
    });
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    assert.equal(answer.headers.get("preference-applied"), "respond-async");
    assert.equal(answer.body.data.status, "queued");
    await runCoverJobs(harness);
  });

  test("POST answers 202 without X-Credits-Charged, and the job attaches a PNG drawn from the title", async () => {
    const id = await insertArticle(sql, harness.world.accounts.main, { title: "Shipping covers offline" });
    const spent = await spentBefore();
    const answer = await transports(harness)[1].request("POST", `/v1/articles/${id}/cover`, { key: harness.world.keys.write, body: {}, headers: ASYNC });
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    assert.equal(answer.headers.get("x-credits-charged"), null, "spec Credit headers: absent on a 202");
    assert.ok(answer.headers.get("x-credits-remaining"));
    const data = answer.body.data;
    assert.equal(data.status, "queued");
    assert.equal(data.article_id, id);
    assert.equal(data.attach, true);
    assert.equal(data.cover, null);
    assert.equal(data.credits_charged, null);
    assert.equal(await spentBefore(), spent + 25, "25 credits charged up front");

    const queued = await coverStatusOf(harness, 0, id);
    assert.equal(queued.data.latest_generation.status, "queued");
    assert.equal(queued.data.cover, null);

    const run = await runCoverJobs(harness);
    assert.deepEqual([run.claimed, run.completed], [1, 1]);
    const row = await generation(sql, data.id);
    assert.equal(row.status, "done");
    assert.equal(row.attached, true);
    assert.equal(row.credits_charged, 25);
    assert.match(row.model ?? "", /threadline-local-title-cover/);
    const [article] = await sql<{ cover_object_key: string; cover_url: string }[]>`select cover_object_key, cover_url from articles where id = ${Number(id)}`;
    assert.equal(article.cover_object_key, row.object_key);
    assert.equal(article.cover_url, row.image_url);
    const [upload] = await sql<
      { workspace_id: string; attached_at: Date | null; uploaded_at: Date | null; detected_type: string; size: number; api_key_id: number | null }[]
    >`
      select workspace_id, attached_at, uploaded_at, detected_type, size, api_key_id from media_uploads where object_key = ${row.object_key}`;
    assert.equal(upload.workspace_id, harness.world.accounts.main);
    assert.ok(upload.attached_at && upload.uploaded_at);
    assert.equal(upload.detected_type, "image/png");
    assert.equal(upload.api_key_id, null, "not counted against the key's upload quota");

    const stored = await harness.services.media!.read(row.object_key!);
    assert.ok(stored);
    assert.deepEqual(pngInfo(stored), { width: 1536, height: 1024 });
    assert.equal(stored.length, upload.size);
    // The image is served at its URL.
    const image = await fetch(new URL(new URL(row.image_url!).pathname, harness.baseUrl));
    assert.equal(image.status, 200);
    assert.deepEqual(new Uint8Array(await image.arrayBuffer()), stored);

    const done = await coverStatusOf(harness, 1, id, harness.world.keys.read);
    assert.equal(done.status, 200);
    assert.equal(done.data.latest_generation.status, "done");
    assert.deepEqual(done.data.cover, { url: row.image_url });
    assert.deepEqual(done.data.latest_generation.cover, { url: row.image_url, object_key: row.object_key });
    assert.deepEqual(await latestCoverGeneration(sql, Number(id)), done.data.latest_generation);
    const articleRead = await transports(harness)[1].request("GET", `/v1/articles/${id}`, { key: harness.world.keys.read });
    assert.deepEqual(articleRead.body.data.cover_generation, done.data.latest_generation, "GET /v1/articles/{id} shows it as cover_generation");
    assert.deepEqual(articleRead.body.data.cover, { url: row.image_url });
    assert.equal(await keptForReference(sql, row.credit_owner_id, row.credit_reference), 25);
    assert.deepEqual(await ledgerOf(sql, row), [{ entry: "charge", amount: -25 }]);
  });

  test("the local cover shows the title: different titles, different pixels; the same title, the same image", async () => {
    const { model } = harness.services;
    const a = await model.generateImage({ prompt: "p", title: "Alpha", size: "320x200" });
    const b = await model.generateImage({ prompt: "p", title: "Omega", size: "320x200" });
    const again = await model.generateImage({ prompt: "p", title: "Alpha", size: "320x200" });
    const plain = await model.generateImage({ prompt: "p", size: "320x200" });
    assert.notDeepEqual(a.bytes, b.bytes);
    assert.deepEqual(a.bytes, again.bytes);
    // Ink: the title is drawn in near-white over a darkened band, which the bare background never has.
    const whitePixels = (bytes: Uint8Array) => {
      const { width, height } = pngInfo(bytes);
      return decodeRgb(bytes, width, height).filter((pixel) => pixel >= 245 * 3).length;
    };
    assert.ok(whitePixels(a.bytes) > 200, "the title is drawn");
    assert.equal(whitePixels(plain.bytes), 0, "no title, no text");
  });

  test("attach: false keeps the article's cover and leaves the image an unattached upload", async () => {
    const id = await insertArticle(sql, harness.world.accounts.main);
    await sql`update articles set cover_url = 'https://example.com/mine.png' where id = ${Number(id)}`;
    const answer = await transports(harness)[0].request("POST", `/v1/articles/${id}/cover`, {
      key: harness.world.keys.write,
      body: { attach: false },
      headers: ASYNC,
    });
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    await runCoverJobs(harness);
    const row = await generation(sql, answer.body.data.id);
    assert.equal(row.status, "done");
    assert.equal(row.attached, false);
    const [article] = await sql<
      { cover_url: string; cover_object_key: string | null }[]
    >`select cover_url, cover_object_key from articles where id = ${Number(id)}`;
    assert.deepEqual(article, { cover_url: "https://example.com/mine.png", cover_object_key: null });
    const [upload] = await sql<{ attached_at: Date | null }[]>`select attached_at from media_uploads where object_key = ${row.object_key}`;
    assert.equal(upload.attached_at, null, "purged after 24 hours unless a post attaches it");
  });

  test("attach: false is allowed on a published article", async () => {
    const id = await insertArticle(sql, harness.world.accounts.main, { status: "published" });
    const answer = await transports(harness)[1].request("POST", `/v1/articles/${id}/cover`, {
      key: harness.world.keys.write,
      body: { attach: false },
      headers: ASYNC,
    });
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    await runCoverJobs(harness);
    assert.equal((await generation(sql, answer.body.data.id)).status, "done");
  });

  test("an Idempotency-Key replays the 202 and charges once", async () => {
    const id = await insertArticle(sql, harness.world.accounts.main);
    const spent = await spentBefore();
    const send = () =>
      transports(harness)[1].request("POST", `/v1/articles/${id}/cover`, {
        key: harness.world.keys.write,
        body: {},
        headers: { ...ASYNC, "Idempotency-Key": `cover-${id}` },
      });
    const first = await send();
    const again = await send();
    assert.equal(first.status, 202);
    assert.equal(again.status, 202);
    assert.equal(again.headers.get("idempotency-replayed"), "true");
    assert.equal(again.body.data.id, first.body.data.id);
    assert.equal(again.headers.get("x-credits-charged"), null);
    assert.equal(await spentBefore(), spent + 25);
    const [{ count }] = await sql<{ count: number }[]>`select count(*)::int as count from cover_generations where article_id = ${Number(id)}`;
    assert.equal(count, 1);
    const reused = await transports(harness)[1].request("POST", `/v1/articles/${id}/cover`, {
      key: harness.world.keys.write,
      body: { attach: false },
      headers: { ...ASYNC, "Idempotency-Key": `cover-${id}` },
    });
    expectError(reused, 409, "idempotency_key_reuse", "same key, other body");
    await runCoverJobs(harness);
  });

  test("a job run again after its generation ended changes nothing (no second charge or attach)", async () => {
    const id = await insertArticle(sql, harness.world.accounts.main);
    const answer = await transports(harness)[0].request("POST", `/v1/articles/${id}/cover`, { key: harness.world.keys.write, body: {}, headers: ASYNC });
    await runCoverJobs(harness);
    const before = await generation(sql, answer.body.data.id);
    const deps = { sql, clock: harness.services.clock, model: harness.services.model, media: harness.services.media };
    await generateArticleCover(deps, { generationId: before.id }, { attempts: 2, max_attempts: COVER_MAX_ATTEMPTS });
    const afterRow = await generation(sql, answer.body.data.id);
    assert.deepEqual(afterRow, before);
    assert.deepEqual(await ledgerOf(sql, afterRow), [{ entry: "charge", amount: -25 }]);
  });

  describeMatrix(({ name, transport }) => {
    test(`GET /v1/cover-styles lists the workspace's styles, then the built-in set, and style_id picks one (${name})`, async () => {
      const own = await insertCoverStyle(sql, {
        workspaceId: harness.world.accounts.main,
        name: `House style ${name}`,
        styleText: "Risograph print in teal and orange",
      });
      const answer = await transport(harness).request("GET", "/v1/cover-styles", { key: harness.world.keys.read });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const ids = answer.body.data.map((style: { id: string }) => style.id);
      assert.ok(ids.includes(String(own.id)));
      const builtIn = answer.body.data.filter((style: { built_in: boolean }) => style.built_in);
      assert.ok(builtIn.length >= 5);
      assert.equal(answer.body.data.at(-1).built_in, true, "the workspace's own come first");
      assert.ok(!answer.body.data.some((style: { name: string }) => style.name === "Theirs"), "another workspace's styles are not listed");
      assert.equal(answer.body.pagination.total, answer.body.data.length);
      const linked = await transport(harness).request("GET", `/v1/cover-styles?account_id=${harness.world.accounts.linked}`, {
        key: harness.world.keys.read,
      });
      assert.ok(
        linked.body.data.some((style: { id: string }) => style.id === String(own.id)),
        "a linked account shares its main account's workspace",
      );
      expectError(
        await transport(harness).request("GET", "/v1/cover-styles?account_id=123", { key: harness.world.keys.read }),
        404,
        "account_not_found",
        "unknown account",
      );

      const id = await insertArticle(sql, harness.world.accounts.main);
      const cover = await transport(harness).request("POST", `/v1/articles/${id}/cover`, {
        key: harness.world.keys.write,
        body: { style_id: Number(own.id) },
        headers: ASYNC,
      });
      assert.equal(cover.status, 202, JSON.stringify(cover.body));
      assert.equal(cover.body.data.style_id, String(own.id));
      const row = await generation(sql, cover.body.data.id);
      assert.match(row.prompt, /Risograph print in teal and orange/);
      assert.match(row.prompt, /Why small teams ship faster/);
      await runCoverJobs(harness);
    });
  });
});

describe(`covers with the OpenAI-compatible client (${storage})`, { timeout: 180_000 }, () => {
  let harness: Harness;
  let fake: FakeOpenAiServer;
  let sql: Sql;
  const clock = manualClock("2026-11-21T09:00:00Z");

  before(async () => {
    fake = await startFakeOpenAiServer();
    harness = await startHarness({ config: { clock, aiBaseUrl: fake.baseUrl, aiModel: "fake-chat", aiImageModel: "fake-image", aiImageTimeoutMs: 400 } });
    sql = harness.services.sql;
    await fundedOwner(harness, harness.world.accounts.main);
  });
  after(async () => {
    await harness.close();
    await fake.close();
  });

  async function requestCover(body: unknown = {}): Promise<{ id: string; generationId: string }> {
    const id = await insertArticle(sql, harness.world.accounts.main, { title: "Notes from the edge" });
    const answer = await transports(harness)[1].request("POST", `/v1/articles/${id}/cover`, { key: harness.world.keys.write, body, headers: ASYNC });
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    assert.equal(answer.headers.get("x-credits-charged"), null);
    return { id, generationId: answer.body.data.id };
  }

  test("done: the image model's PNG is stored and attached; 25 credits kept", async () => {
    fake.script({ kind: "image" });
    const { id, generationId } = await requestCover({ style_text: "Blueprint drawing" });
    clock.advance(1000);
    await runCoverJobs(harness, clock);
    const row = await generation(sql, generationId);
    assert.equal(row.status, "done");
    assert.equal(row.model, "fake-image");
    assert.equal(row.started_at?.toISOString(), "2026-11-21T09:00:01.000Z");
    const sent = fake.requests.at(-1)!;
    assert.equal(sent.path, "/v1/images/generations");
    assert.match(sent.body.prompt, /Notes from the edge/);
    assert.match(sent.body.prompt, /Blueprint drawing/);
    const [article] = await sql<{ cover_url: string }[]>`select cover_url from articles where id = ${Number(id)}`;
    assert.equal(article.cover_url, row.image_url);
    assert.equal(await keptForReference(sql, row.credit_owner_id, row.credit_reference), 25);
    assert.deepEqual(await ledgerOf(sql, row), [{ entry: "charge", amount: -25 }]);
  });

  test("timed out: the generation ends timed_out with 504 upstream_timeout, 25 credits kept, nothing attached", async () => {
    fake.script({ kind: "hang" });
    const { id, generationId } = await requestCover();
    const run = await runCoverJobs(harness, clock);
    assert.equal(run.completed, 1, "a timeout is final, not retried");
    const row = await generation(sql, generationId);
    assert.equal(row.status, "timed_out");
    assert.equal(row.credits_charged, 25);
    assert.equal(await keptForReference(sql, row.credit_owner_id, row.credit_reference), 25);
    assert.deepEqual(await ledgerOf(sql, row), [{ entry: "charge", amount: -25 }]);
    const status = await coverStatusOf(harness, 0, id);
    assert.equal(status.data.latest_generation.status, "timed_out");
    assert.equal(status.data.latest_generation.error.code, "upstream_timeout");
    assert.equal(status.data.latest_generation.error.status, 504);
    assert.equal(status.data.cover, null);
    // The article is free for another try.
    const again = await transports(harness)[0].request("POST", `/v1/articles/${id}/cover`, { key: harness.world.keys.write, body: {}, headers: ASYNC });
    assert.equal(again.status, 202);
    fake.script({ kind: "image" });
    await runCoverJobs(harness, clock);
  });

  test("failed: a refused image ends failed and refunds all 25 credits in the same commit", async () => {
    fake.script({ kind: "status", status: 400, body: { error: { message: "content policy" } } });
    const { generationId } = await requestCover();
    await runCoverJobs(harness, clock);
    const row = await generation(sql, generationId);
    assert.equal(row.status, "failed");
    assert.equal(row.error_code, "upstream_error");
    assert.equal(row.credits_charged, 0);
    assert.equal(await keptForReference(sql, row.credit_owner_id, row.credit_reference), 0);
    assert.deepEqual(await ledgerOf(sql, row), [
      { entry: "charge", amount: -25 },
      { entry: "refund", amount: 25 },
    ]);
  });

  test("a rate-limited model is retried with backoff, at most three attempts, then failed and refunded once", async () => {
    const limited = { kind: "status", status: 429, headers: { "Retry-After": "120" } } as const;
    fake.script(limited, limited, limited);
    const { generationId } = await requestCover();
    const seen: string[] = [];
    for (let attempt = 1; attempt <= COVER_MAX_ATTEMPTS; attempt++) {
      const run = await runCoverJobs(harness, clock);
      assert.equal(run.claimed, 1, `attempt ${attempt} claimed`);
      const row = await generation(sql, generationId);
      seen.push(row.status);
      // Skip the backoff: make the retry due now.
      await sql`update jobs set run_at = now() where kind = ${COVER_JOB_KIND} and status = 'queued'`;
    }
    assert.deepEqual(seen, ["running", "running", "failed"]);
    const row = await generation(sql, generationId);
    assert.equal(row.attempts, 3);
    assert.equal(row.error_code, "upstream_unavailable");
    assert.deepEqual(await ledgerOf(sql, row), [
      { entry: "charge", amount: -25 },
      { entry: "refund", amount: 25 },
    ]);
    const [job] = await sql<
      { status: string; attempts: number }[]
    >`select status, attempts from jobs where kind = ${COVER_JOB_KIND} and payload->>'generationId' = ${generationId}`;
    assert.deepEqual(job, { status: "done", attempts: 3 });
    assert.equal((await runCoverJobs(harness, clock)).claimed, 0, "nothing left to run");
  });
});

describe(`covers without a media store (${storage})`, () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness({ config: { mediaStore: "none" } });
  });
  after(() => harness.close());

  describeMatrix(({ name, transport }) => {
    test(`POST /v1/articles/{id}/cover answers 503 media_not_configured (${name})`, async () => {
      const id = await insertArticle(harness.services.sql, harness.world.accounts.main);
      const answer = await transport(harness).request("POST", `/v1/articles/${id}/cover`, { key: harness.world.keys.write, body: {}, headers: ASYNC });
      expectError(answer, 503, "media_not_configured", name);
    });
  });
});

describe("covers in a bree worker thread", {
  skip: process.env.DATABASE_URL ? false : "DATABASE_URL not set: worker threads run jobs only on PostgreSQL",
  timeout: 120_000,
}, () => {
  let harness: Harness;
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "threadline-covers-test-"));
    harness = await startHarness({ config: { mediaDir: dir, mediaSigningSecret: "covers-worker-secret" } });
  });
  after(async () => {
    await harness.close();
    await rm(dir, { recursive: true, force: true });
  });

  test("the worker opens the model from its settings and attaches the cover", async () => {
    const { sql } = harness.services;
    const id = await insertArticle(sql, harness.world.accounts.main, { title: "Made in a worker thread" });
    const answer = await transports(harness)[1].request("POST", `/v1/articles/${id}/cover`, { key: harness.world.keys.write, body: {}, headers: ASYNC });
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    const runner = await startJobs({
      databaseUrl: harness.config.databaseUrl,
      periodic: false,
      pollIntervalMs: 100,
      ports: { media: { kind: "local", dir, signingSecret: "covers-worker-secret" }, model: {} },
    });
    try {
      assert.equal(runner.mode, "worker-thread");
      await pollUntil(
        "the cover to be done",
        async () => {
          const row = await generation(sql, answer.body.data.id);
          return row.status === "queued" || row.status === "running" ? undefined : row;
        },
        { timeoutMs: 60_000, intervalMs: 100 },
      );
    } finally {
      await runner.stop();
    }
    const row = await generation(sql, answer.body.data.id);
    assert.equal(row.status, "done", row.error_message ?? "");
    assert.equal(row.model, "threadline-local-title-cover");
    const stored = await harness.services.media!.read(row.object_key!);
    assert.ok(stored);
    assert.deepEqual(pngInfo(stored), { width: 1536, height: 1024 });
  });
});

/** The RGB sums of every pixel of an 8-bit RGB PNG (filters None, Sub, Up, Average, Paeth). */
function decodeRgb(bytes: Uint8Array, width: number, height: number): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunks: Uint8Array[] = [];
  for (let at = 8; at < bytes.length; ) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (type === "IDAT") chunks.push(bytes.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(chunks));
  const stride = width * 3;
  const pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i];
      const a = i >= 3 ? pixels[y * stride + i - 3] : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + i] : 0;
      const c = i >= 3 && y > 0 ? pixels[(y - 1) * stride + i - 3] : 0;
      const predictor = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter];
      pixels[y * stride + i] = (x + predictor) & 0xff;
    }
  }
  const sums: number[] = [];
  for (let p = 0; p < width * height; p++) sums.push(pixels[p * 3] + pixels[p * 3 + 1] + pixels[p * 3 + 2]);
  return sums;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}
