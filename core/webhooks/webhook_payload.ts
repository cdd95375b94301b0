/**
 * The body of a webhook delivery (issue 18 scope 3): the event as
 * `{ id, type, created_at, account_id, object: { type, id }, data }`, the same shape as an
 * event of `GET /v1/events`. The id is `evt_<seq>` (the event's place in the owner's
 * order), and it is also the `webhook-id` header receivers dedupe on.
 */
import type { EventRow } from "../events/events_queries.ts";

/** The public id of the event with sequence number `seq`. */
export function eventId(seq: number): string {
  return `evt_${seq}`;
}

/** A delivered event. */
export interface WebhookPayload {
  id: string;
  type: string;
  created_at: string;
  account_id: string | null;
  object: { type: string; id: string };
  data: unknown;
}

/** The body delivered for a sequenced event row. */
export function webhookPayload(row: EventRow & { seq: number }): WebhookPayload {
  return {
    id: eventId(row.seq),
    type: row.type,
    created_at: new Date(row.created_at).toISOString(),
    account_id: row.account_id,
    object: { type: row.object_type, id: row.object_id },
    data: row.data,
  };
}
