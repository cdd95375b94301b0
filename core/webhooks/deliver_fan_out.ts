/**
 * The fan-out (docs/webhooks.md): turns new events into one delivery per event and
 * subscribed endpoint. Events are read by `seq` (never by id: see migration 0028), after each
 * endpoint's cursor, so an event committed late is still delivered and none twice; the
 * cursor moves in the transaction that queues the deliveries, and only from the value read
 * (two processes fanning out at once queue each event once).
 */
import { eventsAfter } from "../events/events_queries.ts";
import { sequenceAllEvents } from "../events/sequence_events.ts";
import type { Clock } from "../clock.ts";
import type { Sql } from "../db/sql.ts";
import { advanceWebhookCursor, anyWebhookEnabled, webhooksWithNewEvents } from "./webhooks_queries.ts";
import { insertDeliveries, type NewDelivery } from "./deliveries_queries.ts";
import type { WebhookRow } from "./webhook_schema.ts";
import { eventPayload } from "../events/event_payload.ts";
import { keepStatisticsFresh } from "../db/fresh_statistics.ts";

/** Events read per statement. */
const BATCH = 500;

/** Thrown to roll back a fan-out whose cursor another process moved first (it queues those events). */
const cursorMoved = new Error("Another fan-out moved the cursor");

/** Whether `webhook` subscribes to events of `type`. */
export function subscribes(webhook: Pick<WebhookRow, "events">, type: string): boolean {
  return webhook.events.includes("*") || webhook.events.includes(type);
}

/** Sequences committed events, then queues their deliveries; answers how many were queued. */
export async function fanOutEvents(deps: { sql: Sql; clock: Clock }): Promise<number> {
  const { sql } = deps;
  // With no endpoint to serve, the sequencing is left to readers (they run it themselves).
  if (!(await anyWebhookEnabled(sql))) return 0;
  await sequenceAllEvents(sql);
  const webhooks = await webhooksWithNewEvents(sql);
  let queued = 0;
  for (const webhook of webhooks) {
    let cursor = webhook.cursor_seq;
    for (;;) {
      const events = await eventsAfter(sql, webhook.owner_id, cursor, BATCH);
      if (events.length === 0) break;
      const last = events[events.length - 1].seq as number;
      const deliveries: NewDelivery[] = events
        // An endpoint is not told about its own disabling (it is off by then).
        .filter((event) => subscribes(webhook, event.type) && !(event.type === "webhook.disabled" && event.object_id === String(webhook.id)))
        .map((event) => {
          const seq = event.seq as number;
          const payload = eventPayload({ ...event, seq });
          return {
            webhookId: webhook.id,
            eventId: payload.id,
            eventSeq: seq,
            eventType: event.type,
            objectKey: `${event.object_type}:${event.object_id}`,
            body: JSON.stringify(payload),
            eventCreatedAt: event.created_at,
          };
        });
      const from = cursor;
      // The cursor moves last, just before the commit: its row lock (the endpoint's row, which
      // each recorded success also updates) is held for one round trip, not for the insert.
      const added = await sql
        .begin(async (tx) => {
          const inserted = await insertDeliveries(tx, deliveries, new Date(deps.clock.now()));
          if (!(await advanceWebhookCursor(tx, webhook.id, from, last))) throw cursorMoved;
          return inserted;
        })
        .catch((error) => {
          if (error === cursorMoved) return undefined;
          throw error;
        });
      const moved = added !== undefined;
      queued += added ?? 0;
      // Another process moved the cursor first: it queues these.
      if (!moved || events.length < BATCH) break;
      cursor = last;
    }
  }
  // A burst of deliveries must not be claimed on the plan of an empty queue.
  if (queued > 0) await keepStatisticsFresh(sql, "webhook_deliveries", queued);
  return queued;
}
