/**
 * Recording attempts' outcomes under the poster's lease (docs/webhooks.md, "Deliveries"). A
 * success marks the delivery succeeded, ends its endpoint's failure run and counts the
 * attempt's duration in the endpoint's average. A failure schedules the retry (or gives up),
 * extends the failure run, and a run of 100 or of 5 days disables the endpoint and records a
 * `webhook.disabled` event in the same transaction. A delivery run records the successes of
 * many posts in one statement (the common case, and what keeps one endpoint's slots turning
 * over quickly), each failure in its own transaction.
 */
import type { Queryable, Sql } from "../db/sql.ts";
import { recordEvent } from "../events/record_event.ts";
import { disableWebhook, mainAccountOf, recordWebhookFailure, recordWebhookSuccess } from "./webhooks_queries.ts";
import { recordDeliveryAttempt, recordDeliverySuccesses } from "./deliveries_queries.ts";
import { type DeliveryRow, endpointView } from "./webhook_schema.ts";
import { DISABLE_AFTER_FAILURES, disablesEndpoint } from "./delivery_schedule.ts";
import { LATENCY_AVERAGE_WEIGHT } from "./delivery_limits.ts";
import type { DeliveryOutcome } from "./deliver_attempt.ts";

/** Records one outcome; answers the row after it, or undefined when `holder` lost the lease. */
export function recordOutcome(sql: Sql, outcome: DeliveryOutcome, holder: string): Promise<DeliveryRow | undefined> {
  return sql.begin(async (tx) => {
    const row = await recordDeliveryAttempt(tx, outcome.delivery.id, holder, outcome);
    if (!row) return undefined;
    if (outcome.error === null) await recordWebhookSuccess(tx, outcome.webhook.id, outcome.latencyMs);
    else await recordFailure(tx, outcome);
    return row;
  });
}

/** Extends the endpoint's failure run; disables it (with its event) when the run is long enough. */
async function recordFailure(tx: Queryable, outcome: DeliveryOutcome): Promise<void> {
  const { webhook, at } = outcome;
  const failing = await recordWebhookFailure(tx, webhook.id, at, outcome.latencyMs);
  if (!failing?.enabled || !disablesEndpoint(failing.consecutive_failures, failing.failing_since, at)) return;
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

/**
 * How a run of successive attempt durations moves an endpoint's average: after durations
 * l1..ln the average is `avg * keep + add` (the exponentially weighted average of
 * `LATENCY_AVERAGE_WEIGHT` applied once per attempt, in order). recordDeliverySuccesses
 * computes the same in SQL; this is its statement in code, for tests and readers.
 */
export function averageStep(latencies: readonly number[]): { keep: number; add: number } {
  let keep = 1;
  let add = 0;
  for (const latency of latencies) {
    keep *= 1 - LATENCY_AVERAGE_WEIGHT;
    add = add * (1 - LATENCY_AVERAGE_WEIGHT) + latency * LATENCY_AVERAGE_WEIGHT;
  }
  return { keep, add };
}

/** Tries of a group's statement that PostgreSQL ended as a deadlock victim (two runs' groups touching the same endpoints). */
const DEADLOCK_TRIES = 3;

/**
 * Records many outcomes of `holder`'s posts: the successes in one statement (the deliveries
 * whose lease `holder` still held, and their endpoints), then each failure in its own
 * transaction.
 */
export async function recordOutcomes(sql: Sql, outcomes: readonly DeliveryOutcome[], holder: string): Promise<void> {
  const successes = outcomes.filter((outcome) => outcome.error === null);
  for (let tried = 1; successes.length > 0; tried++) {
    try {
      await recordDeliverySuccesses(sql, holder, successes);
      break;
    } catch (error) {
      if ((error as { code?: string }).code !== "40P01" || tried >= DEADLOCK_TRIES) throw error;
    }
  }
  for (const outcome of outcomes) if (outcome.error !== null) await recordOutcome(sql, outcome, holder);
}
