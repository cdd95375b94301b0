/**
 * An endpoint's deliveries over the API (docs/webhooks.md): the list (newest first, with
 * status, response code, latency, attempt and next retry), a manual retry, and the test
 * ping. A retry or a ping is attempted at once, in the request, under the same lease as the
 * delivery job (a delivery the job is posting right now is not posted twice), and counts
 * like any attempt (a success ends the endpoint's failure run).
 */
import { type RollingWindowLimit, takeRollingWindow } from "../limits/rolling_window_limit.ts";
import type { KeyContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { newLease } from "../leases/lease.ts";
import { pageInfo } from "../schema.ts";
import { claimDelivery, countDeliveries, deliveriesOf, deliveryOf, insertDelivery } from "./deliveries_queries.ts";
import { attemptDelivery } from "./deliver_attempt.ts";
import { DELIVERY_LEASE_SECONDS } from "./deliver_due.ts";
import { ownWebhook } from "./manage_webhooks.ts";
import { deliveryView, type ListDeliveriesInput, type RetryDeliveryInput, type WebhookByIdInput } from "./webhook_schema.ts";

/** The endpoint's deliveries, newest first. */
export async function listDeliveries(ctx: KeyContext, input: ListDeliveriesInput) {
  const webhook = await ownWebhook(ctx, input.id);
  const { sql } = ctx.services;
  const [rows, total] = await Promise.all([deliveriesOf(sql, webhook.id, input.limit, (input.page - 1) * input.limit), countDeliveries(sql, webhook.id)]);
  return { data: rows.map(deliveryView), pagination: pageInfo(input.page, input.limit, total, rows.length) };
}

/** Posts one delivery now (a fresh lease), or answers it as it is when another process is posting it. */
async function attemptNow(ctx: KeyContext, webhookId: number, deliveryId: number) {
  const { sql, clock, webhookSender, secretBox } = ctx.services;
  const lease = newLease(DELIVERY_LEASE_SECONDS, "api:");
  const claimed = await claimDelivery(sql, webhookId, deliveryId, lease);
  const attempted = claimed ? await attemptDelivery({ sql, clock, webhookSender, secretBox }, claimed, lease.holder) : undefined;
  return attempted ?? (await deliveryOf(sql, webhookId, deliveryId));
}

/**
 * Sends a delivery again now, whatever its status, with the same `webhook-id` (receivers
 * dedupe on it). It is the delivery's next attempt: if it fails, automatic retries continue
 * from there. A manual retry does not wait for earlier events of the same object.
 */
export async function retryDelivery(ctx: KeyContext, input: RetryDeliveryInput) {
  const webhook = await ownWebhook(ctx, input.id);
  if (!(await deliveryOf(ctx.services.sql, webhook.id, input.delivery_id))) {
    throw new ApiError("delivery_not_found", `Cannot find delivery "${input.delivery_id}" of webhook "${input.id}"`);
  }
  const row = await attemptNow(ctx, webhook.id, input.delivery_id);
  if (!row) throw new ApiError("delivery_not_found", `Cannot find delivery "${input.delivery_id}" of webhook "${input.id}"`);
  return { data: deliveryView(row) };
}

/**
 * Test pings per owner: 30 in any 10 minutes. A ping is a POST to whatever URL the endpoint
 * names, sent at once; unbounded, a key could aim about a thousand a minute at any public
 * address (Threadline's choice: the spec has no webhooks).
 */
export const WEBHOOK_TEST_PINGS: RollingWindowLimit = { name: "webhook_test_pings", limit: 30, windowSeconds: 600, what: "webhook test pings" };

/** Queues a `ping` event to the endpoint and posts it now (enabled or not); answers the delivery. */
export async function pingWebhook(ctx: KeyContext, input: WebhookByIdInput) {
  const webhook = await ownWebhook(ctx, input.id);
  await takeRollingWindow(ctx, WEBHOOK_TEST_PINGS);
  const { sql, clock } = ctx.services;
  const at = new Date(clock.now());
  const id = `evt_ping_${crypto.randomUUID().replaceAll("-", "")}`;
  const body = {
    id,
    type: "ping",
    created_at: at.toISOString(),
    account_id: ctx.principal.mainAccountId,
    object: { type: "webhook", id: String(webhook.id) },
    data: { webhook_id: webhook.id, url: webhook.url },
  };
  const queued = await insertDelivery(
    sql,
    { webhookId: webhook.id, eventId: id, eventSeq: null, eventType: "ping", objectKey: `ping:${id}`, body: JSON.stringify(body), eventCreatedAt: at },
    at,
  );
  const row = (await attemptNow(ctx, webhook.id, queued.id)) ?? queued;
  return { data: deliveryView(row) };
}
