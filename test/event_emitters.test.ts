/**
 * The event emitters (docs/webhooks.md) that test/events.test.ts leaves out: `article.scheduled`
 * (the schedule endpoint, both transports), `article.published` and
 * `article.publish_failed` (the publish job, and the request path with X unreachable),
 * `cover.failed` (a refused and a timed-out generation), `suggestion.created` (a Worker
 * run through the job runner), `dataset.failed` (a collection job's last attempt) and
 * `dm.failed` (a recipient who refuses DMs). Each event is checked for its type, its
 * object, its account, and `data` equal to the object as its read answers it; a schedule
 * that rolled back leaves no article event.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { readAllEvents, storedEventsOf, type StoredEvent } from "./support/event_reads.ts";
import { dmPeople, dmSenderAccount, messagedPeople } from "./support/dm_people.ts";
import { freshLinkedAccount } from "./support/scheduled_post_rows.ts";
import { manualClock } from "./support/manual_clock.ts";
import type { SimulatedNetwork } from "../adapters/x/simulated/simulated_network.ts";
import { createContextInner } from "../core/context.ts";
import { adminApi } from "../core/admin/admin_api.ts";
import { grantCredits } from "../core/credits/credits.ts";
import { planById } from "../core/plans/plans.ts";
import { creditOwnerRow } from "../core/covers/cover_queries.ts";
import { COVER_JOB_KIND } from "../core/covers/cover_job.ts";
import { scheduleLocked } from "../core/articles/schedule_article.ts";
import { enqueueCampaign } from "../core/dm/create_campaign.ts";
import { dmAllowanceOf } from "../core/dm/dm_limits.ts";
import { sendDueMessages } from "../core/dm/dm_sender.ts";
import { sequenceEvents } from "../core/events/events_queries.ts";
import { jobHandlers } from "../jobs/task_list.ts";
import { enqueueJob } from "../core/jobs/jobs_queries.ts";
import { runJobsOnce } from "../core/jobs/job_runner.ts";
import { ModelFailedError, ModelTimeoutError } from "../core/model/model_errors.ts";
import type { Model } from "../core/model/model.ts";
import { NetworkUnavailableError } from "../core/network/network_errors.ts";
import type { SocialNetwork } from "../core/network/social_network.ts";
import { withNetwork } from "./support/with_network.ts";
import { createWorker } from "../core/workers/create_worker.ts";

/** The 202 form of a cover request (RFC 7240); without it the request waits for the cover. */
const ASYNC = { Prefer: "respond-async" };

let harness: Harness;
before(async () => {
  harness = await startHarness();
});
after(() => harness.close());

const sql = () => harness.services.sql;
const main = () => harness.world.accounts.main;
const writeKey = () => harness.world.keys.write;
const ARTICLE_JOB = "publish_scheduled_article";
const minutesAhead = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
const unique = (label: string) => `${label} ${Math.random().toString(36).slice(2, 8)}`;

/** The stored events about one object, oldest first. */
const storedEvents = (objectType: string, objectId: string | number) => storedEventsOf(sql(), objectType, objectId);

/** The events of `types` about one object, read through `GET /v1/events` with `key`. */
async function listedEventsOf(types: string, objectId: string | number, options: { index?: number; key?: string } = {}): Promise<any[]> {
  const events = await readAllEvents(transports(harness)[options.index ?? 0], types, options.key ?? writeKey());
  return events.filter((event) => event.object.id === String(objectId));
}

/** Asserts the one listed event's type, object and account. */
function assertEvent(event: any, expected: { type: string; objectType: string; objectId: string | number; accountId: string }): void {
  assert.equal(event.type, expected.type);
  assert.deepEqual(event.object, { type: expected.objectType, id: String(expected.objectId) });
  assert.equal(event.account_id, expected.accountId);
  assert.match(event.id, /^evt_[0-9]+$/);
}

const typesOf = (events: StoredEvent[]) => events.map((event) => event.type);

/** `GET /v1/articles/{id}` without the latest cover generation, which only the one-article read adds. */
async function articleRecord(id: string, index = 0): Promise<any> {
  const answer = await transports(harness)[index].request("GET", `/v1/articles/${id}`, { key: writeKey() });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const { cover_generation: _generation, ...record } = answer.body.data;
  return record;
}

/** A new article with a body on `accountId` (default: the key's main account); answers its id. */
async function createArticle(index = 0, accountId?: string): Promise<string> {
  const answer = await transports(harness)[index].request("POST", "/v1/articles", {
    key: writeKey(),
    body: { title: unique("Events article"), content_markdown: "A body worth reading.", ...(accountId ? { account_id: accountId } : {}) },
  });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return answer.body.data.id;
}

describe("article events", () => {
  describeMatrix(({ index, name }) => {
    test(`article.scheduled carries the article as the schedule endpoint and the list answer it, once per schedule (${name})`, async () => {
      const transport = transports(harness)[index];
      const id = await createArticle(index);
      const scheduled = await transport.request("POST", `/v1/articles/${id}/schedule`, { key: writeKey(), body: { scheduled_for: minutesAhead(3 * 24 * 60) } });
      assert.equal(scheduled.status, 200, JSON.stringify(scheduled.body));
      const [first, ...rest] = await listedEventsOf("article.scheduled", id, { index });
      assert.deepEqual(rest, []);
      assertEvent(first, { type: "article.scheduled", objectType: "article", objectId: id, accountId: main() });
      assert.deepEqual(first.data, scheduled.body.data, "the schedule endpoint's answer");
      const listed = await transport.request("GET", "/v1/articles?status=scheduled&limit=100", { key: writeKey() });
      assert.deepEqual(
        first.data,
        listed.body.data.find((article: any) => article.id === id),
        "the list's record",
      );
      assert.deepEqual(first.data, await articleRecord(id, index), "the one-article read, less its cover generation");

      // Moving it is scheduling it again: a second event with the new time.
      const moved = await transport.request("POST", `/v1/articles/${id}/schedule`, { key: writeKey(), body: { scheduled_for: minutesAhead(4 * 24 * 60) } });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      const both = await listedEventsOf("article.scheduled", id, { index });
      assert.equal(both.length, 2);
      assert.deepEqual(both[1].data, moved.body.data);
      assert.notEqual(both[1].data.scheduled_for, both[0].data.scheduled_for);
      // Unscheduling is no event of its own; it also keeps the later job cases' queue clean.
      assert.equal((await transport.request("POST", `/v1/articles/${id}/unschedule`, { key: writeKey(), body: {} })).status, 200);
      assert.deepEqual(typesOf(await storedEvents("article", id)), ["article.scheduled", "article.scheduled"]);
    });
  });

  /** One pass of the runner over article jobs, as of `at` on the app's clock (the jobs are made due on the database's). */
  async function runArticleJobsAt(at: string) {
    await sql()`update jobs set run_at = now() - interval '1 second' where kind = ${ARTICLE_JOB} and status = 'queued'`;
    const handlers = jobHandlers({ sql: sql(), clock: manualClock(at), network: harness.services.network });
    return runJobsOnce({ sql: sql(), handlers: { [ARTICLE_JOB]: handlers[ARTICLE_JOB] }, runnerId: "event-emitters-test", batchSize: 50 });
  }

  /** Schedules a new article of `accountId` 5 minutes ahead and runs its job at its time; answers the article id. */
  async function publishScheduled(accountId: string): Promise<string> {
    await sql()`delete from jobs where kind = ${ARTICLE_JOB}`;
    const id = await createArticle(0, accountId);
    const at = minutesAhead(5);
    const answer = await transports(harness)[0].request("POST", `/v1/articles/${id}/schedule`, { key: writeKey(), body: { scheduled_for: at } });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const run = await runArticleJobsAt(new Date(Date.parse(at) + 1000).toISOString());
    assert.equal(run.completed, 1, JSON.stringify(run));
    return id;
  }

  test("the publish job records article.published, after article.scheduled, with the article as published", async () => {
    const id = await publishScheduled(main());
    assert.deepEqual(typesOf(await storedEvents("article", id)), ["article.scheduled", "article.published"]);
    const [published] = await listedEventsOf("article.published", id, { index: 1 });
    assertEvent(published, { type: "article.published", objectType: "article", objectId: id, accountId: main() });
    assert.equal(published.data.status, "published");
    assert.match(published.data.x_post_id, /^[0-9]+$/);
    assert.deepEqual(published.data, await articleRecord(id, 1));
    const listed = await transports(harness)[1].request("GET", "/v1/articles?status=published&limit=100", { key: writeKey() });
    assert.deepEqual(
      published.data,
      listed.body.data.find((article: any) => article.id === id),
    );
  });

  test("a refusal at the scheduled time records article.publish_failed with the article back in draft", async () => {
    // The linked account has no premium tier: X refuses its articles.
    const linked = harness.world.accounts.linked;
    const id = await publishScheduled(linked);
    assert.deepEqual(typesOf(await storedEvents("article", id)), ["article.scheduled", "article.publish_failed"]);
    const [failed] = await listedEventsOf("article.publish_failed", id);
    assertEvent(failed, { type: "article.publish_failed", objectType: "article", objectId: id, accountId: linked });
    assert.equal(failed.data.status, "draft");
    assert.match(failed.data.last_error, /premium/i);
    assert.deepEqual(failed.data, await articleRecord(id));
  });

  test("a publish request with X unreachable answers 502 and records article.publish_failed only", async () => {
    const id = await createArticle(1);
    const down: SocialNetwork = { ...harness.services.network, publishArticle: () => Promise.reject(new NetworkUnavailableError()) };
    const answer = await withNetwork(harness.services, down, () =>
      transports(harness)[1].request("POST", `/v1/articles/${id}/publish`, { key: writeKey(), body: {} }),
    );
    assert.equal(answer.status, 502, JSON.stringify(answer.body));
    assert.equal(answer.body.error.code, "x_publish_failed");
    assert.deepEqual(typesOf(await storedEvents("article", id)), ["article.publish_failed"]);
    const [failed] = await listedEventsOf("article.publish_failed", id, { index: 1 });
    assertEvent(failed, { type: "article.publish_failed", objectType: "article", objectId: id, accountId: main() });
    assert.equal(failed.data.status, "draft");
    assert.deepEqual(failed.data, await articleRecord(id, 1));
  });

  test("a schedule whose transaction rolled back leaves no article.scheduled and the article a draft", async () => {
    const id = await createArticle();
    const now = new Date();
    await assert.rejects(
      sql().begin(async (tx) => {
        await scheduleLocked(tx, Number(id), new Date(now.getTime() + 86_400_000), now);
        assert.equal((await tx`select 1 from events where object_type = 'article' and object_id = ${id}`).length, 1, "seen inside");
        throw new Error("the change fails after the schedule recorded its event");
      }),
      /the change fails/,
    );
    await sequenceEvents(sql(), 1000);
    assert.deepEqual(typesOf(await storedEvents("article", id)), []);
    assert.deepEqual(await listedEventsOf("article.scheduled", id), []);
    assert.equal((await articleRecord(id)).status, "draft");
  });
});

describe("cover.failed", () => {
  before(async () => {
    const user = await creditOwnerRow(sql(), main());
    assert.ok(user);
    const owner = { ownerId: main(), plan: planById(user.plan), billingAnchor: user.billing_anchor };
    await grantCredits(createContextInner({ services: harness.services }), owner, { amount: 500, reference: `test:event-emitters:${Date.now()}` });
  });

  /** Requests a cover of a new article and runs its job once with `generateImage`; answers the ids. */
  async function failedCover(generateImage: Model["generateImage"]): Promise<{ articleId: string; generationId: string }> {
    const articleId = await createArticle();
    const answer = await transports(harness)[0].request("POST", `/v1/articles/${articleId}/cover`, { key: writeKey(), body: {}, headers: ASYNC });
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    const { sql: pool, clock, network, media, model } = harness.services;
    const run = await runJobsOnce({
      sql: pool,
      runnerId: "event-emitters-test",
      kinds: [COVER_JOB_KIND],
      handlers: jobHandlers({ sql: pool, clock, network, media, model: { ...model, generateImage } }),
    });
    assert.equal(run.completed, 1, "the ending is final, not retried");
    return { articleId, generationId: answer.body.data.id };
  }

  /** Asserts the generation's one event is `cover.failed` with the generation as `covers.status` and the article read answer it. */
  async function assertCoverFailed(articleId: string, generationId: string, status: string, code: string): Promise<void> {
    assert.deepEqual(typesOf(await storedEvents("cover", generationId)), ["cover.failed"]);
    const [failed] = await listedEventsOf("cover.failed", generationId);
    assertEvent(failed, { type: "cover.failed", objectType: "cover", objectId: generationId, accountId: main() });
    assert.equal(failed.data.status, status);
    assert.equal(failed.data.error.code, code);
    const input = encodeURIComponent(JSON.stringify({ id: articleId }));
    const polled = await transports(harness)[0].request("GET", `/trpc/covers.status?input=${input}`, { key: writeKey() });
    assert.equal(polled.status, 200, JSON.stringify(polled.body));
    assert.deepEqual(failed.data, polled.body.result.data.data.latest_generation, "covers.status");
    const read = await transports(harness)[0].request("GET", `/v1/articles/${articleId}`, { key: writeKey() });
    assert.deepEqual(failed.data, read.body.data.cover_generation, "GET /v1/articles/{id}");
  }

  test("a refused image records cover.failed with the failed generation", async () => {
    const { articleId, generationId } = await failedCover(() => Promise.reject(new ModelFailedError("The image model refused the prompt", { status: 400 })));
    await assertCoverFailed(articleId, generationId, "failed", "upstream_error");
  });

  test("a generation that timed out records cover.failed with the timed_out generation", async () => {
    const { articleId, generationId } = await failedCover(() =>
      Promise.reject(new ModelTimeoutError("The image model did not answer in time", { timeoutMs: 400 })),
    );
    await assertCoverFailed(articleId, generationId, "timed_out", "upstream_timeout");
  });
});

describe("suggestion.created", () => {
  test("a Worker run records one suggestion.created per suggestion, as the list answers it, and a repeated run none more", async () => {
    const account = await freshLinkedAccount(sql(), "evsug");
    const worker = await createWorker(
      sql(),
      account,
      {
        name: unique("Events worker"),
        shape: "formats",
        topic_source: "custom",
        topic: "Shipping small things every week.",
        batch_size: 2,
        schedule: { days: [0, 1, 2, 3, 4, 5, 6], time: "09:00" },
      },
      new Date(),
    );
    const clock = manualClock(worker.next_run_at.getTime() + 1000);
    const handlers = jobHandlers({ sql: sql(), clock, network: harness.services.network, model: harness.services.model });
    const run = async () => {
      await enqueueJob(sql(), { kind: "run_worker", payload: { workerId: worker.id, runAt: worker.next_run_at.toISOString() } });
      const result = await runJobsOnce({ sql: sql(), handlers, runnerId: "event-emitters-test", kinds: ["run_worker"] });
      assert.equal(result.completed, 1, JSON.stringify(result));
    };
    await run();
    const listed = await transports(harness)[1].request("GET", `/v1/workers/suggestions?account_id=${account}&worker_id=${worker.id}`, { key: writeKey() });
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.equal(listed.body.data.length, 2);
    const events = await readAllEvents(transports(harness)[1], "suggestion.created", writeKey());
    for (const suggestion of listed.body.data) {
      assert.deepEqual(typesOf(await storedEvents("suggestion", suggestion.id)), ["suggestion.created"]);
      const mine = events.filter((event) => event.object.id === String(suggestion.id));
      assert.equal(mine.length, 1);
      assertEvent(mine[0], { type: "suggestion.created", objectType: "suggestion", objectId: suggestion.id, accountId: account });
      assert.deepEqual(mine[0].data, suggestion);
    }
    // The same run delivered again (a retried job) is stale: no suggestion and no event more.
    await run();
    for (const suggestion of listed.body.data) assert.equal((await storedEvents("suggestion", suggestion.id)).length, 1);
    const [{ n }] = await sql()<{ n: number }[]>`select count(*)::int as n from worker_suggestions where worker_id = ${worker.id}`;
    assert.equal(n, 2);
  });
});

describe("dataset.failed and dm.failed", () => {
  test("a collection job failing on its last attempt records dataset.failed with the dataset as GET answers it", async () => {
    const x = harness.world.x;
    assert.ok(x, "the simulated network has its fixtures");
    await sql()`update datasets set quota_day = null where account_id = ${main()}`;
    const transport = transports(harness)[1];
    const answer = await transport.request("POST", "/v1/datasets", { key: writeKey(), body: { source: "reposters", target: x.large_post_id } });
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    const id = answer.body.data.id;
    await sql()`update jobs set max_attempts = 1 where kind = 'build_dataset' and payload->>'datasetId' = ${id}`;
    const failing: SocialNetwork = {
      ...harness.services.network,
      reposters: () => Promise.reject(new NetworkUnavailableError()),
    };
    const { clock } = harness.services;
    const run = await runJobsOnce({
      sql: sql(),
      runnerId: "event-emitters-test",
      kinds: ["build_dataset"],
      handlers: jobHandlers({ sql: sql(), clock, network: failing }),
    });
    assert.equal(run.claimed, 1);
    const got = await transport.request("GET", `/v1/datasets/${id}`, { key: writeKey() });
    assert.equal(got.body.data.status, "failed");
    assert.deepEqual(typesOf(await storedEvents("dataset", id)), ["dataset.failed"]);
    const [failed, ...rest] = await listedEventsOf("dataset.ready,dataset.failed", id, { index: 1 });
    assert.deepEqual(rest, []);
    assertEvent(failed, { type: "dataset.failed", objectType: "dataset", objectId: id, accountId: main() });
    assert.deepEqual(failed.data, got.body.data);
  });

  test("a recipient refusing DMs records dm.failed with the message as the campaign read shows it, then dm_campaign.completed", async () => {
    const people = dmPeople(harness.services.network as SimulatedNetwork, await messagedPeople(sql()));
    const account = await dmSenderAccount(sql(), people.open(1)[0]);
    const [{ user_id: userId }] = await sql()<{ user_id: number }[]>`select user_id from accounts where id = ${account}`;
    const { key } = await adminApi(harness.services).createKey({ userId, name: "events" });
    const recipients = [{ x_user_id: people.open(1)[0], name: "Ada Lovelace" }, { x_user_id: people.closed(account) }];
    const allowance = (await dmAllowanceOf(sql(), account))!;
    const now = Date.now();
    const campaign = await sql().begin((tx) =>
      enqueueCampaign(tx, { accountId: account, allowance, now, message: "Hello [first]", recipients, spread: false, source: "api" }),
    );
    const result = await sendDueMessages({ sql: sql(), network: harness.services.network, clock: manualClock(now) }, account);
    assert.deepEqual({ sent: result.sent, failed: result.failed }, { sent: 1, failed: 1 });
    const read = await transports(harness)[1].request("GET", `/v1/dm/campaigns/${campaign.id}`, { key });
    assert.equal(read.status, 200, JSON.stringify(read.body));
    const refused = read.body.data.messages.find((message: any) => message.status === "failed");
    assert.ok(refused, JSON.stringify(read.body.data.messages));
    assert.deepEqual(typesOf(await storedEvents("dm", refused.id)), ["dm.failed"]);
    const [failed] = await listedEventsOf("dm.failed", refused.id, { index: 1, key });
    assertEvent(failed, { type: "dm.failed", objectType: "dm", objectId: refused.id, accountId: account });
    assert.match(failed.data.reason, /does not accept DMs/);
    assert.deepEqual(failed.data, refused);
    const [completed] = await listedEventsOf("dm_campaign.completed", campaign.id, { key });
    assertEvent(completed, { type: "dm_campaign.completed", objectType: "dm_campaign", objectId: campaign.id, accountId: account });
    assert.deepEqual(completed.data, read.body.data, "a failed message settles the campaign as a sent one does");
  });
});
