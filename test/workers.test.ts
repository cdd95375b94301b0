/**
 * Workers and their suggestions (spec: rule 7, Worker suggestion, Worker (list shape),
 * States of Worker suggestion, Workers endpoints, Errors `worker_not_found` and
 * `suggestion_not_found`; supplement: Workers): the list shapes, the suggestion filters,
 * saving once as a draft or a scheduled post (visible on GET /v1/scheduled-posts, quota
 * deducted), dismissing (a saved post stays), the error codes, and Workers running on
 * their schedules through the job runner and the model port.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { expectError } from "./support/expect_error.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { manualClock } from "./support/manual_clock.ts";
import { freshLinkedAccount } from "./support/scheduled_post_rows.ts";
import { ensureDemoWorkers, type DemoWorkers } from "../core/demo/demo_workers.ts";
import { createWorker, type WorkerInput } from "../core/workers/create_worker.ts";
import { insertSuggestions, workerById, type WorkerRow } from "../core/workers/workers_queries.ts";
import { ledgerBalanceOf } from "../core/post_quota/post_quota_queries.ts";
import { enqueueJob } from "../core/jobs/jobs_queries.ts";
import { runJobsOnce } from "../core/jobs/job_runner.ts";
import { jobHandlers, periodicJobs } from "../jobs/task_list.ts";
import { wallTimeAt } from "../core/queue/zoned_time.ts";
import { FORMAT_TEMPLATES } from "../core/workers/format_templates.ts";

let harness: Harness;
let demo: DemoWorkers;
before(async () => {
  harness = await startHarness();
  demo = await ensureDemoWorkers(harness.services, { main: harness.world.accounts.main, otherUser: harness.world.accounts.other_user });
});
after(() => harness.close());

const sql = () => harness.services.sql;
const hoursAhead = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
let runs = 0;

/** A Worker on `accountId` (an operator's create: the API has none). */
function worker(accountId: string, input: Partial<WorkerInput> = {}): Promise<WorkerRow> {
  return createWorker(
    sql(),
    accountId,
    { name: `Test ${++runs}`, shape: "formats", topic_source: "custom", topic: "Shipping small things every week.", ...input },
    new Date(),
  );
}

/** Writes `texts` as one run of `owner` (a test stand-in for a run); answers the new suggestion ids, oldest first. */
async function suggestions(owner: WorkerRow, texts: string[], options: { fallback?: boolean } = {}): Promise<number[]> {
  const at = new Date(Date.now() - 60_000 + ++runs);
  await insertSuggestions(
    sql(),
    owner,
    at,
    new Date(Date.now() + runs),
    texts.map((text) => ({
      text,
      reference: { source: "popular_post", post_id: "1234567890", url: "https://x.com/someone/status/1234567890", author_id: "42" },
      fallback: options.fallback ?? false,
    })),
  );
  const rows = await sql()<{ id: number }[]>`select id from worker_suggestions where worker_id = ${owner.id} and run_at = ${at} order by run_index`;
  return rows.map((row) => row.id);
}

async function accountOf(username: string): Promise<string> {
  const [row] = await sql()<{ id: string }[]>`select id from accounts where username = ${username}`;
  return row.id;
}

test("the demo has a Worker of each shape, a foreign one, at least three suggestions to review, and re-runs change nothing", async () => {
  assert.ok(demo.suggestions.to_review.length >= 3);
  const again = await ensureDemoWorkers(harness.services, { main: harness.world.accounts.main, otherUser: harness.world.accounts.other_user });
  assert.deepEqual(again, demo);
  const shapes = await sql()<{ shape: string; account_id: string }[]>`
    select shape, account_id from workers where id = any(${sql().array(Object.values(demo.workers))}::bigint[]) order by id`;
  assert.deepEqual(shapes.map((row) => row.shape).sort(), ["formats", "formats", "fresh", "niche"]);
  assert.equal(shapes.filter((row) => row.account_id === harness.world.accounts.other_user).length, 1);
  assert.deepEqual({ workers: harness.world.workers, suggestions: harness.world.suggestions }, demo, "the demo world publishes the same ids");
});

describeMatrix(({ index, name, transport }) => {
  describe(`Workers over ${name}`, () => {
    const call = (method: string, path: string, body?: unknown, key = harness.world.keys.write, headers: Record<string, string> = {}) =>
      transport(harness).request(method, path, { key, body, headers });
    const action = (id: number | string, verb: "draft" | "schedule" | "dismiss", body: unknown = {}, key?: string, headers?: Record<string, string>) =>
      call("POST", `/v1/workers/suggestions/${id}/${verb}`, body, key, headers);

    test("GET /v1/workers lists every Worker of the account, not paginated, with shape as the last key", async () => {
      const productId = harness.world.products[0];
      const productNiche = await worker(harness.world.accounts.main, {
        shape: "niche",
        topic_source: "product",
        product_id: productId,
        topic: undefined,
        keywords: ["scheduling", "Scheduling", "threads"],
      });
      const answer = await call("GET", "/v1/workers");
      assert.equal(answer.status, 200);
      assert.equal(answer.body.pagination, undefined);
      const byId = new Map(answer.body.data.map((item: any) => [item.id, item]));
      for (const id of [demo.workers.formats, demo.workers.niche, demo.workers.fresh, productNiche.id]) {
        const item: any = byId.get(id);
        assert.ok(item, `Worker ${id} listed`);
        assert.equal(Object.keys(item).at(-1), "shape");
        for (const field of ["voice", "topic_source", "topic_config", "style_mode", "batch_size", "schedule", "timezone", "next_run_at"])
          assert.ok(field in item, field);
      }
      assert.equal(byId.has(demo.workers.foreign), false);
      const niche: any = byId.get(demo.workers.niche);
      assert.equal(niche.shape, "niche");
      assert.equal(niche.style_mode, "reference_remix");
      assert.deepEqual(niche.topic_config.keywords, ["AI agents", "prompt engineering"]);
      assert.deepEqual(niche.schedule, { days: [2, 4], time: "08:30" });
      assert.equal(niche.timezone, "America/New_York");
      // Spec: "A product or custom Worker shaped on a niche reports style mode reference_remix and its topic_config carries keywords".
      const fromProduct: any = byId.get(productNiche.id);
      assert.equal(fromProduct.topic_source, "product");
      assert.equal(fromProduct.style_mode, "reference_remix");
      assert.deepEqual(fromProduct.topic_config, { product_id: productId, keywords: ["scheduling", "threads"] });
      const formats: any = byId.get(demo.workers.formats);
      assert.equal(formats.style_mode, "voice_match");
      assert.equal(formats.topic_config.keywords, undefined);
      assert.equal(wallTimeAt("Europe/London", Date.parse(formats.next_run_at)).hour, 9);
      assert.ok(Date.parse(formats.next_run_at) > Date.now());

      const readKey = await call("GET", "/v1/workers", undefined, harness.world.keys.read);
      assert.equal(readKey.status, 200);
      const shared = await call("GET", `/v1/workers?account_id=${harness.world.accounts.shared}`);
      assert.equal(shared.status, 200);
      expectError(await call("GET", `/v1/workers?account_id=${harness.world.accounts.other_user}`), 404, "account_not_found");
      expectError(await call("GET", "/v1/workers?account_id=abc"), 400, "invalid_parameter");
    });

    test("suggestions default to to_review, newest first, paged with a total; status filters and all", async () => {
      const owner = await worker(harness.world.accounts.main);
      const [older, newer, third] = await suggestions(owner, ["Older idea.", "Newer idea.", "Third idea."]);
      await action(third, "dismiss");
      const page = await call("GET", `/v1/workers/suggestions?worker_id=${owner.id}`);
      assert.equal(page.status, 200);
      assert.deepEqual(
        page.body.data.map((row: any) => row.id),
        [newer, older],
      );
      assert.deepEqual(page.body.pagination, { page: 1, limit: 20, has_more: false, total: 2 });
      const record = page.body.data[0];
      assert.deepEqual(Object.keys(record).sort(), [
        "dismissed_at",
        "drafted_at",
        "generated_at",
        "id",
        "post_id",
        "reference",
        "scheduled_at",
        "status",
        "text",
        "worker_id",
      ]);
      assert.equal(record.worker_id, owner.id);
      assert.equal(record.status, "to_review");
      assert.equal(record.post_id, null);
      // Spec: "collection and reference ids stay private": only the kind of source is shown.
      assert.deepEqual(record.reference, { source: "popular_post" });
      const first = await call("GET", `/v1/workers/suggestions?worker_id=${owner.id}&limit=1`);
      assert.deepEqual(
        first.body.data.map((row: any) => row.id),
        [newer],
      );
      assert.deepEqual(first.body.pagination, { page: 1, limit: 1, has_more: true, total: 2 });
      const second = await call("GET", `/v1/workers/suggestions?worker_id=${owner.id}&limit=1&page=2`);
      assert.deepEqual(
        second.body.data.map((row: any) => row.id),
        [older],
      );
      assert.equal(second.body.pagination.has_more, false);
      const beyond = await call("GET", `/v1/workers/suggestions?worker_id=${owner.id}&page=9`);
      assert.deepEqual(beyond.body.data, []);
      assert.equal(beyond.body.pagination.total, 2);
      const dismissed = await call("GET", `/v1/workers/suggestions?worker_id=${owner.id}&status=dismissed`);
      assert.deepEqual(
        dismissed.body.data.map((row: any) => row.id),
        [third],
      );
      const all = await call("GET", `/v1/workers/suggestions?worker_id=${owner.id}&status=all`);
      assert.deepEqual(
        all.body.data.map((row: any) => row.id),
        [third, newer, older].sort((a, b) => b - a),
      );
      const mainQueue = await call("GET", "/v1/workers/suggestions?limit=100");
      assert.ok(mainQueue.body.data.every((row: any) => row.status === "to_review"));
      assert.ok(demo.suggestions.to_review.some((id) => mainQueue.body.data.some((row: any) => row.id === id)));
    });

    test("a fallback suggestion of a niche Worker carries fallback: true in its reference", async () => {
      const owner = await worker(harness.world.accounts.main, { shape: "niche", keywords: ["nothing usable"] });
      const [id] = await suggestions(owner, ["Written from a proven format."], { fallback: true });
      const answer = await call("GET", `/v1/workers/suggestions?worker_id=${owner.id}`);
      assert.deepEqual(answer.body.data.find((row: any) => row.id === id).reference, { source: "popular_post", fallback: true });
    });

    test("reading suggestions changes nothing and spends no credits", async () => {
      const before = await sql()<
        { n: string }[]
      >`select md5(string_agg(id || status || coalesce(post_id::text, ''), ',' order by id)) as n from worker_suggestions`;
      const answer = await call("GET", "/v1/workers/suggestions?status=all");
      assert.equal(answer.status, 200);
      assert.equal(answer.headers.get("x-credits-charged"), null);
      const afterRead = await sql()<
        { n: string }[]
      >`select md5(string_agg(id || status || coalesce(post_id::text, ''), ',' order by id)) as n from worker_suggestions`;
      assert.equal(afterRead[0].n, before[0].n);
    });

    test("suggestion query bounds answer 400 invalid_parameter; an unknown or foreign worker_id 404 worker_not_found", async () => {
      for (const query of ["status=open", "status=to_review,drafted", "worker_id=abc", "worker_id=0", "limit=0", "limit=101", "page=0", "account_id=x"]) {
        expectError(await call("GET", `/v1/workers/suggestions?${query}`), 400, "invalid_parameter", query);
      }
      expectError(await call("GET", "/v1/workers/suggestions?worker_id=999999999"), 404, "worker_not_found", "unknown");
      expectError(await call("GET", `/v1/workers/suggestions?worker_id=${demo.workers.foreign}`), 404, "worker_not_found", "another user's");
      const linked = await worker(harness.world.accounts.linked);
      expectError(await call("GET", `/v1/workers/suggestions?worker_id=${linked.id}`), 404, "worker_not_found", "another account's");
      const narrowed = await call("GET", `/v1/workers/suggestions?worker_id=${linked.id}&account_id=${harness.world.accounts.linked}`);
      assert.equal(narrowed.status, 200);
      expectError(await call("GET", `/v1/workers/suggestions?account_id=${harness.world.accounts.other_user}`), 404, "account_not_found");
      expectError(await transport(harness).request("GET", "/v1/workers/suggestions"), 401, "unauthorized");
      const lapsed = await call("GET", "/v1/workers/suggestions", undefined, harness.world.keys.lapsed);
      assert.equal(lapsed.status, 403);
      assert.match(lapsed.body.error, /^subscription_required:/, "the legacy string error");
    });

    test("draft saves a draft post visible on GET /v1/scheduled-posts, takes no quota, and saves once", async () => {
      const owner = await worker(harness.world.accounts.main);
      const text = `Drafted idea ${index} ${runs}.`;
      const [id] = await suggestions(owner, [text]);
      const answer = await action(id, "draft");
      assert.equal(answer.status, 200);
      const saved = answer.body.data;
      assert.equal(saved.id, id);
      assert.equal(saved.status, "drafted");
      assert.equal(typeof saved.post_id, "string");
      assert.ok(saved.drafted_at);
      assert.equal(saved.scheduled_at, null);
      assert.equal(answer.headers.get("x-credits-charged"), null);
      const drafts = await call("GET", "/v1/scheduled-posts?status=draft&limit=100");
      const post = drafts.body.data.find((row: any) => row.id === saved.post_id);
      assert.ok(post, "the draft is listed");
      assert.deepEqual(post.parts, [{ text, media: [] }]);
      assert.equal(post.status, "draft");
      assert.equal(await ledgerBalanceOf(sql(), `post:${saved.post_id}`), 0);
      const listed = await call("GET", `/v1/workers/suggestions?worker_id=${owner.id}&status=drafted`);
      assert.deepEqual(
        listed.body.data.map((row: any) => [row.id, row.post_id]),
        [[id, saved.post_id]],
      );

      expectError(await action(id, "draft"), 400, "invalid_request", "second draft");
      expectError(await action(id, "schedule", { scheduled_for: hoursAhead(24) }), 400, "invalid_request", "schedule after draft");
      const [row] = await sql()<{ n: number }[]>`select count(*)::int as n from scheduled_posts where id = ${Number(saved.post_id)}`;
      assert.equal(row.n, 1);
    });

    test("schedule queues a post at scheduled_for with one quota unit and the publisher armed; no Default Post Settings", async () => {
      const owner = await worker(harness.world.accounts.main);
      const [id] = await suggestions(owner, ["Scheduled idea."]);
      const when = new Date(Math.floor((Date.now() + 2 * 86_400_000) / 1000) * 1000).toISOString();
      const answer = await action(id, "schedule", { scheduled_for: when.replace("Z", "+00:00") });
      assert.equal(answer.status, 200);
      const saved = answer.body.data;
      assert.equal(saved.status, "scheduled");
      assert.ok(saved.scheduled_at);
      assert.equal(saved.drafted_at, null);
      const post = await call("GET", `/v1/scheduled-posts/${saved.post_id}`);
      assert.equal(post.status, 200);
      assert.equal(post.body.data.status, "scheduled");
      assert.equal(post.body.data.scheduled_for, when);
      assert.deepEqual(post.body.data.parts, [{ text: "Scheduled idea.", media: [] }]);
      assert.equal(post.body.data.auto_retweet, null);
      assert.equal(post.body.data.auto_delete, null);
      assert.equal(post.body.data.super_followers_only, false);
      const listed = await call("GET", "/v1/scheduled-posts?status=scheduled&limit=100");
      assert.ok(listed.body.data.some((row: any) => row.id === saved.post_id));
      assert.equal(await ledgerBalanceOf(sql(), `post:${saved.post_id}`), 1);
      const [job] = await sql()<{ run_at: Date }[]>`select run_at from jobs where kind = 'publish_scheduled_post' and payload->>'postId' = ${saved.post_id}`;
      assert.equal(job.run_at.toISOString(), when);
      expectError(await action(id, "schedule", { scheduled_for: hoursAhead(30) }), 400, "invalid_request", "second schedule");
      expectError(await action(id, "draft"), 400, "invalid_request", "draft after schedule");
      assert.equal(await ledgerBalanceOf(sql(), `post:${saved.post_id}`), 1);
    });

    test("schedule needs a scheduled_for with Z or an offset, 60 s to 18 months ahead (400 invalid_parameter)", async () => {
      const owner = await worker(harness.world.accounts.main);
      const [id] = await suggestions(owner, ["Badly timed idea."]);
      for (const body of [
        {},
        { scheduled_for: "2030-01-01T09:00:00" },
        { scheduled_for: "tomorrow" },
        { scheduled_for: new Date(Date.now() + 30_000).toISOString() },
        { scheduled_for: hoursAhead(-1) },
        { scheduled_for: new Date(Date.now() + 19 * 31 * 86_400_000).toISOString() },
      ]) {
        const answer = await action(id, "schedule", body);
        expectError(answer, 400, "invalid_parameter", JSON.stringify(body));
        assert.match(answer.body.error.message, /scheduled_for/);
      }
      const listed = await call("GET", `/v1/workers/suggestions?worker_id=${owner.id}`);
      assert.deepEqual(
        listed.body.data.map((row: any) => row.status),
        ["to_review"],
      );
    });

    test("dismiss moves to_review to dismissed without a post; a dismissed suggestion no longer saves", async () => {
      const owner = await worker(harness.world.accounts.main);
      const [id] = await suggestions(owner, ["Dismissed idea."]);
      const answer = await action(id, "dismiss");
      assert.equal(answer.status, 200);
      assert.deepEqual(Object.keys(answer.body.data).sort(), ["dismissed_at", "id"]);
      assert.equal(answer.body.data.id, id);
      assert.ok(Date.parse(answer.body.data.dismissed_at) > 0);
      const listed = await call("GET", `/v1/workers/suggestions?worker_id=${owner.id}&status=dismissed`);
      assert.deepEqual(
        listed.body.data.map((row: any) => [row.id, row.post_id, row.dismissed_at]),
        [[id, null, answer.body.data.dismissed_at]],
      );
      expectError(await action(id, "draft"), 400, "invalid_request", "draft after dismiss");
      expectError(await action(id, "schedule", { scheduled_for: hoursAhead(24) }), 400, "invalid_request", "schedule after dismiss");
      const again = await action(id, "dismiss");
      assert.equal(again.status, 200);
      assert.equal(again.body.data.dismissed_at, answer.body.data.dismissed_at);
    });

    test("dismiss after a save keeps the post; the row reads back under status=dismissed with its post_id", async () => {
      const owner = await worker(harness.world.accounts.main);
      const [drafted, scheduled] = await suggestions(owner, ["Saved then dismissed A.", "Saved then dismissed B."]);
      const draftPost = (await action(drafted, "draft")).body.data.post_id;
      const queued = (await action(scheduled, "schedule", { scheduled_for: hoursAhead(48) })).body.data;
      for (const id of [drafted, scheduled]) assert.equal((await action(id, "dismiss")).status, 200);
      const listed = await call("GET", `/v1/workers/suggestions?worker_id=${owner.id}&status=dismissed`);
      const rows = new Map(listed.body.data.map((row: any) => [row.id, row]));
      assert.equal((rows.get(drafted) as any).post_id, draftPost);
      assert.equal((rows.get(scheduled) as any).post_id, queued.post_id);
      assert.equal((rows.get(scheduled) as any).scheduled_at, queued.scheduled_at);
      assert.deepEqual((await call("GET", `/v1/workers/suggestions?worker_id=${owner.id}&status=scheduled`)).body.data, []);
      for (const postId of [draftPost, queued.post_id]) assert.equal((await call("GET", `/v1/scheduled-posts/${postId}`)).status, 200);
      assert.equal((await call("GET", `/v1/scheduled-posts/${queued.post_id}`)).body.data.status, "scheduled");
      assert.equal(await ledgerBalanceOf(sql(), `post:${queued.post_id}`), 1);
      // Deleting the post (the way the spec names) leaves the suggestion dismissed, its post_id cleared.
      assert.equal((await call("DELETE", `/v1/scheduled-posts/${queued.post_id}`)).status, 200);
      const afterDelete = await call("GET", `/v1/workers/suggestions?worker_id=${owner.id}&status=dismissed`);
      assert.equal(afterDelete.body.data.find((row: any) => row.id === scheduled).post_id, null);
    });

    test("dismiss has no Idempotency-Key support: the header is ignored and never replays", async () => {
      const owner = await worker(harness.world.accounts.main);
      const [first, second] = await suggestions(owner, ["One.", "Two."]);
      const key = `dismiss-${index}-${runs}`;
      const a = await action(first, "dismiss", {}, undefined, { "Idempotency-Key": key });
      const b = await action(second, "dismiss", {}, undefined, { "Idempotency-Key": key });
      assert.equal(a.status, 200);
      assert.equal(b.status, 200);
      assert.equal(b.body.data.id, second);
      assert.equal(b.headers.get("idempotency-replayed"), null);
    });

    test("unknown, malformed, foreign and narrowed-away ids; shared accounts, read keys, onboarding and quota", async () => {
      const verbs = [
        ["draft", {}],
        ["schedule", { scheduled_for: hoursAhead(24) }],
        ["dismiss", {}],
      ] as const;
      for (const [verb, body] of verbs) {
        expectError(await action(999_999_999, verb, body), 404, "suggestion_not_found", `${verb} unknown`);
        for (const bad of ["abc", "0", "-1", "1.5"]) expectError(await action(bad, verb, body), 400, "invalid_parameter", `${verb} ${bad}`);
      }
      const foreignOwner = await workerById(sql(), demo.workers.foreign);
      const [foreign] = await suggestions(foreignOwner!, ["Not yours."]);
      const shared = await worker(harness.world.accounts.shared);
      const [sharedId] = await suggestions(shared, ["Shared with you, read-only."]);
      const [mine] = await suggestions((await workerById(sql(), demo.workers.formats))!, ["Mine."]);
      const [linkedOwn] = await suggestions(await worker(harness.world.accounts.linked), ["On the linked account."]);
      for (const [verb, body] of verbs) {
        expectError(await action(foreign, verb, body), 404, "suggestion_not_found", `${verb} another user's`);
        expectError(await action(sharedId, verb, body), 403, "writes_main_account_only", `${verb} shared`);
        expectError(
          await action(sharedId, verb, { ...body, account_id: harness.world.accounts.shared }),
          403,
          "writes_main_account_only",
          `${verb} shared named`,
        );
        expectError(await action(linkedOwn, verb, { ...body, account_id: harness.world.accounts.main }), 404, "suggestion_not_found", `${verb} narrowed away`);
        expectError(
          await action(mine, verb, { ...body, account_id: harness.world.accounts.other_user }),
          404,
          "account_not_found",
          `${verb} foreign account_id`,
        );
        expectError(await action(mine, verb, body, harness.world.keys.read), 403, "insufficient_scope", `${verb} read key`);
      }
      const sharedRead = await call("GET", `/v1/workers/suggestions?account_id=${harness.world.accounts.shared}&worker_id=${shared.id}`);
      assert.deepEqual(
        sharedRead.body.data.map((row: any) => [row.id, row.status]),
        [[sharedId, "to_review"]],
      );
      const mineAfter = await call("GET", `/v1/workers/suggestions?worker_id=${demo.workers.formats}&status=all&limit=100`);
      assert.equal(mineAfter.body.data.find((row: any) => row.id === mine).status, "to_review");

      const olu = await worker(await accountOf("olu_new"));
      const [notOnboarded] = await suggestions(olu, ["Before onboarding."]);
      expectError(await action(notOnboarded, "draft", {}, harness.world.keys.not_onboarded), 403, "onboarding_required");
      const pia = await worker(await accountOf("pia_queued"));
      const [overQuota] = await suggestions(pia, ["Over quota."]);
      expectError(await action(overQuota, "schedule", { scheduled_for: hoursAhead(24) }, harness.world.keys.no_post_quota), 403, "post_quota_exceeded");
      const still = await call("GET", `/v1/workers/suggestions?worker_id=${pia.id}`, undefined, harness.world.keys.no_post_quota);
      assert.deepEqual(
        still.body.data.map((row: any) => [row.status, row.post_id]),
        [["to_review", null]],
      );
      const drafted = await action(overQuota, "draft", {}, harness.world.keys.no_post_quota);
      assert.equal(drafted.status, 200);
    });

    test("a text too long for an account without the premium tier answers 400 invalid_request and stays to review", async () => {
      const owner = await worker(harness.world.accounts.linked);
      const [id] = await suggestions(owner, ["word ".repeat(80).trim()]);
      expectError(await action(id, "draft"), 400, "invalid_request");
      const listed = await call("GET", `/v1/workers/suggestions?account_id=${harness.world.accounts.linked}&worker_id=${owner.id}`);
      assert.equal(listed.body.data[0].status, "to_review");
    });
  });
});

describe("when the scheduling service is unreachable", () => {
  let failing: Harness;
  before(async () => {
    failing = await startHarness({ config: { faults: "scheduler" } });
  });
  after(() => failing.close());

  test("draft and schedule answer 503 upstream_unavailable and write nothing; dismiss still works", async () => {
    const owner = await createWorker(
      failing.services.sql,
      failing.world.accounts.main,
      { name: "Fault", shape: "formats", topic_source: "custom", topic: "x" },
      new Date(),
    );
    await insertSuggestions(failing.services.sql, owner, new Date(), new Date(), [{ text: "never", reference: { source: "format" }, fallback: false }]);
    const [row] = await failing.services.sql<{ id: number }[]>`select id from worker_suggestions where worker_id = ${owner.id}`;
    for (const transport of transports(failing)) {
      for (const [verb, body] of [
        ["draft", {}],
        ["schedule", { scheduled_for: hoursAhead(24) }],
      ] as const) {
        const answer = await transport.request("POST", `/v1/workers/suggestions/${row.id}/${verb}`, { key: failing.world.keys.write, body });
        assert.equal(answer.status, 503, `${transport.name} ${verb}`);
        assert.equal(answer.body.error.code, "upstream_unavailable");
      }
    }
    const [posts] = await failing.services.sql<{ n: number }[]>`select count(*)::int as n from scheduled_posts where parts->0->>'text' = 'never'`;
    assert.equal(posts.n, 0);
    const dismissed = await transports(failing)[0].request("POST", `/v1/workers/suggestions/${row.id}/dismiss`, { key: failing.world.keys.write, body: {} });
    assert.equal(dismissed.status, 200);
  });
});

describe("Workers run on their schedules through the job runner", () => {
  const kinds = ["dispatch_workers", "run_worker"];
  const day = 86_400_000;

  /** Runs the Worker jobs due now until none is left; answers how many ran. */
  async function drain(clock: ReturnType<typeof manualClock>): Promise<number> {
    const handlers = jobHandlers({ sql: sql(), clock, network: harness.services.network, model: harness.services.model });
    let total = 0;
    for (;;) {
      const result = await runJobsOnce({ sql: sql(), handlers, runnerId: "workers-test", kinds });
      assert.equal(result.retried + result.failed, 0, "no Worker job failed");
      total += result.claimed;
      if (result.claimed === 0) return total;
    }
  }

  async function rowsOf(workerId: number) {
    return sql()<{ id: number; status: string; text: string; reference: any; fallback: boolean; run_at: Date }[]>`
      select id, status, text, reference, fallback, run_at from worker_suggestions where worker_id = ${workerId} order by run_at, run_index`;
  }

  test("dispatch_workers is a periodic kind every 5 minutes", () => {
    assert.ok(periodicJobs.some((job) => job.kind === "dispatch_workers" && job.everySeconds === 300));
  });

  test("a due formats Worker writes batch_size suggestions to review once, and its next run moves on in its time zone", async () => {
    const account = await freshLinkedAccount(sql(), "wrk1");
    const owner = await worker(account, { batch_size: 3, schedule: { days: [0, 1, 2, 3, 4, 5, 6], time: "09:00" }, timezone: "America/New_York" });
    assert.equal(wallTimeAt("America/New_York", owner.next_run_at.getTime()).hour, 9);
    const clock = manualClock(owner.next_run_at.getTime() - 60_000);
    await enqueueJob(sql(), { kind: "dispatch_workers" });
    await drain(clock);
    assert.equal((await rowsOf(owner.id)).length, 0, "not due yet");

    clock.set(owner.next_run_at.getTime() + 60_000);
    await enqueueJob(sql(), { kind: "dispatch_workers" });
    assert.ok((await drain(clock)) >= 2, "the dispatch and the run");
    const rows = await rowsOf(owner.id);
    assert.equal(rows.length, 3);
    const templates = new Set(FORMAT_TEMPLATES.map((template) => template.example));
    for (const row of rows) {
      assert.equal(row.status, "to_review");
      assert.equal(row.reference.source, "format");
      assert.equal(row.fallback, false);
      assert.ok(row.text.length > 0 && !templates.has(row.text), "the model wrote a text in the format, not the template");
      assert.ok([...row.text].length <= 280, "fits an account without the premium tier");
    }
    const moved = (await workerById(sql(), owner.id))!;
    assert.equal(moved.next_run_at.getTime(), owner.next_run_at.getTime() + day);
    assert.equal(wallTimeAt("America/New_York", moved.next_run_at.getTime()).hour, 9);

    // The same run enqueued again (another process, a retried dispatch) writes nothing more.
    await enqueueJob(sql(), { kind: "run_worker", payload: { workerId: owner.id, runAt: owner.next_run_at.toISOString() } });
    await enqueueJob(sql(), { kind: "dispatch_workers" });
    await drain(clock);
    assert.equal((await rowsOf(owner.id)).length, 3);

    const listed = await transports(harness)[0].request("GET", `/v1/workers/suggestions?account_id=${account}&worker_id=${owner.id}`, {
      key: harness.world.keys.write,
    });
    assert.equal(listed.body.data.length, 3);
    const saved = await transports(harness)[0].request("POST", `/v1/workers/suggestions/${rows[0].id}/schedule`, {
      key: harness.world.keys.write,
      body: { scheduled_for: hoursAhead(24) },
    });
    assert.equal(saved.status, 200);
    const posts = await transports(harness)[0].request("GET", `/v1/scheduled-posts?account_id=${account}`, { key: harness.world.keys.write });
    assert.deepEqual(
      posts.body.data.map((post: any) => [post.id, post.parts[0].text]),
      [[saved.body.data.post_id, rows[0].text]],
    );
  });

  test("a niche Worker remixes popular posts found by its keywords, and falls back to a format when none is usable", async () => {
    const account = await freshLinkedAccount(sql(), "wrk2");
    const found = await worker(account, {
      shape: "niche",
      keywords: ["AI agents", "prompt engineering"],
      batch_size: 2,
      schedule: { days: [0, 1, 2, 3, 4, 5, 6], time: "10:00" },
    });
    const none = await worker(account, {
      shape: "niche",
      keywords: ["qqxyzzy unheard-of phrase"],
      batch_size: 2,
      schedule: { days: [0, 1, 2, 3, 4, 5, 6], time: "10:00" },
    });
    const clock = manualClock(Math.max(found.next_run_at.getTime(), none.next_run_at.getTime()) + 1000);
    await enqueueJob(sql(), { kind: "dispatch_workers" });
    await drain(clock);
    const remixes = await rowsOf(found.id);
    assert.equal(remixes.length, 2);
    for (const row of remixes) {
      assert.equal(row.reference.source, "popular_post");
      assert.equal(row.fallback, false);
      assert.match(row.reference.post_id, /^\d+$/);
      const source = await harness.services.network.postById(row.reference.post_id);
      assert.ok(source.metrics.likes >= 30, "a popular post");
      assert.notEqual(row.text, source.text, "remixed, not copied");
      assert.doesNotMatch(row.text, /@\w/, "someone else's post loses the names it mentions");
    }
    assert.notEqual(remixes[0].reference.author_id, remixes[1].reference.author_id, "one post per author");
    const fallbacks = await rowsOf(none.id);
    assert.equal(fallbacks.length, 2);
    for (const row of fallbacks) {
      assert.equal(row.reference.source, "format");
      assert.equal(row.fallback, true);
    }
    const listed = await transports(harness)[1].request("GET", `/v1/workers/suggestions?account_id=${account}&worker_id=${none.id}`, {
      key: harness.world.keys.write,
    });
    assert.deepEqual(
      listed.body.data.map((row: any) => row.reference),
      [
        { source: "format", fallback: true },
        { source: "format", fallback: true },
      ],
    );
  });

  test("a fresh Worker writes from the account's context and products", async () => {
    const owner = await worker(harness.world.accounts.main, {
      shape: "fresh",
      topic_source: "custom",
      topic: "Why we ship on Fridays.",
      batch_size: 3,
      schedule: { days: [0, 1, 2, 3, 4, 5, 6], time: "11:00" },
      timezone: "Asia/Tokyo",
    });
    const clock = manualClock(owner.next_run_at.getTime() + 1000);
    await enqueueJob(sql(), { kind: "run_worker", payload: { workerId: owner.id, runAt: owner.next_run_at.toISOString() } });
    await drain(clock);
    const rows = await rowsOf(owner.id);
    assert.equal(rows.length, 3);
    const sources = new Set(rows.map((row) => row.reference.source));
    for (const source of sources) assert.ok(source === "context" || source === "product", source);
    assert.ok(sources.has("product"), "A's products are written about");
    assert.equal(new Set(rows.map((row) => row.text)).size, 3, "three different suggestions");
    assert.equal(wallTimeAt("Asia/Tokyo", (await workerById(sql(), owner.id))!.next_run_at.getTime()).hour, 11);
  });

  test("a run without a model fails and retries; a run that used up its attempts is skipped, not stuck", async () => {
    const account = await freshLinkedAccount(sql(), "wrk4");
    const owner = await worker(account, { schedule: { days: [0, 1, 2, 3, 4, 5, 6], time: "13:00" } });
    const clock = manualClock(owner.next_run_at.getTime() + 1000);
    const modelless = jobHandlers({ sql: sql(), clock, network: harness.services.network });
    await enqueueJob(sql(), { kind: "dispatch_workers" });
    await runJobsOnce({ sql: sql(), handlers: modelless, runnerId: "workers-test", kinds: ["dispatch_workers"] });
    const failedRun = await runJobsOnce({ sql: sql(), handlers: modelless, runnerId: "workers-test", kinds: ["run_worker"] });
    assert.deepEqual([failedRun.claimed, failedRun.retried], [1, 1]);
    assert.equal((await rowsOf(owner.id)).length, 0);
    // The run's last attempt failed: the next dispatch moves the Worker on to its next run.
    await sql()`update jobs set status = 'failed', finished_at = now() where unique_key = ${`run_worker:${owner.id}@${owner.next_run_at.toISOString()}`}`;
    await enqueueJob(sql(), { kind: "dispatch_workers" });
    await drain(clock);
    assert.equal((await workerById(sql(), owner.id))!.next_run_at.getTime(), owner.next_run_at.getTime() + day);
    assert.equal((await rowsOf(owner.id)).length, 0);
  });

  test("an inactive Worker is never dispatched", async () => {
    const account = await freshLinkedAccount(sql(), "wrk3");
    const paused = await worker(account, { active: false, schedule: { days: [0, 1, 2, 3, 4, 5, 6], time: "12:00" } });
    const clock = manualClock(paused.next_run_at.getTime() + day);
    await enqueueJob(sql(), { kind: "dispatch_workers" });
    await drain(clock);
    assert.equal((await rowsOf(paused.id)).length, 0);
    const listed = await transports(harness)[0].request("GET", `/v1/workers?account_id=${account}`, { key: harness.world.keys.write });
    assert.deepEqual(
      listed.body.data.map((item: any) => [item.active, item.next_run_at]),
      [[false, null]],
    );
  });
});
