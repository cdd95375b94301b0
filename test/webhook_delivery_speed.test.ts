/**
 * The delivery run's fast path (docs/webhooks.md, "Throughput"): outcomes recorded in groups
 * (each endpoint's average moved as if one attempt at a time; a success whose lease another
 * holder took is not recorded), the claim finding due deliveries among many idle endpoints
 * and skipping endpoints that only hold future retries or are disabled, a hundred posts from
 * concurrent runs each delivered once, and the sender keeping its connections alive.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { manualClock } from "./support/manual_clock.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./support/webhook_receiver.ts";
import { recordEvent } from "../core/events/record_event.ts";
import { fanOutEvents } from "../core/webhooks/deliver_fan_out.ts";
import { deliverDue } from "../core/webhooks/deliver_due.ts";
import { claimDueDeliveries } from "../core/webhooks/deliveries_queries.ts";
import { DEFAULT_DELIVERY_LIMITS, LATENCY_AVERAGE_WEIGHT } from "../core/webhooks/delivery_limits.ts";
import { webhookById } from "../core/webhooks/webhooks_queries.ts";
import { averageStep, recordOutcomes } from "../core/webhooks/record_outcomes.ts";
import { type DeliveryDeps, sendDelivery, signingSecrets } from "../core/webhooks/deliver_attempt.ts";
import { createGuardedWebhookSender } from "../adapters/outbound/guarded_post.ts";

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
let objects = 0;

/** An endpoint of Ada on its own receiver path, deleted after the test. */
async function endpoint(t: { after(fn: () => Promise<unknown>): void }) {
  const path = `/speed/${++paths}`;
  const [transport] = transports(harness);
  const key = harness.world.keys.write;
  const answer = await transport.request("POST", "/v1/webhooks", { key, body: { url: `${receiver.base}${path}` } });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  t.after(() => transport.request("DELETE", `/v1/webhooks/${answer.body.data.id}`, { key }));
  return { id: answer.body.data.id as number, path };
}

/** Records `count` events of distinct objects on Ada's main account (one transaction). */
async function record(count: number, at: Date) {
  await harness.services.sql.begin(async (tx) => {
    for (let n = 0; n < count; n++) {
      const objectId = `speed-${++objects}`;
      await recordEvent(tx, {
        accountId: harness.world.accounts.main,
        type: "post.sent",
        objectType: "scheduled_post",
        objectId,
        data: { id: objectId },
        now: at,
      });
    }
  });
}

function deps(clock = manualClock(Date.now())): DeliveryDeps & { clock: ReturnType<typeof manualClock> } {
  const { sql, webhookSender, secretBox } = harness.services;
  return { sql, clock, webhookSender, secretBox, timeoutMs: 5_000 } as never;
}

describe("webhook delivery fast path", () => {
  test("averageStep moves an average exactly as one attempt at a time would", () => {
    const latencies = [120, 5, 9000, 40];
    let stepwise = 300;
    for (const latency of latencies) stepwise = stepwise * (1 - LATENCY_AVERAGE_WEIGHT) + latency * LATENCY_AVERAGE_WEIGHT;
    const { keep, add } = averageStep(latencies);
    assert.ok(Math.abs(300 * keep + add - stepwise) < 1e-9, `${300 * keep + add} vs ${stepwise}`);
    assert.deepEqual(averageStep([]), { keep: 1, add: 0 });
  });

  test("a group of outcomes is recorded once per delivery still held; a lease another holder took is left alone", async (t) => {
    const hook = await endpoint(t);
    const d = deps();
    await record(3, new Date(d.clock.now()));
    await fanOutEvents(d);
    const { sql } = harness.services;
    const claimed = await claimDueDeliveries(sql, { holder: "group-a", leaseSeconds: 60 }, new Date(d.clock.now()), 3, DEFAULT_DELIVERY_LIMITS);
    assert.equal(claimed.length, 3);
    // The third's lease is taken over (as if it ran out and another process claimed it).
    await sql`update webhook_deliveries set locked_by = 'group-b' where id = ${claimed[2].id}`;
    const webhook = await webhookById(sql, hook.id);
    assert.ok(webhook);
    const secrets = signingSecrets(webhook, new Date(d.clock.now()), d.secretBox);
    const outcomes = await Promise.all(claimed.map((delivery) => sendDelivery(d, delivery, webhook, secrets)));
    for (const [n, outcome] of outcomes.entries()) outcome.latencyMs = [100, 200, 5000][n];
    await recordOutcomes(sql, outcomes, "group-a");
    const rows = await sql<{ id: number; status: string; attempt: number; locked_by: string | null }[]>`
      select id::int as id, status, attempt, locked_by from webhook_deliveries where webhook_id = ${hook.id} order by id`;
    assert.deepEqual(
      rows.map((row) => [row.status, row.attempt, row.locked_by]),
      [
        ["succeeded", 1, null],
        ["succeeded", 1, null],
        ["pending", 0, "group-b"],
      ],
    );
    // Only the two recorded attempts moved the average (100 ms, then 200 ms from 0).
    const { keep, add } = averageStep([100, 200]);
    assert.equal((await webhookById(sql, hook.id))?.latency_avg_ms, Math.round(0 * keep + add));
  });

  test("the claim finds a due delivery among many enabled endpoints, and skips future retries and disabled endpoints", async (t) => {
    const { sql } = harness.services;
    const d = deps();
    const idle = [];
    for (let n = 0; n < 6; n++) idle.push(await endpoint(t));
    const future = idle[0];
    const disabled = idle[1];
    const due = idle[5];
    await record(1, new Date(d.clock.now()));
    await fanOutEvents(d);
    // Every endpoint got the one event: push all but `due`'s into the future or disable the endpoint.
    await sql`update webhook_deliveries set status = 'succeeded' where webhook_id = any(${sql.array(idle.slice(2, 5).map((hook) => hook.id))}::bigint[]) and status = 'pending'`;
    await sql`update webhook_deliveries set next_attempt_at = ${new Date(d.clock.now() + 3_600_000)} where webhook_id = ${future.id}`;
    await sql`update webhooks set enabled = false where id = ${disabled.id}`;
    const claimed = await claimDueDeliveries(sql, { holder: "skip", leaseSeconds: 60 }, new Date(d.clock.now()), 10, DEFAULT_DELIVERY_LIMITS);
    assert.deepEqual(
      claimed.map((row) => row.webhook_id),
      [due.id],
    );
  });

  test("100 deliveries through three concurrent runs: each posted once, all recorded succeeded", async (t) => {
    const hook = await endpoint(t);
    const d = deps();
    await record(100, new Date(d.clock.now()));
    await fanOutEvents(d);
    const limits = { perEndpoint: 20, perOwner: 40 };
    const runs = await Promise.all(["r1", "r2", "r3"].map((holder) => deliverDue(d, { holder, concurrency: 10, limits })));
    assert.equal(
      runs.reduce((a, b) => a + b, 0),
      100,
    );
    const ids = receiver.on(hook.path).map((item) => item.headers["webhook-id"]);
    assert.equal(ids.length, 100);
    assert.equal(new Set(ids).size, 100);
    const [row] = await harness.services.sql<{ succeeded: number; held: number }[]>`
      select count(*) filter (where status = 'succeeded')::int as succeeded, count(locked_by)::int as held
        from webhook_deliveries where webhook_id = ${hook.id}`;
    assert.deepEqual(row, { succeeded: 100, held: 0 });
  });
});

describe("the webhook sender", () => {
  test("posts to one origin reuse kept-alive connections", async () => {
    const sockets = new Set<unknown>();
    let requests = 0;
    const server = createServer((request, response) => {
      sockets.add(request.socket);
      requests++;
      request.resume();
      request.on("end", () => response.writeHead(204).end());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    try {
      const sender = createGuardedWebhookSender({ allowHosts: "127.0.0.1" });
      for (let n = 0; n < 20; n++) {
        const { status } = await sender.post(url, { headers: { "webhook-id": `msg_${n}` }, body: "{}", timeoutMs: 5_000 });
        assert.equal(status, 204);
      }
      await Promise.all(Array.from({ length: 5 }, (_, n) => sender.post(url, { headers: { "webhook-id": `p_${n}` }, body: "{}", timeoutMs: 5_000 })));
      assert.equal(requests, 25);
      assert.ok(sockets.size <= 5, `${sockets.size} connections for 25 posts`);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
