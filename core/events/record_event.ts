/**
 * Recording an event (docs/webhooks.md): call it inside the transaction that makes the change,
 * so an event exists exactly when its change committed (a rollback takes the event with it).
 * `data` is the object as its `GET` returns it.
 */
import type { Queryable } from "../db/sql.ts";
import { insertEvent, insertEvents, type NewEvent } from "./events_queries.ts";

/** Records one event in `tx` (the change's own transaction); answers the event id. */
export function recordEvent(tx: Queryable, event: NewEvent): Promise<number> {
  return insertEvent(tx, event);
}

/** Records `events` in `tx` (the changes' own transaction), in order, in one statement. */
export function recordEvents(tx: Queryable, events: readonly NewEvent[]): Promise<void> {
  return insertEvents(tx, events);
}
