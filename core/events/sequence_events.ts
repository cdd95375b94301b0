/**
 * Running the event sequencer (migration 0028; events_queries.ts `sequenceEvents`) until every
 * committed event has its stream position. Readers run it before they read and the webhook
 * fan-out before it queues; nothing runs it when nobody reads, so a busy publisher pays only
 * for its inserts.
 */
import type { Sql } from "../db/sql.ts";
import { hasUnsequencedEvents, sequenceEvents } from "./events_queries.ts";

/** Events numbered per statement. */
const SEQUENCE_BATCH = 1000;

/**
 * Gives every committed event its `seq`, a batch per statement. When nothing waits (the
 * common case for a polling stream) no transaction and no lock is taken.
 */
export async function sequenceAllEvents(sql: Sql): Promise<void> {
  if (!(await hasUnsequencedEvents(sql))) return;
  while ((await sequenceEvents(sql, SEQUENCE_BATCH)) === SEQUENCE_BATCH);
}
