/**
 * Webhooks (docs/webhooks.md): the key's user's endpoints, their deliveries, a test
 * ping, a manual retry and secret rotation (`/v1/webhooks...`). Beyond the spec, which has
 * no push ("results are obtained by polling"); deliveries follow the Standard Webhooks
 * specification (core/webhooks/webhook_secret.ts).
 */
import { z } from "zod";
import { keyProcedure, router } from "../core/trpc.ts";
import { dataOf, listOf } from "../core/schema.ts";
import {
  createWebhookInput,
  listDeliveriesInput,
  listWebhooksInput,
  MAX_WEBHOOKS,
  retryDeliveryInput,
  updateWebhookInput,
  webhookByIdInput,
  webhookDelivery,
  webhookEndpoint,
  webhookWithSecret,
} from "../core/webhooks/webhook_schema.ts";
import { changeWebhook, createWebhook, getWebhook, listWebhooks, removeWebhook, rotateSecret } from "../core/webhooks/manage_webhooks.ts";
import { listDeliveries, pingWebhook, retryDelivery } from "../core/webhooks/webhook_deliveries.ts";

const tags = ["Webhooks"];
const BEYOND = "The spec offers no push (results are polled); Threadline adds signed webhooks";
const OWNED = "Endpoints belong to the key's user (every account of the user delivers to them); another user's endpoint is `404 webhook_not_found`.";
const GUARD =
  "The URL must be https (http only for hosts the operator lists in `OUTBOUND_ALLOW_HOSTS`), without credentials, and neither " +
  "it nor any address its host resolves to may be private, loopback, link-local, reserved or multicast unless the operator " +
  "allows the host (`400 url_not_allowed`); the check runs again on every delivery.";
const VERIFY =
  "Each delivery is a `POST` of the event as JSON (`{ id, type, created_at, account_id, object: { type, id }, data }`) with the " +
  "Standard Webhooks headers `webhook-id` (the event id, the same on every retry: dedupe on it), `webhook-timestamp` (Unix " +
  'seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` keyed with the ' +
  "base64-decoded part of the secret after `whsec_`; during 24 hours after a rotation two signatures, space separated, one per " +
  "secret). Verify with any Standard Webhooks library (`new Webhook(secret).verify(body, headers)`), reject timestamps older " +
  "than 5 minutes.";
const DELIVERY =
  "A 2xx within 10 s is a success; redirects are not followed. Otherwise the delivery is retried with backoff and jitter (5 s, " +
  "5 min, 30 min, 2 h, 5 h, then every 10 h, about 3 days, 12 attempts) and then marked failed. Events of one object go out in " +
  "order to each endpoint. 100 failed attempts in a row, or 5 days of failures with no success, disable the endpoint " +
  "(`enabled: false`, `disabled_reason`) and record a `webhook.disabled` event.";
const deleted = dataOf(z.object({ id: z.number().int(), deleted: z.literal(true) }));

export const webhooksRouter = router({
  list: keyProcedure
    .meta({
      openapi: { method: "GET", path: "/v1/webhooks", tags, summary: "List webhook endpoints", description: `Oldest first. ${OWNED}` },
      beyondSpec: BEYOND,
    })
    .input(listWebhooksInput)
    .output(listOf(webhookEndpoint))
    .query(({ ctx, input }) => listWebhooks(ctx, input)),

  create: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/webhooks",
        tags,
        summary: "Register a webhook endpoint",
        description:
          `\`events\`: the event types to receive, omitted or \`["*"]\` for all (present and future). ${GUARD} At most ${MAX_WEBHOOKS} ` +
          `endpoints per user (\`403 cap_reached\`). The answer holds the \`secret\` (\`whsec_...\`), shown only here and by ` +
          `rotate-secret. Events that happen from now on are delivered. ${VERIFY} ${DELIVERY}`,
      },
      successStatus: 201,
      beyondSpec: BEYOND,
      errors: ["url_not_allowed", "cap_reached"],
    })
    .input(createWebhookInput)
    .output(dataOf(webhookWithSecret))
    .mutation(({ ctx, input }) => createWebhook(ctx, input)),

  get: keyProcedure
    .meta({
      openapi: { method: "GET", path: "/v1/webhooks/{id}", tags, summary: "Get a webhook endpoint", description: `Without its secret. ${OWNED}` },
      beyondSpec: BEYOND,
      errors: ["webhook_not_found"],
    })
    .input(webhookByIdInput)
    .output(dataOf(webhookEndpoint))
    .query(({ ctx, input }) => getWebhook(ctx, input)),

  update: keyProcedure
    .meta({
      openapi: {
        method: "PATCH",
        path: "/v1/webhooks/{id}",
        tags,
        summary: "Change, disable or re-enable a webhook endpoint",
        description:
          `Any of \`url\`, \`events\`, \`description\`, \`enabled\`; an empty body is \`400 invalid_parameter\`. ${GUARD} ` +
          "Re-enabling an endpoint (also one Threadline disabled) starts a new failure run and delivers events from then on; " +
          `events of the time it was off stay readable at \`GET /v1/events\`. ${OWNED}`,
      },
      beyondSpec: BEYOND,
      errors: ["webhook_not_found", "url_not_allowed"],
    })
    .input(updateWebhookInput)
    .output(dataOf(webhookEndpoint))
    .mutation(({ ctx, input }) => changeWebhook(ctx, input)),

  delete: keyProcedure
    .meta({
      openapi: {
        method: "DELETE",
        path: "/v1/webhooks/{id}",
        tags,
        summary: "Delete a webhook endpoint",
        description: `Its deliveries go with it; nothing more is posted. A second delete is \`404 webhook_not_found\`. ${OWNED}`,
      },
      beyondSpec: BEYOND,
      errors: ["webhook_not_found"],
    })
    .input(webhookByIdInput)
    .output(deleted)
    .mutation(({ ctx, input }) => removeWebhook(ctx, input)),

  test: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/webhooks/{id}/test",
        tags,
        summary: "Send a test ping to a webhook endpoint",
        description:
          'Posts a `ping` event (`object: { type: "webhook", id }`) now, signed like every delivery, enabled or not, and answers the ' +
          `delivery with its outcome (\`status\`, \`response_code\`, \`latency_ms\`). A failed ping is retried like any delivery. ` +
          "At most 30 test pings per owner in any 10 minutes: the 31st is `429 rate_limited` (`bucket: webhook_test_pings`, `Retry-After`). " +
          OWNED,
      },
      beyondSpec: BEYOND,
      errors: ["webhook_not_found"],
    })
    .input(webhookByIdInput)
    .output(dataOf(webhookDelivery))
    .mutation(({ ctx, input }) => pingWebhook(ctx, input)),

  rotateSecret: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/webhooks/{id}/rotate-secret",
        tags,
        summary: "Rotate a webhook endpoint's secret",
        description:
          "Answers the endpoint with its new `secret`, shown once. For 24 hours (`previous_secret_expires_at`) deliveries carry two " +
          "signatures in `webhook-signature`, one per secret, so a receiver verifies with either while it switches over; a " +
          `second rotation within them drops the oldest. ${OWNED}`,
      },
      beyondSpec: BEYOND,
      errors: ["webhook_not_found"],
    })
    .input(webhookByIdInput)
    .output(dataOf(webhookWithSecret))
    .mutation(({ ctx, input }) => rotateSecret(ctx, input)),

  deliveries: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/webhooks/{id}/deliveries",
        tags,
        summary: "List a webhook endpoint's deliveries",
        description:
          "Newest first: each event delivered (or to deliver) to the endpoint with its `status` (pending, succeeded, failed), the " +
          `last attempt's \`response_code\`, \`latency_ms\` and \`error\`, the \`attempt\` count and \`next_retry_at\`. ${DELIVERY} ${OWNED}`,
      },
      beyondSpec: BEYOND,
      errors: ["webhook_not_found"],
    })
    .input(listDeliveriesInput)
    .output(listOf(webhookDelivery))
    .query(({ ctx, input }) => listDeliveries(ctx, input)),

  retryDelivery: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/webhooks/{id}/deliveries/{delivery_id}/retry",
        tags,
        summary: "Send a delivery again now",
        description:
          "Posts the delivery now, whatever its status (a replay of a succeeded one too), with the same `webhook-id` and body, " +
          "signed afresh; answers it after the attempt. It counts as the delivery's next attempt (a failure continues the " +
          "automatic retries), and it does not wait for earlier events of the same object. A delivery another process is " +
          `posting at that moment is answered as it is. ${OWNED}`,
      },
      beyondSpec: BEYOND,
      errors: ["webhook_not_found", "delivery_not_found"],
    })
    .input(retryDeliveryInput)
    .output(dataOf(webhookDelivery))
    .mutation(({ ctx, input }) => retryDelivery(ctx, input)),
});
