/**
 * Webhook delivery (docs/webhooks.md): events fanned out by `seq` into deliveries, posted
 * signed (verified with the `standardwebhooks` package), retried with backoff against a
 * receiver that fails then recovers, in order per object, timed out and posted again with
 * the same `webhook-id`, never twice at once, disabled after a run of failures (with a
 * `webhook.disabled` event), signed with both secrets during a rotation, and refused by the
 * outbound guard at delivery time. Events are produced with recordEvent; time moves on a
 * manual clock.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { manualClock } from "./support/manual_clock.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./support/webhook_receiver.ts";
import { recordEvent } from "../core/events/record_event.ts";
import type { EventType } from "../core/events/event_types.ts";
import { fanOutEvents } from "../core/webhooks/deliver_fan_out.ts";
import { deliverDue } from "../core/webhooks/deliver_due.ts";
import type { DeliveryDeps } from "../core/webhooks/deliver_attempt.ts";
import { createGuardedWebhookSender } from "../adapters/outbound/guarded_post.ts";
import { jobHandlers } from "../jobs/task_list.ts";
import type { JobRow } from "../core/jobs/jobs_queries.ts";

let harness: Harness;
let receiver: WebhookReceiver;

before(async () => {
  receiver = await startWebhookReceiver();
  harness = await startHarness({ config: { outboundAllowHosts: "127.0.0.1" } });
});
after(async () => {
  await harness.close();
  await receiver.close();
});

let paths = 0;
let holders = 0;
const send = (method: string, path: string, body?: unknown, key = harness.world.keys.write) => transports(harness)[0].request(method, path, { key, body });

/** An endpoint on its own receiver path, deleted after the test. */
async function endpoint(t: { after(fn: () => Promise<unknown>): void }, events?: string[]) {
  const path = `/deliver/${++paths}`;
  const answer = await send("POST", "/v1/webhooks", { url: `${receiver.base}${path}`, ...(events ? { events } : {}) });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  t.after(() => send("DELETE", `/v1/webhooks/${answer.body.data.id}`));
  return { id: answer.body.data.id as number, secret: answer.body.data.secret as string, path };
}

/** Records events (in one transaction) on the main account. */
async function record(events: { type: EventType; objectId: string | number; data?: unknown }[], at = new Date()) {
  await harness.services.sql.begin(async (tx) => {
    for (const event of events) {
      await recordEvent(tx, {
        accountId: harness.world.accounts.main,
        type: event.type,
        objectType: "scheduled_post",
        objectId: event.objectId,
        data: event.data ?? { id: event.objectId },
        now: at,
      });
    }
  });
}

/** The delivery deps on a clock (the real sender of the harness unless given). */
function deps(clock = manualClock(Date.now()), extra: Partial<DeliveryDeps> = {}): DeliveryDeps & { clock: ReturnType<typeof manualClock> } {
  return { sql: harness.services.sql, clock, webhookSender: harness.services.webhookSender, secretBox: harness.services.secretBox, ...extra } as never;
}

/** Fans out and posts what is due at the deps' time. */
async function run(d: DeliveryDeps) {
  await fanOutEvents(d);
  return deliverDue(d, { holder: `test-${++holders}` });
}

async function deliveries(id: number) {
  const answer = await send("GET", `/v1/webhooks/${id}/deliveries?limit=100`);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data as any[];
}

describe("webhook delivery", () => {
  test("a subscribed event is posted once, signed (Webhook.verify accepts it), with the event as body", async (t) => {
    const hook = await endpoint(t, ["post.sent"]);
    await record([
      { type: "post.sent", objectId: 501, data: { id: 501, status: "sent" } },
      { type: "dataset.ready", objectId: 502 },
    ]);
    const d = deps();
    await run(d);
    await run(d);
    const got = receiver.on(hook.path);
    assert.equal(got.length, 1, "only the subscribed type, once");
    const payload = new Webhook(hook.secret).verify(got[0].body, got[0].headers) as any;
    assert.match(payload.id, /^evt_\d+$/);
    assert.equal(got[0].headers["webhook-id"], payload.id);
    assert.equal(got[0].headers["content-type"], "application/json");
    assert.equal(payload.type, "post.sent");
    assert.equal(payload.account_id, harness.world.accounts.main);
    assert.deepEqual(payload.object, { type: "scheduled_post", id: "501" });
    assert.deepEqual(payload.data, { id: 501, status: "sent" });
    assert.ok(!Number.isNaN(Date.parse(payload.created_at)));
    const [listed] = await deliveries(hook.id);
    assert.equal(listed.status, "succeeded");
    assert.equal(listed.event_id, payload.id);
    assert.equal(listed.response_code, 200);
    assert.equal(listed.attempt, 1);
  });

  test("an event of a rolled-back change is never delivered", async (t) => {
    const hook = await endpoint(t);
    await assert.rejects(
      harness.services.sql.begin(async (tx) => {
        await recordEvent(tx, {
          accountId: harness.world.accounts.main,
          type: "post.failed",
          objectType: "scheduled_post",
          objectId: 9,
          data: {},
          now: new Date(),
        });
        throw new Error("rolled back");
      }),
    );
    await run(deps());
    assert.equal(receiver.on(hook.path).length, 0);
  });

  test("a failing receiver gets retries with backoff (5 s, then about 5 min) and the same webhook-id once it recovers", async (t) => {
    const hook = await endpoint(t);
    receiver.behave(hook.path, (_request, n) => ({ status: n < 2 ? 500 : 200 }));
    await record([{ type: "post.sent", objectId: 601 }]);
    const d = deps();
    await run(d);
    let [row] = await deliveries(hook.id);
    assert.equal(row.status, "pending");
    assert.equal(row.attempt, 1);
    assert.equal(row.response_code, 500);
    const firstWait = Date.parse(row.next_retry_at) - d.clock.now();
    assert.ok(firstWait >= 4_000 && firstWait <= 6_000, `first retry after about 5 s (${firstWait} ms)`);
    await run(d);
    assert.equal(receiver.on(hook.path).length, 1, "not due yet");
    d.clock.advance(6_000);
    await run(d);
    [row] = await deliveries(hook.id);
    assert.equal(row.attempt, 2);
    const secondWait = Date.parse(row.next_retry_at) - d.clock.now();
    assert.ok(secondWait >= 240_000 && secondWait <= 360_000, `second retry after about 5 min (${secondWait} ms)`);
    d.clock.advance(361_000);
    await run(d);
    [row] = await deliveries(hook.id);
    assert.equal(row.status, "succeeded");
    assert.equal(row.attempt, 3);
    assert.equal(row.next_retry_at, null);
    const got = receiver.on(hook.path);
    assert.equal(got.length, 3);
    assert.equal(new Set(got.map((item) => item.headers["webhook-id"])).size, 1, "one webhook-id on every attempt");
  });

  test("events of one object go out in order: a later one waits while an earlier one is retried", async (t) => {
    const hook = await endpoint(t);
    // The first post of 701's first event fails; everything else succeeds.
    let failed = false;
    receiver.behave(hook.path, (request) => {
      const body = JSON.parse(request.body);
      if (failed || body.object.id !== "701" || body.data.step !== 1) return { status: 200 };
      failed = true;
      return { status: 500 };
    });
    await record([
      { type: "post.scheduled", objectId: 701, data: { step: 1 } },
      { type: "post.sent", objectId: 701, data: { step: 2 } },
      { type: "post.sent", objectId: 702, data: { step: 1 } },
    ]);
    const d = deps();
    await run(d);
    const steps = () => receiver.on(hook.path).map((item) => `${JSON.parse(item.body).object.id}:${JSON.parse(item.body).data.step}`);
    assert.deepEqual(steps().sort(), ["701:1", "702:1"], "the second event of 701 waits for the first");
    d.clock.advance(6_000);
    await run(d);
    assert.deepEqual(
      steps().filter((step) => step.startsWith("701")),
      ["701:1", "701:1", "701:2"],
    );
    assert.ok((await deliveries(hook.id)).every((row) => row.status === "succeeded"));
  });

  test("a receiver that times out gets the same webhook-id again", async (t) => {
    const hook = await endpoint(t);
    receiver.behave(hook.path, (_request, n) => ({ status: 200, delayMs: n === 0 ? 1_500 : 0 }));
    await record([{ type: "dm.sent", objectId: 801 }]);
    const d = deps(manualClock(Date.now()), { timeoutMs: 300 });
    await run(d);
    const [row] = await deliveries(hook.id);
    assert.equal(row.status, "pending");
    assert.equal(row.response_code, null);
    assert.match(row.error, /did not answer within 300 ms/);
    d.clock.advance(6_000);
    await run(d);
    const got = receiver.on(hook.path);
    assert.equal(got.length, 2);
    assert.equal(got[1].headers["webhook-id"], got[0].headers["webhook-id"]);
    assert.equal((await deliveries(hook.id))[0].status, "succeeded");
  });

  test("fan-outs at once queue each event once and leave the cursor at the last", async (t) => {
    const hook = await endpoint(t);
    await record(Array.from({ length: 30 }, (_, n) => ({ type: "post.sent" as const, objectId: 1700 + n })));
    const d = deps();
    const queued = await Promise.all([fanOutEvents(d), fanOutEvents(d), fanOutEvents(d)]);
    assert.equal(
      queued.reduce((sum, n) => sum + n, 0),
      30,
    );
    const { sql } = harness.services;
    const [rows] = await sql<{ count: number; distinct: number }[]>`
      select count(*)::int as count, count(distinct event_id)::int as distinct from webhook_deliveries where webhook_id = ${hook.id}`;
    assert.deepEqual(rows, { count: 30, distinct: 30 });
    const [cursor] = await sql<{ at: boolean }[]>`
      select w.cursor_seq = (select max(e.seq) from events e where e.owner_id = w.owner_id) as at from webhooks w where w.id = ${hook.id}`;
    assert.equal(cursor.at, true);
  });

  test("several runs at once post each delivery once", async (t) => {
    const hook = await endpoint(t);
    receiver.behave(hook.path, () => ({ status: 200, delayMs: 30 }));
    await record(Array.from({ length: 40 }, (_, n) => ({ type: "post.sent" as const, objectId: 900 + n })));
    const d = deps();
    await fanOutEvents(d);
    await Promise.all([
      deliverDue(d, { holder: "a", concurrency: 7 }),
      deliverDue(d, { holder: "b", concurrency: 7 }),
      deliverDue(d, { holder: "c", concurrency: 7 }),
    ]);
    const ids = receiver.on(hook.path).map((item) => item.headers["webhook-id"]);
    assert.equal(ids.length, 40);
    assert.equal(new Set(ids).size, 40);
  });

  test("a process whose clock runs an hour ahead does not take a delivery another is posting (leases on the database's clock)", async (t) => {
    const hook = await endpoint(t);
    let arrived: () => void = () => {};
    const first = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    receiver.behave(hook.path, () => {
      arrived();
      return { status: 200, delayMs: 400 };
    });
    await record([{ type: "post.sent", objectId: 1501 }]);
    const d = deps();
    await fanOutEvents(d);
    const posting = deliverDue(d, { holder: "on-time" });
    await first;
    // The delivery is mid-post under "on-time"'s lease; this process's clock reads an hour later.
    const ahead = deps(manualClock(Date.now() + 3_600_000));
    assert.equal(await deliverDue(ahead, { holder: "ahead" }), 0, "the live lease holds whatever the claimer's clock says");
    await posting;
    assert.equal(receiver.on(hook.path).length, 1);
    assert.equal((await deliveries(hook.id))[0].status, "succeeded");
  });

  test("100 failed attempts in a row disable the endpoint and record webhook.disabled, delivered to the user's other endpoints", async (t) => {
    const hook = await endpoint(t);
    const watcher = await endpoint(t, ["webhook.disabled"]);
    receiver.behave(hook.path, () => ({ status: 500 }));
    await record(Array.from({ length: 100 }, (_, n) => ({ type: "post.failed" as const, objectId: 1000 + n })));
    const d = deps();
    await run(d);
    assert.equal(receiver.on(hook.path).length, 100);
    const got = (await send("GET", `/v1/webhooks/${hook.id}`)).body.data;
    assert.equal(got.enabled, false);
    assert.match(got.disabled_reason, /100 delivery attempts in a row failed/);
    d.clock.advance(6_000);
    await run(d);
    assert.equal(receiver.on(hook.path).length, 100, "a disabled endpoint gets nothing");
    const [notice] = receiver.on(watcher.path);
    const payload = new Webhook(watcher.secret).verify(notice.body, notice.headers) as any;
    assert.equal(payload.type, "webhook.disabled");
    assert.deepEqual(payload.object, { type: "webhook", id: String(hook.id) });
    assert.equal(payload.data.enabled, false);
    // Re-enabling starts a new failure run.
    receiver.behave(hook.path, () => ({ status: 200 }));
    const enabled = await send("PATCH", `/v1/webhooks/${hook.id}`, { enabled: true });
    assert.equal(enabled.body.data.enabled, true);
    assert.equal(enabled.body.data.disabled_reason, null);
  });

  test("5 days of failures disable the endpoint even with fewer than 100 attempts", async (t) => {
    const hook = await endpoint(t, ["post.failed"]);
    receiver.behave(hook.path, () => ({ status: 502 }));
    const d = deps();
    await record([{ type: "post.failed", objectId: 1201 }], new Date(d.clock.now()));
    await run(d);
    assert.equal((await send("GET", `/v1/webhooks/${hook.id}`)).body.data.enabled, true, "one failure disables nothing");
    d.clock.advance(5 * 86_400_000 - 60_000);
    await record([{ type: "post.failed", objectId: 1202 }], new Date(d.clock.now()));
    await run(d);
    assert.equal((await send("GET", `/v1/webhooks/${hook.id}`)).body.data.enabled, true, "not yet 5 days");
    d.clock.advance(120_000);
    await record([{ type: "post.failed", objectId: 1203 }], new Date(d.clock.now()));
    await run(d);
    const got = (await send("GET", `/v1/webhooks/${hook.id}`)).body.data;
    assert.equal(got.enabled, false);
    assert.match(got.disabled_reason, /Deliveries have failed since/);
    assert.ok(receiver.on(hook.path).length < 100);
  });

  test("a rotation with deliveries in flight: both secrets verify for 24 hours, then only the new one signs", async (t) => {
    const hook = await endpoint(t);
    receiver.behave(hook.path, (_request, n) => ({ status: n === 0 ? 500 : 200 }));
    await record([{ type: "post.sent", objectId: 1301 }]);
    const d = deps();
    await run(d);
    const rotated = await send("POST", `/v1/webhooks/${hook.id}/rotate-secret`);
    const secret = rotated.body.data.secret as string;
    d.clock.advance(6_000);
    await run(d);
    const [before, retried] = receiver.on(hook.path);
    assert.equal(before.headers["webhook-signature"].split(" ").length, 1);
    assert.equal(retried.headers["webhook-signature"].split(" ").length, 2);
    for (const key of [hook.secret, secret]) new Webhook(key).verify(retried.body, retried.headers);
    // 25 hours on (the receiver's tolerance check would refuse the moved clock's timestamp, so the
    // signature is compared with the one the new secret makes for the same id, time and body).
    d.clock.advance(25 * 3_600_000);
    await record([{ type: "post.sent", objectId: 1302 }], new Date(d.clock.now()));
    await run(d);
    const last = receiver.on(hook.path)[2];
    const signature = last.headers["webhook-signature"];
    assert.equal(signature.split(" ").length, 1);
    const at = new Date(Number(last.headers["webhook-timestamp"]) * 1000);
    assert.equal(signature, new Webhook(secret).sign(last.headers["webhook-id"], at, last.body));
    assert.notEqual(signature, new Webhook(hook.secret).sign(last.headers["webhook-id"], at, last.body));
  });

  test("the outbound guard runs again at delivery time: a loopback endpoint the operator no longer allows is refused", async (t) => {
    const hook = await endpoint(t);
    await record([{ type: "post.sent", objectId: 1401 }]);
    await run(deps(manualClock(Date.now()), { webhookSender: createGuardedWebhookSender() }));
    const [row] = await deliveries(hook.id);
    assert.equal(row.status, "pending");
    assert.match(row.error, /http/);
    assert.equal(receiver.on(hook.path).length, 0);
  });

  test("the deliver_webhooks job fans out and posts", async (t) => {
    const hook = await endpoint(t);
    await record([{ type: "lead.found", objectId: 1501 }]);
    const { sql, clock, network, webhookSender, secretBox } = harness.services;
    await jobHandlers({ sql, clock, network, webhookSender, secretBox }).deliver_webhooks({}, { id: 1, locked_by: "test-worker" } as JobRow);
    const [got] = receiver.on(hook.path);
    assert.equal((new Webhook(hook.secret).verify(got.body, got.headers) as any).type, "lead.found");
  });
});

describe("webhook delivery in a serving instance", () => {
  test("the job runner (its own lane, every 5 s) posts a recorded event to an endpoint registered over REST", async () => {
    // A second instance with jobs running: worker threads on PostgreSQL (the outbound settings
    // travel to them as data), this thread on embedded PGlite.
    const serving = await startHarness({ config: { outboundAllowHosts: "127.0.0.1", runJobs: true } });
    try {
      const [transport] = transports(serving);
      const created = await transport.request("POST", "/v1/webhooks", {
        key: serving.world.keys.write,
        body: { url: `${receiver.base}/serving`, events: ["post.sent"] },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      await serving.services.sql.begin((tx) =>
        recordEvent(tx, {
          accountId: serving.world.accounts.main,
          type: "post.sent",
          objectType: "scheduled_post",
          objectId: 77,
          data: { id: 77 },
          now: new Date(),
        }),
      );
      const [got] = await receiver.waitFor("/serving", 1, 30_000);
      const payload = new Webhook(created.body.data.secret).verify(got.body, got.headers) as any;
      assert.equal(payload.type, "post.sent");
      assert.deepEqual(payload.object, { type: "scheduled_post", id: "77" });
    } finally {
      await serving.close();
    }
  });
});
