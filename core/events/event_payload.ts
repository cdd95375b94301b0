/** The payload of a stored event: what `GET /v1/events` answers and webhook deliveries carry. */
import type { EventRow } from "./events_queries.ts";
import type { EventPayload } from "./event_schema.ts";

/** The public shape of `row` (a sequenced event: its id is `evt_<seq>`). */
export function eventPayload(row: EventRow): EventPayload {
  return {
    id: eventIdOf(row.seq ?? 0),
    type: row.type,
    created_at: row.created_at.toISOString(),
    account_id: row.account_id,
    object: { type: row.object_type, id: row.object_id },
    data: row.data,
  };
}

/** The event id of stream position `seq`. */
export function eventIdOf(seq: number): string {
  return `evt_${seq}`;
}

/** The stream position an event id names (`evt_42` or `42`), or undefined when it is not one. */
export function seqOfEventId(id: string): number | undefined {
  const match = /^(?:evt_)?([0-9]{1,16})$/.exec(id.trim());
  if (!match) return undefined;
  const seq = Number(match[1]);
  return Number.isSafeInteger(seq) ? seq : undefined;
}
