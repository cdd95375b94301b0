/**
 * One attempt of one delivery (docs/webhooks.md): signed with the endpoint's secrets
 * (the previous one too for 24 hours after a rotation), posted through the outbound guard
 * with a 10 s bound, and its outcome recorded under the caller's lease: a success, the next
 * retry with backoff, or giving up. Either way its duration joins the endpoint's average
 * (core/webhooks/delivery_limits.ts: a slow endpoint gets fewer deliveries in flight). A failure extends the endpoint's failure run; a run of
 * 100 or of 5 days disables the endpoint and records a `webhook.disabled` event in the
 * same transaction.
 */
import type { Clock } from "../clock.ts";
import type { Sql } from "../db/sql.ts";
import { recordEvent } from "../events/record_event.ts";
import { disableWebhook, mainAccountOf, recordWebhookFailure, recordWebhookSuccess, webhookById } from "./webhooks_queries.ts";
import { recordDeliveryAttempt } from "./deliveries_queries.ts";
import { type DeliveryRow, endpointView, type WebhookRow } from "./webhook_schema.ts";
import { signedHeaders } from "./webhook_secret.ts";
import type { WebhookSender } from "../ports/webhook_sender.ts";
import type { SecretBox } from "../ports/secret_box.ts";
import { DELIVERY_TIMEOUT_MS, DISABLE_AFTER_FAILURES, disablesEndpoint, nextAttemptAt } from "./delivery_schedule.ts";

/** What delivering needs. */
export interface DeliveryDeps {
  sql: Sql;
  clock: Clock;
  webhookSender: WebhookSender;
  /** Opens the endpoint's sealed secrets. */
  secretBox: SecretBox;
  /** Bound on one attempt; default 10 s (tests shorten it). */
  timeoutMs?: number;
}

/** The secrets that sign at `now`, opened: the current one, and the previous one during its 24 hours. */
export function signingSecrets(webhook: WebhookRow, now: Date, box: SecretBox): string[] {
  const previousLive = webhook.previous_secret && webhook.previous_secret_until && new Date(webhook.previous_secret_until) > now;
  const stored = previousLive ? [webhook.secret, webhook.previous_secret as string] : [webhook.secret];
  return stored.map((secret) => box.open(secret));
}

/**
 * Posts `delivery` (claimed by `holder`) and records the outcome; answers the row after it,
 * or undefined when the endpoint is gone or the lease was lost (another process records).
 */
export async function attemptDelivery(deps: DeliveryDeps, delivery: DeliveryRow, holder: string): Promise<DeliveryRow | undefined> {
  const webhook = await webhookById(deps.sql, delivery.webhook_id);
  if (!webhook) return undefined;
  const sentAt = new Date(deps.clock.now());
  const headers = signedHeaders(signingSecrets(webhook, sentAt, deps.secretBox), delivery.event_id, sentAt, delivery.body);
  let responseCode: number | null = null;
  let error: string | null = null;
  const started = performance.now();
  try {
    ({ status: responseCode } = await deps.webhookSender.post(webhook.url, { headers, body: delivery.body, timeoutMs: deps.timeoutMs ?? DELIVERY_TIMEOUT_MS }));
    // Redirects are not followed: only a 2xx is a success.
    if (responseCode < 200 || responseCode >= 300) error = `The endpoint answered ${responseCode}`;
  } catch (failure) {
    error = failure instanceof Error ? failure.message.slice(0, 300) : "The delivery failed";
  }
  const latencyMs = Math.round(performance.now() - started);
  const at = new Date(deps.clock.now());
  const attempt = delivery.attempt + 1;
  const retryAt = error === null ? null : nextAttemptAt(attempt, at);
  const status = error === null ? "succeeded" : retryAt ? "pending" : "failed";
  return deps.sql.begin(async (tx) => {
    const row = await recordDeliveryAttempt(tx, delivery.id, holder, { status, attempt, nextAttemptAt: retryAt, responseCode, latencyMs, error, at });
    if (!row) return undefined;
    if (error === null) {
      await recordWebhookSuccess(tx, webhook.id, latencyMs);
      return row;
    }
    const failing = await recordWebhookFailure(tx, webhook.id, at, latencyMs);
    if (failing?.enabled && disablesEndpoint(failing.consecutive_failures, failing.failing_since, at)) {
      const reason =
        failing.consecutive_failures >= DISABLE_AFTER_FAILURES
          ? `${failing.consecutive_failures} delivery attempts in a row failed`
          : `Deliveries have failed since ${new Date(failing.failing_since as Date).toISOString()}`;
      const accountId = await mainAccountOf(tx, failing.owner_id);
      if ((await disableWebhook(tx, webhook.id, reason, at)) && accountId) {
        const disabled = { ...failing, enabled: false, disabled_reason: reason, updated_at: at };
        await recordEvent(tx, { accountId, type: "webhook.disabled", objectType: "webhook", objectId: webhook.id, data: endpointView(disabled, at), now: at });
      }
    }
    return row;
  });
}
