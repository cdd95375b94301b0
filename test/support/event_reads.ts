/**
 * Reading events back in the event suites (test/events.test.ts, test/event_emitters.test.ts):
 * the stored rows of one object (any owner: job accounts may have no key), and a key's
 * events through `GET /v1/events`, page after page.
 */
import assert from "node:assert/strict";
import type { Sql } from "../../core/db/sql.ts";
import type { Transport } from "./harness.ts";

/** An event row as the suites read it. */
export interface StoredEvent {
  id: number;
  seq: number | null;
  type: string;
  account_id: string;
  object_type: string;
  object_id: string;
  data: any;
}

/** The stored events about one object, oldest first. */
export async function storedEventsOf(sql: Sql, objectType: string, objectId: string | number): Promise<StoredEvent[]> {
  return sql<StoredEvent[]>`
    select id::int as id, seq::int as seq, type, account_id, object_type, object_id, data
      from events where object_type = ${objectType} and object_id = ${String(objectId)} order by id`;
}

/** Every event of `key`'s user of `types` (comma-separated) through `transport`, following `next_cursor`. */
export async function readAllEvents(transport: Transport, types: string, key: string): Promise<any[]> {
  const events: any[] = [];
  let cursor: string | undefined;
  for (;;) {
    const answer = await transport.request("GET", `/v1/events?types=${types}&limit=100${cursor ? `&cursor=${cursor}` : ""}`, { key });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    events.push(...answer.body.data);
    if (!answer.body.pagination.has_more) return events;
    cursor = answer.body.pagination.next_cursor;
  }
}
