/**
 * End to end through real `threadline serve` processes and their job runners (docs/webhooks.md:
 * a webhook registered over REST receives signed post.sent and dataset.ready
 * deliveries from a real serve process, a failing receiver gets them once it recovers, and
 * GET /v1/events streams and resumes). The receiver on loopback is allowed by the
 * operator's `OUTBOUND_ALLOW_HOSTS`; it answers 503 to each event's first attempt and 204 to
 * the retry, and every delivery is verified with the `standardwebhooks` package. On PostgreSQL two server
 * processes share the queue: the post and the dataset are made on one, the stream is read
 * from the other.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { pollUntil } from "./support/child_node.ts";
import { openSse } from "./support/sse_reader.ts";
import { postgresMode, startServedWorld, type ServedWorld } from "./support/served_world.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./support/webhook_receiver.ts";

describe(`webhooks and the event stream through the real server and jobs (${postgresMode ? "two processes on PostgreSQL + Redis" : "embedded"})`, () => {
  let served: ServedWorld;
  let receiver: WebhookReceiver;
  let world: any;
  let first: string;
  let last: string;
  /** The events the webhook test made, for the stream test to find again. */
  const made: { postId?: number; datasetId?: string; since?: string } = {};

  before(async () => {
    receiver = await startWebhookReceiver();
    served = await startServedWorld("hooks-e2e", { env: { OUTBOUND_ALLOW_HOSTS: "127.0.0.1" } });
    world = served.world;
    first = served.servers[0].url;
    last = served.servers[served.servers.length - 1].url;
  });

  after(async () => {
    await served?.close();
    await receiver?.close();
  });

  const api = async (base: string, method: string, path: string, body?: unknown, extra: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { Authorization: `Bearer ${world.keys.write}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...extra },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  /** Publishes a post now over REST and waits until it is sent; its id. */
  const sendPost = async (text: string): Promise<number> => {
    const created = await api(first, "POST", "/v1/scheduled-posts", { text, scheduled_for: "now" }, { "Idempotency-Key": randomBytes(8).toString("hex") });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.data.id as number;
    await pollUntil(
      "the post to be sent",
      async () => ((await api(last, "GET", `/v1/scheduled-posts/${id}`)).body.data?.status === "sent" ? true : undefined),
      {
        timeoutMs: 60_000,
        intervalMs: 250,
      },
    );
    return id;
  };

  test("a failing receiver gets signed post.sent and dataset.ready once it recovers", { timeout: 180_000 }, async () => {
    made.since = new Date(Date.now() - 1000).toISOString();
    // The receiver is down for each event's first attempt and up from its second (the retry
    // about 5 s later). Refusing per event, not for a stretch of time, keeps the test off the
    // second backoff step (5 min): a slow collection cannot make the post's retry fail again.
    const refusedIds = new Set<string>();
    receiver.behave("/hooks", (delivery) => {
      const id = delivery.headers["webhook-id"];
      if (refusedIds.has(id)) return { status: 204 };
      refusedIds.add(id);
      return { status: 503 };
    });
    const registered = await api(first, "POST", "/v1/webhooks", {
      url: `${receiver.base}/hooks`,
      events: ["post.sent", "dataset.ready"],
      description: "end to end",
    });
    assert.equal(registered.status, 201, JSON.stringify(registered.body));
    const { id: hookId, secret } = registered.body.data;
    assert.match(secret, /^whsec_/);

    made.postId = await sendPost(`Webhook end to end ${randomBytes(4).toString("hex")}`);
    const dataset = await api(first, "POST", "/v1/datasets", { source: "repliers", target: world.x.large_post_id, max_rows: 150 });
    assert.equal(dataset.status, 202, JSON.stringify(dataset.body));
    made.datasetId = dataset.body.data.id;

    // Each event's refused attempt is listed as pending, answered 503, with its retry planned.
    const pendingSeen = new Map<string, any>();
    await pollUntil(
      "both events to be listed pending after a refused attempt",
      async () => {
        const deliveries = (await api(last, "GET", `/v1/webhooks/${hookId}/deliveries?limit=100`)).body.data as any[];
        for (const delivery of deliveries) {
          if (delivery.response_code === 503 && !pendingSeen.has(delivery.event_type)) pendingSeen.set(delivery.event_type, delivery);
        }
        return pendingSeen.size === 2 ? true : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 100 },
    );
    for (const delivery of pendingSeen.values()) {
      assert.equal(delivery.status, "pending", JSON.stringify(delivery));
      assert.equal(delivery.attempt, 1, JSON.stringify(delivery));
      assert.ok(delivery.next_retry_at, "a retry is planned");
    }

    const payloads = await pollUntil(
      "both events to be delivered after the refused attempt",
      () => {
        const accepted = receiver
          .on("/hooks")
          .filter((delivery, index, all) => all.findIndex((other) => other.headers["webhook-id"] === delivery.headers["webhook-id"]) < index);
        const events = accepted.map((delivery) => ({ delivery, event: new Webhook(secret).verify(delivery.body, delivery.headers) as any }));
        return new Set(events.map(({ event }) => event.type)).size === 2 ? events : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 100 },
    );
    const sent = payloads.find(({ event }) => event.type === "post.sent")!;
    assert.deepEqual(sent.event.object, { type: "scheduled_post", id: made.postId });
    assert.equal(sent.event.data.id, made.postId);
    assert.equal(sent.event.data.status, "sent");
    assert.ok(sent.event.data.x_post_ids.length === 1);
    const ready = payloads.find(({ event }) => event.type === "dataset.ready")!;
    assert.equal(ready.event.data.id, made.datasetId);
    assert.equal(ready.event.data.status, "ready");
    assert.equal(ready.event.data.rows_collected, 150);
    for (const { delivery, event } of payloads) {
      assert.equal(delivery.headers["webhook-id"], event.id, "the webhook-id is the event id");
      // The accepted delivery repeats the refused attempt's webhook-id (receivers dedupe on it).
      assert.ok(refusedIds.has(event.id));
      const earlier = receiver.on("/hooks").find((other) => other.headers["webhook-id"] === event.id);
      assert.ok(earlier && earlier !== delivery, "the same webhook-id was refused before");
    }

    const deliveries = await pollUntil(
      "the deliveries to read succeeded",
      async () => {
        const listed = (await api(first, "GET", `/v1/webhooks/${hookId}/deliveries?limit=100`)).body.data as any[];
        return listed.every((delivery) => delivery.status === "succeeded") ? listed : undefined;
      },
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    for (const delivery of deliveries) {
      assert.equal(delivery.response_code, 204);
      assert.ok(delivery.attempt >= 2, `attempt ${delivery.attempt}: the first was refused`);
      assert.equal(typeof delivery.latency_ms, "number");
    }
  });

  test("GET /v1/events streams the account's events and resumes after Last-Event-ID", { timeout: 120_000 }, async () => {
    assert.ok(made.postId && made.datasetId, "the webhook test made the events");
    const headers = { Authorization: `Bearer ${world.keys.read}` };
    const stream = await openSse(`${last}/v1/events?types=post.sent,dataset.ready&since=${made.since}`, headers);
    assert.equal(stream.status, 200);
    assert.match(stream.headers.get("content-type") ?? "", /^text\/event-stream/);
    // Without a resume point a stream starts now; with `since`, at that time: the two events the first test made are there.
    const seen: { id?: string; event?: string; data: any }[] = [];
    while (!(seen.some((e) => e.data.object.id === made.postId) && seen.some((e) => e.data.object.id === made.datasetId))) {
      seen.push(await stream.nextEvent(15_000));
    }
    stream.close();
    for (const event of seen) {
      assert.equal(event.id, event.data.id, "the SSE id is the event id");
      assert.equal(event.event, event.data.type);
    }
    const resumeAfter = seen[seen.length - 1].id!;

    // Disconnected: another post is sent meanwhile; the reconnect gets it and nothing it saw.
    const missed = await sendPost(`Sent while the stream was away ${randomBytes(4).toString("hex")}`);
    const resumed = await openSse(`${first}/v1/events?types=post.sent,dataset.ready`, { ...headers, "Last-Event-ID": resumeAfter });
    assert.equal(resumed.status, 200);
    const next = await resumed.nextEvent(15_000);
    resumed.close();
    assert.equal(next.event, "post.sent");
    assert.equal(next.data.object.id, missed);
    assert.ok(!seen.some((event) => event.id === next.id), "no event twice");

    // No gap: the JSON form lists exactly the events after the resume point.
    const listed = await api(first, "GET", `/v1/events?types=post.sent,dataset.ready&cursor=${resumeAfter}`);
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.deepEqual(
      listed.body.data.map((event: any) => event.id),
      [next.id],
    );
  });
});
