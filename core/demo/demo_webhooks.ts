/**
 * The demo world's webhook fixture (`webhooks`; docs/webhooks.md): A's endpoint "Demo receiver" on a
 * reserved example host, disabled so a serving demo never posts anywhere, with one queued
 * `ping` delivery. Re-runs find it by its description and leave it as it is.
 */
import type { Services } from "../context.ts";
import { currentEventSeq, insertWebhook } from "../webhooks/webhooks_queries.ts";
import { insertDelivery } from "../webhooks/deliveries_queries.ts";
import { newWebhookSecret } from "../webhooks/webhook_secret.ts";
import { demoWebhookNamed } from "./demo_webhooks_queries.ts";

const DESCRIPTION = "Demo receiver";

/** Ensures A's demo endpoint and its delivery; answers their ids. */
export async function ensureDemoWebhooks(services: Services, ownerId: number, accountId: string): Promise<{ endpoint: number; delivery: number }> {
  const { sql, clock } = services;
  const existing = await demoWebhookNamed(sql, ownerId, DESCRIPTION);
  if (existing) return existing;
  const now = new Date(clock.now());
  return sql.begin(async (tx) => {
    const webhook = await insertWebhook(tx, {
      ownerId,
      url: "https://hooks.threadline.example/demo",
      events: ["post.sent", "post.failed", "dataset.ready", "lead.found"],
      description: DESCRIPTION,
      enabled: false,
      secret: services.secretBox.seal(newWebhookSecret()),
      cursorSeq: await currentEventSeq(tx),
      now,
    });
    const id = `evt_ping_demo${webhook.id}`;
    const body = {
      id,
      type: "ping",
      created_at: now.toISOString(),
      account_id: accountId,
      object: { type: "webhook", id: String(webhook.id) },
      data: { webhook_id: webhook.id },
    };
    const delivery = await insertDelivery(
      tx,
      { webhookId: webhook.id, eventId: id, eventSeq: null, eventType: "ping", objectKey: `ping:${id}`, body: JSON.stringify(body), eventCreatedAt: now },
      now,
    );
    return { endpoint: webhook.id, delivery: delivery.id };
  });
}
