/**
 * One attempt of one delivery (docs/webhooks.md): signed with the endpoint's secrets
 * (the previous one too for 24 hours after a rotation), posted through the outbound guard
 * with a 10 s bound, and its outcome recorded under the caller's lease: a success, the next
 * retry with backoff, or giving up. Either way its duration joins the endpoint's average
 * (core/webhooks/delivery_limits.ts: a slow endpoint gets fewer deliveries in flight). A failure extends the endpoint's failure run; a run of
 * 100 or of 5 days disables the endpoint and records a `webhook.disabled` event in the
 * same transaction. The delivery run (deliver_due.ts) posts with `sendDelivery` and records
 * many outcomes at once (record_outcomes.ts); a manual retry or a ping uses `attemptDelivery`.
 */
import type { Clock } from "../clock.ts";
import type { Sql } from "../db/sql.ts";
import { webhookById } from "./webhooks_queries.ts";
import type { DeliveryRow, WebhookRow } from "./webhook_schema.ts";
import { signedHeaders } from "./webhook_secret.ts";
import type { WebhookSender } from "../ports/webhook_sender.ts";
import type { SecretBox } from "../ports/secret_box.ts";
import { DELIVERY_TIMEOUT_MS, nextAttemptAt } from "./delivery_schedule.ts";
import { recordOutcome } from "./record_outcomes.ts";

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

/** What one post of a delivery came to, before it is recorded. */
export interface DeliveryOutcome {
  delivery: DeliveryRow;
  webhook: WebhookRow;
  status: DeliveryRow["status"];
  /** The attempt's number (1-based). */
  attempt: number;
  nextAttemptAt: Date | null;
  responseCode: number | null;
  latencyMs: number;
  error: string | null;
  at: Date;
}

/** The secrets that sign at `now`, opened: the current one, and the previous one during its 24 hours. */
export function signingSecrets(webhook: WebhookRow, now: Date, box: SecretBox): string[] {
  const previousLive = webhook.previous_secret && webhook.previous_secret_until && new Date(webhook.previous_secret_until) > now;
  const stored = previousLive ? [webhook.secret, webhook.previous_secret as string] : [webhook.secret];
  return stored.map((secret) => box.open(secret));
}

/**
 * Posts `delivery` to `webhook` signed with `secrets` (`signingSecrets`, opened once per
 * endpoint by the caller) and answers the outcome; records nothing.
 */
export async function sendDelivery(deps: DeliveryDeps, delivery: DeliveryRow, webhook: WebhookRow, secrets: readonly string[]): Promise<DeliveryOutcome> {
  const sentAt = new Date(deps.clock.now());
  const headers = signedHeaders(secrets, delivery.event_id, sentAt, delivery.body);
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
  return { delivery, webhook, status, attempt, nextAttemptAt: retryAt, responseCode, latencyMs, error, at };
}

/**
 * Posts `delivery` (claimed by `holder`) and records the outcome; answers the row after it,
 * or undefined when the endpoint is gone or the lease was lost (another process records).
 */
export async function attemptDelivery(deps: DeliveryDeps, delivery: DeliveryRow, holder: string): Promise<DeliveryRow | undefined> {
  const webhook = await webhookById(deps.sql, delivery.webhook_id);
  if (!webhook) return undefined;
  const outcome = await sendDelivery(deps, delivery, webhook, signingSecrets(webhook, new Date(deps.clock.now()), deps.secretBox));
  return recordOutcome(deps.sql, outcome, holder);
}
