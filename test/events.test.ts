/**
 * Events written in the same transaction as their change (docs/webhooks.md): the scheduling
 * endpoints, the publisher, a dataset created ready, the DM sender, the signal agent runner,
 * the cover job and a credit charge each leave their event with the object as its `GET`
 * answers it; a change that rolled back leaves none; the `credits.low` settings; the
 * `purge_old_events` job. Events are read back through `GET /v1/events` (both transports).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { startHarness, transports, type Harness, type Transport } from "./support/harness.ts";
import { expectError } from "./support/expect_error.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { readAllEvents, storedEventsOf } from "./support/event_reads.ts";
import { dmPeople, dmSenderAccount, messagedPeople } from "./support/dm_people.ts";
import { insertAgentRow, insertSignalRow } from "./support/agent_rows.ts";
import { manualClock } from "./support/manual_clock.ts";
import type { SimulatedNetwork } from "../adapters/x/simulated/simulated_network.ts";
import { createContextInner } from "../core/context.ts";
import { chargeCredits, creditState, grantCredits } from "../core/credits/credits.ts";
import type { CreditOwner } from "../core/request_state/credit_state.ts";
import { planById } from "../core/plans/plans.ts";
import { creditOwnerRow } from "../core/covers/cover_queries.ts";
import { COVER_JOB_KIND } from "../core/covers/cover_job.ts";
import { jobHandlers, periodicJobs } from "../jobs/task_list.ts";
import { runJobsOnce } from "../core/jobs/job_runner.ts";
import { enqueueCampaign } from "../core/dm/create_campaign.ts";
import { dmAllowanceOf } from "../core/dm/dm_limits.ts";
import { sendDueMessages } from "../core/dm/dm_sender.ts";
import { runSignalAgent } from "../core/signals/agent_runner.ts";
import { deductPostQuota } from "../core/post_quota/post_quota.ts";
import { publishScheduledPost } from "../core/scheduling/publish_post.ts";
import { schedulePublication } from "../core/scheduling/schedule_publication.ts";
import { insertPost, updatePostColumns } from "../core/scheduling/scheduled_posts_queries.ts";
import { recordPostEvent } from "../core/scheduling/post_events.ts";
import { sequenceEvents } from "../core/events/events_queries.ts";
import { purgeOldEvents } from "../core/events/events_jobs.ts";
import { NetworkRejectedError } from "../core/network/network_errors.ts";

/** The 202 form of a cover request (RFC 7240); without it the request waits for the cover. */
const ASYNC = { Prefer: "respond-async" };

let harness: Harness;
before(async () => {
  harness = await startHarness();
});
after(() => harness.close());

const sql = () => harness.services.sql;
const main = () => harness.world.accounts.main;

/** The stored events about one object, oldest first (any owner: jobs' accounts have no keys). */
const storedEvents = (objectType: string, objectId: string | number) => storedEventsOf(sql(), objectType, objectId);

/** Every event of the key's user of `types` through `transport`, following `next_cursor`. */
const readAll = (transport: Transport, types: string, key = harness.world.keys.write) => readAllEvents(transport, types, key);

/** A due scheduled post of the main account as the create endpoint leaves it. */
async function dueScheduledPost(text: string): Promise<{ postId: number; version: number }> {
  const { clock } = harness.services;
  return sql().begin(async (tx) => {
    const now = new Date(clock.now());
    const postId = await insertPost(tx, main(), { status: "scheduled", scheduled_for: new Date(now.getTime() - 1000), parts: [{ text, media: [] }] }, now);
    const charge = await deductPostQuota(tx, main(), [`post:${postId}`], { now, reason: "scheduled" });
    await updatePostColumns(tx, postId, { quota_period_start: charge.periodStart }, now);
    await schedulePublication(tx, [postId]);
    const [{ publish_version }] = await tx<{ publish_version: number }[]>`select publish_version from scheduled_posts where id = ${postId}`;
    return { postId, version: publish_version };
  });
}

async function creditOwnerOf(accountId: string): Promise<CreditOwner> {
  const user = await creditOwnerRow(sql(), accountId);
  assert.ok(user);
  return { ownerId: accountId, plan: planById(user.plan), billingAnchor: user.billing_anchor };
}

describe("events of scheduled posts", () => {
  describeMatrix(({ index, name }) => {
    test(`post.scheduled and post.deleted carry the post as GET answers it (${name})`, async () => {
      const transport = transports(harness)[index];
      const key = harness.world.keys.write;
      const at = new Date(Date.now() + 3 * 86_400_000).toISOString();
      const created = await transport.request("POST", "/v1/scheduled-posts", {
        key,
        body: { text: `Events ${randomBytes(4).toString("hex")}`, scheduled_for: at },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const id = created.body.data.id;
      const got = await transport.request("GET", `/v1/scheduled-posts/${id}`, { key });
      const scheduled = (await readAll(transport, "post.scheduled")).filter((event) => event.object.id === id);
      assert.equal(scheduled.length, 1);
      assert.equal(scheduled[0].type, "post.scheduled");
      assert.equal(scheduled[0].account_id, main());
      assert.deepEqual(scheduled[0].object, { type: "scheduled_post", id });
      assert.match(scheduled[0].id, /^evt_[0-9]+$/);
      assert.deepEqual(scheduled[0].data, got.body.data, "the event's data is the post as GET answers it");

      // A draft is not scheduled: no event.
      const draft = await transport.request("POST", "/v1/scheduled-posts", { key, body: { text: "A draft, not an event" } });
      assert.equal((await storedEvents("scheduled_post", draft.body.data.id)).length, 0);

      const deleted = await transport.request("DELETE", `/v1/scheduled-posts/${id}`, { key });
      assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
      const gone = (await readAll(transport, "post.deleted")).filter((event) => event.object.id === id);
      assert.equal(gone.length, 1);
      assert.deepEqual(gone[0].data, { id, deleted: true });
    });
  });

  test("the publisher records post.sent in the transaction that marks the post sent", async () => {
    const { postId, version } = await dueScheduledPost(`Sent event ${randomBytes(4).toString("hex")}`);
    const result = await publishScheduledPost({ sql: sql(), network: harness.services.network, clock: harness.services.clock }, { postId, version });
    assert.equal(result.outcome, "sent");
    const events = (await storedEvents("scheduled_post", postId)).filter((event) => event.type === "post.sent");
    assert.equal(events.length, 1);
    assert.equal(events[0].data.status, "sent");
    assert.deepEqual(events[0].data.x_post_ids, result.outcome === "sent" ? result.xPostIds : []);
    // Publishing again (a retried job) finds it sent and records nothing more.
    await publishScheduledPost({ sql: sql(), network: harness.services.network, clock: harness.services.clock }, { postId, version });
    assert.equal((await storedEvents("scheduled_post", postId)).filter((event) => event.type === "post.sent").length, 1);
  });

  test("a change that rolled back leaves no event, and the sequencer never numbers one", async () => {
    const now = new Date();
    let postId = 0;
    await assert.rejects(
      sql().begin(async (tx) => {
        postId = await insertPost(
          tx,
          main(),
          { status: "scheduled", scheduled_for: new Date(now.getTime() + 86_400_000), parts: [{ text: "rolled back", media: [] }] },
          now,
        );
        await recordPostEvent(tx, "post.scheduled", postId, now);
        assert.equal((await tx`select 1 from events where object_id = ${String(postId)} and object_type = 'scheduled_post'`).length, 1, "seen inside");
        throw new Error("the change fails after its event was written");
      }),
      /the change fails/,
    );
    await sequenceEvents(sql(), 1000);
    assert.equal((await storedEvents("scheduled_post", postId)).length, 0);
    const listed = (await readAll(transports(harness)[0], "post.scheduled")).filter((event) => event.object.id === String(postId));
    assert.deepEqual(listed, []);
  });

  test("a publication that fails for good records post.failed", async () => {
    const { postId, version } = await dueScheduledPost(`Failing ${randomBytes(4).toString("hex")}`);
    const refusing = {
      ...harness.services.network,
      async publishPost(): Promise<never> {
        throw new NetworkRejectedError("invalid", "X refused this text");
      },
    };
    const result = await publishScheduledPost(
      { sql: sql(), network: refusing as never, clock: harness.services.clock },
      { postId, version },
      { finalAttempt: true },
    );
    assert.equal(result.outcome, "failed");
    const failed = (await storedEvents("scheduled_post", postId)).filter((event) => event.type === "post.failed");
    assert.equal(failed.length, 1);
    assert.equal(failed[0].data.status, "error");
  });
});

describe("events of jobs and other areas", () => {
  test("a dataset created ready records dataset.ready with the dataset as GET answers it", async () => {
    const x = harness.world.x;
    assert.ok(x, "the simulated network has its fixtures");
    const transport = transports(harness)[1];
    const key = harness.world.keys.write;
    await sql()`update datasets set quota_day = null where account_id = ${main()}`;
    const created = await transport.request("POST", "/v1/datasets", { key, body: { source: "repliers", target: x.post_id } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.data.id;
    const got = await transport.request("GET", `/v1/datasets/${id}`, { key });
    const events = (await readAll(transport, "dataset.ready,dataset.failed")).filter((event) => event.object.id === id);
    assert.equal(events.length, 1);
    assert.equal(events[0].type, "dataset.ready");
    assert.equal(events[0].object.type, "dataset");
    assert.deepEqual(events[0].data, got.body.data);
  });

  test("the DM sender records dm.sent per message and dm_campaign.completed once the campaign is drained", async () => {
    const people = dmPeople(harness.services.network as SimulatedNetwork, await messagedPeople(sql()));
    const account = await dmSenderAccount(sql(), people.open(1)[0]);
    const recipients = people.open(2).map((id) => ({ x_user_id: id, name: "Ada Lovelace" }));
    const allowance = (await dmAllowanceOf(sql(), account))!;
    const now = Date.now();
    const campaign = await sql().begin((tx) =>
      enqueueCampaign(tx, { accountId: account, allowance, now, message: "Hello [first]", recipients, spread: false, source: "api" }),
    );
    const result = await sendDueMessages({ sql: sql(), network: harness.services.network, clock: manualClock(now) }, account);
    assert.equal(result.sent, 2);
    const messages = await sql()<{ id: number }[]>`select id::int as id from dm_messages where campaign_id = ${campaign.id} order by id`;
    for (const message of messages) {
      const events = await storedEvents("dm", message.id);
      assert.deepEqual(
        events.map((event) => event.type),
        ["dm.sent"],
      );
      assert.equal(events[0].data.status, "sent");
      assert.equal(events[0].data.text, "Hello Ada");
      assert.equal(events[0].account_id, account);
    }
    const completed = await storedEvents("dm_campaign", campaign.id);
    assert.deepEqual(
      completed.map((event) => event.type),
      ["dm_campaign.completed"],
    );
    assert.equal(completed[0].data.counts.sent, 2);
    const [dmSent] = await storedEvents("dm", messages[1].id);
    assert.ok(dmSent.id < completed[0].id, "the campaign's event follows its last message's");
  });

  test("the agent runner records lead.found for each lead it stores, deposit state included", async () => {
    const agent = await insertAgentRow(sql(), {
      accountId: main(),
      name: `Events finder ${randomBytes(3).toString("hex")}`,
      icp: "B2B SaaS founders struggling with churn",
    });
    await insertSignalRow(sql(), agent.id, { type: "keyword_watch", query: "churn" });
    const outcome = await runSignalAgent(
      { sql: sql(), clock: manualClock(Date.now()), network: harness.services.network, model: harness.services.model },
      agent.id,
    );
    assert.equal(outcome.ran, true);
    const leads = await sql()<{ id: number; deposited: boolean }[]>`select id::int as id, deposited from signal_leads where agent_id = ${agent.id} order by id`;
    assert.ok(leads.length > 0, "the run found leads");
    for (const lead of leads) {
      const events = await storedEvents("lead", lead.id);
      assert.equal(events.length, 1, `lead ${lead.id} has one event`);
      assert.equal(events[0].type, "lead.found");
      assert.equal(events[0].data.deposited, lead.deposited);
    }
  });

  test("the cover job records cover.done in its committing transaction", async () => {
    const owner = await creditOwnerOf(main());
    await grantCredits(createContextInner({ services: harness.services }), owner, { amount: 500, reference: `test:events:${Date.now()}` });
    const [article] = await sql()<{ id: number }[]>`
      insert into articles (account_id, title, status) values (${main()}, ${"Events and covers"}, ${"draft"}) returning id::int as id`;
    const answer = await transports(harness)[0].request("POST", `/v1/articles/${article.id}/cover`, {
      key: harness.world.keys.write,
      body: {},
      headers: ASYNC,
    });
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    const { sql: pool, clock, network, media, model } = harness.services;
    const run = await runJobsOnce({
      sql: pool,
      runnerId: "events-test",
      kinds: [COVER_JOB_KIND],
      handlers: jobHandlers({ sql: pool, clock, network, media, model }),
    });
    assert.equal(run.completed, 1);
    const events = await storedEvents("cover", answer.body.data.id);
    assert.deepEqual(
      events.map((event) => event.type),
      ["cover.done"],
    );
    assert.equal(events[0].data.status, "done");
    assert.ok(events[0].data.cover?.url);
  });
});

describe("credits.low", () => {
  describeMatrix(({ index, name }) => {
    test(`settings: GET, PUT and bad input (${name})`, async () => {
      const transport = transports(harness)[index];
      const key = harness.world.keys.write;
      expectError(await transport.request("PUT", "/v1/events/settings", { key, body: { credits_low_threshold: -1 } }), 400, "invalid_parameter");
      expectError(await transport.request("PUT", "/v1/events/settings", { key, body: { credits_low_threshold: "many" } }), 400, "invalid_parameter");
      expectError(
        await transport.request("PUT", "/v1/events/settings", { key: harness.world.keys.read, body: { credits_low_threshold: 5 } }),
        403,
        "insufficient_scope",
      );
      const put = await transport.request("PUT", "/v1/events/settings", { key, body: { credits_low_threshold: 40 } });
      assert.equal(put.status, 200, JSON.stringify(put.body));
      assert.deepEqual(put.body.data, { credits_low_threshold: 40 });
      assert.deepEqual((await transport.request("GET", "/v1/events/settings", { key: harness.world.keys.read })).body.data, { credits_low_threshold: 40 });
      // PUT replaces: an empty body turns it off.
      assert.deepEqual((await transport.request("PUT", "/v1/events/settings", { key, body: {} })).body.data, { credits_low_threshold: null });
    });
  });

  test("a charge crossing the threshold records credits.low once per period", async () => {
    const ctx = createContextInner({ services: harness.services });
    const owner = await creditOwnerOf(main());
    const { remaining } = await creditState(ctx, owner);
    assert.ok(remaining > 30, `the main account has credits (${remaining})`);
    const threshold = remaining - 10;
    const put = await transports(harness)[0].request("PUT", "/v1/events/settings", {
      key: harness.world.keys.write,
      body: { credits_low_threshold: threshold },
    });
    assert.equal(put.status, 200);
    const before = (await storedEvents("credits", main())).length;
    await chargeCredits(ctx, owner, { amount: 5, reference: "test:events:above" });
    assert.equal((await storedEvents("credits", main())).length, before, "still at or above the threshold");
    await chargeCredits(ctx, owner, { amount: 10, reference: "test:events:cross" });
    const events = await storedEvents("credits", main());
    assert.equal(events.length, before + 1);
    assert.equal(events.at(-1)!.type, "credits.low");
    assert.equal(events.at(-1)!.data.threshold, threshold);
    assert.equal(events.at(-1)!.data.remaining, remaining - 15);
    await chargeCredits(ctx, owner, { amount: 1, reference: "test:events:below" });
    assert.equal((await storedEvents("credits", main())).length, before + 1, "once per period");
    await transports(harness)[0].request("PUT", "/v1/events/settings", { key: harness.world.keys.write, body: {} });
  });
});

describe("retention", () => {
  test("purge_old_events is hourly and deletes events older than 30 days only", async () => {
    assert.deepEqual(
      periodicJobs.find((job) => job.kind === "purge_old_events"),
      { kind: "purge_old_events", everySeconds: 3600 },
    );
    const now = new Date();
    const old = new Date(now.getTime() - 31 * 86_400_000);
    const recent = new Date(now.getTime() - 29 * 86_400_000);
    await sql()`
      insert into events (owner_id, account_id, type, object_type, object_id, data, created_at)
      select a.user_id, a.id, 'post.deleted', 'scheduled_post', x.id, '{}'::jsonb, x.at
        from accounts a, (values ('purge-old', ${old}::timestamptz), ('purge-recent', ${recent}::timestamptz)) as x(id, at)
       where a.id = ${main()}`;
    assert.ok((await purgeOldEvents(sql(), now)) >= 1);
    assert.equal((await storedEvents("scheduled_post", "purge-old")).length, 0);
    assert.equal((await storedEvents("scheduled_post", "purge-recent")).length, 1);
    assert.equal(await purgeOldEvents(sql(), now), 0, "a second run deletes nothing more");
  });
});
