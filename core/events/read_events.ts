/**
 * Reading the event outbox (docs/webhooks.md): `GET /v1/events` as a JSON list paged by
 * cursor, and the same operation as a Server-Sent Events stream when the client asks for
 * `text/event-stream`. Both read the key's user's events (every account they own) in `seq`
 * order, after running the sequencer, so an event committed late is never skipped
 * (migration 0028).
 */
import { z } from "zod";
import type { AccountContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import type { Sql } from "../db/sql.ts";
import { accountIdValue, commaListOf, limitParam, timestamp } from "../schema.ts";
import { pause } from "../abortable_pause.ts";
import type { MessageStream, StreamGuard, StreamMessage, StreamTiming } from "../message_stream.ts";
import { EVENT_TYPES } from "./event_types.ts";
import { type EventFilter, eventsAfter, lastSequenced } from "./events_queries.ts";
import { sequenceAllEvents } from "./sequence_events.ts";
import type { EventFeed } from "../ports/event_feed.ts";
import { DEFAULT_STREAM_LIMITS, SLOT_RENEW_MS, type StreamSlot, takeStreamSlot } from "./stream_slots.ts";
import { eventIdOf, eventPayload, seqOfEventId } from "./event_payload.ts";
import { event } from "./event_schema.ts";

/** Events read per poll of a stream. */
const STREAM_BATCH = 100;

/** An event id as a cursor: `evt_42` or `42`. */
const EVENT_CURSOR = /^(?:evt_)?[0-9]{1,15}$/;

const eventCursor = z
  .string()
  .regex(EVENT_CURSOR, "must be an event id (evt_<n>)")
  .meta({ description: "An event id (`evt_<n>`): answers the events after it" });

/** The query of `GET /v1/events`. */
export const eventsQuery = z
  .object({
    account_id: accountIdValue.meta({ description: "Only this account's events (default: every account you own)" }).optional(),
    types: commaListOf(EVENT_TYPES).optional(),
    since: timestamp.meta({ description: "Only events created at or after this time", example: "2026-11-21T09:00:00Z" }).optional(),
    cursor: eventCursor.meta({ description: "`pagination.next_cursor` of the previous page (or any event id): the events after it" }).optional(),
    last_event_id: eventCursor.meta({ description: "Stream form: resume after this event (the `Last-Event-ID` header wins when both are sent)" }).optional(),
    limit: limitParam(50),
  })
  .prefault({});

/** The answer of `GET /v1/events` as JSON. */
export const eventList = z.object({
  data: z.array(event),
  pagination: z.object({
    limit: z.number().int(),
    has_more: z.boolean(),
    next_cursor: z.string().nullable().meta({
      description: "Pass as `cursor` for the next page; set even on the last page (poll with it for newer events); null only when nothing was read yet",
    }),
  }),
});

type EventsQuery = z.output<typeof eventsQuery>;

/**
 * The events of the key's user after `cursor` (JSON), or, when the REST client asked for
 * `text/event-stream`, a stream of them (`ctx.reply.stream`) with an empty list as the
 * procedure's answer.
 */
export async function readEvents(ctx: AccountContext, input: EventsQuery): Promise<z.infer<typeof eventList>> {
  const { sql } = ctx.services;
  const filter: EventFilter = { since: input.since === undefined ? undefined : new Date(input.since) };
  // `ctx.account` was resolved from `account_id` by the procedure (`inAccount`): another
  // user's account is `404 account_not_found`, as on every endpoint (rule 6); an account
  // shared with you has no events of yours: its events belong to its owner. Without
  // `account_id` the key's user reads every account they own, not only the main one.
  if (input.account_id !== undefined) filter.accountId = ctx.account.id;
  const header = lastEventIdHeader(ctx.transport.headers.get("last-event-id"));
  await sequenceAllEvents(sql);
  if (ctx.transport.acceptsStream) {
    ctx.reply.stream = await eventStream(ctx, input, filter, header);
    return { data: [], pagination: { limit: input.limit, has_more: false, next_cursor: null } };
  }
  // JSON pages by `cursor`; a client that also sends the stream's position starts there.
  const given = input.cursor ?? input.last_event_id;
  const after = given === undefined ? (header ?? 0) : (seqOfEventId(given) ?? 0);
  const rows = await eventsAfter(sql, ctx.principal.userId, after, input.limit + 1, input.types, filter);
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    data: page.map(eventPayload),
    pagination: {
      limit: input.limit,
      has_more: rows.length > input.limit,
      next_cursor: last ? eventIdOf(last.seq ?? 0) : after > 0 ? eventIdOf(after) : null,
    },
  };
}

/**
 * Where a stream starts: after `Last-Event-ID` (the header a reconnecting EventSource
 * sends), else `last_event_id`, else `cursor`; with none, from `since` when sent, else
 * from now (only events that become readable after the connection). The stream holds one of
 * the key's and the user's stream slots (stream_slots.ts) from here until it ends.
 */
async function eventStream(ctx: AccountContext, input: EventsQuery, filter: EventFilter, header: number | undefined): Promise<MessageStream> {
  const { sql, eventFeed, settings } = ctx.services;
  let after = header;
  if (after === undefined) {
    const given = input.last_event_id ?? input.cursor;
    if (given !== undefined) after = seqOfEventId(given);
  }
  if (after === undefined) after = filter.since === undefined ? await lastSequenced(sql) : 0;
  const ownerId = ctx.principal.userId;
  const slot = await takeStreamSlot(sql, { ownerId, keyId: ctx.principal.key.id }, settings.eventStreamLimits ?? DEFAULT_STREAM_LIMITS);
  const position: StreamPosition = { ownerId, after, types: input.types, filter };
  return {
    messages: (signal, timing, guard) => streamMessages(sql, eventFeed, slot, position, signal, timing, guard),
    end: () => slot.release().catch(() => {}),
  };
}

/**
 * The position `Last-Event-ID` names, validated like the documented header parameter in
 * both forms: a header that is present but not an event id is `400 invalid_parameter`.
 */
function lastEventIdHeader(value: string | null): number | undefined {
  if (value === null) return undefined;
  const seq = EVENT_CURSOR.test(value) ? seqOfEventId(value) : undefined;
  if (seq === undefined) throw new ApiError("invalid_parameter", 'Invalid "Last-Event-ID": must be an event id (evt_<n>)');
  return seq;
}

interface StreamPosition {
  ownerId: number;
  after: number;
  types?: readonly string[];
  filter: EventFilter;
}

/**
 * Writes the owner's events while the client stays: reads a batch after the last one sent
 * only when the process's event feed says the owner has news (event_feed.ts: a commit rang the
 * event bell, or the feed's own tick found it), so an idle stream costs the database nothing;
 * when idle, a heartbeat comment every
 * `heartbeatMs` (proxies close silent connections). A failed read (the database going away at
 * shutdown) ends the stream: the client reconnects with `Last-Event-ID` and loses nothing.
 * Every `keyCheckMs` (and at least every 30 s) it asks `guard` whether it may go on (its key
 * still works) and renews its slot; it runs `lifetimeMs` at most; either way its last line is
 * a comment saying why it ends.
 */
async function* streamMessages(
  sql: Sql,
  feed: EventFeed,
  slot: StreamSlot,
  position: StreamPosition,
  signal: AbortSignal,
  timing: StreamTiming,
  guard?: StreamGuard,
): AsyncGenerator<StreamMessage> {
  let after = position.after;
  // Read at once: events may have become readable between the request's read and now.
  let news = true;
  let nudge: (() => void) | undefined;
  const leave = feed.watch(position.ownerId, () => {
    news = true;
    nudge?.();
  });
  const checkEveryMs = Math.min(timing.keyCheckMs, SLOT_RENEW_MS);
  try {
    // A first line at once, so proxies and clients see the stream open before any event.
    yield { comment: "stream open" };
    const openedAt = Date.now();
    let quietSince = openedAt;
    let checkedAt = openedAt;
    while (!signal.aborted) {
      if (Date.now() - openedAt >= timing.lifetimeMs) {
        yield { comment: `closed: a stream lasts ${timing.lifetimeMs / 1000} s at most; reconnect with Last-Event-ID` };
        return;
      }
      let rows: Awaited<ReturnType<typeof eventsAfter>> = [];
      try {
        if (Date.now() - checkedAt >= checkEveryMs) {
          const ended = guard ? await guard() : undefined;
          if (ended) {
            yield { comment: `closed: ${ended}` };
            return;
          }
          await slot.renew();
          checkedAt = Date.now();
        }
        if (news) {
          news = false;
          rows = await eventsAfter(sql, position.ownerId, after, STREAM_BATCH, position.types, position.filter);
        }
      } catch {
        return;
      }
      for (const row of rows) {
        if (signal.aborted) return;
        const payload = eventPayload(row);
        yield { id: payload.id, event: payload.type, data: JSON.stringify(payload) };
        after = row.seq ?? after;
      }
      if (rows.length > 0) quietSince = Date.now();
      if (rows.length === STREAM_BATCH) {
        news = true;
        continue;
      }
      if (Date.now() - quietSince >= timing.heartbeatMs) {
        yield { comment: "heartbeat" };
        quietSince = Date.now();
      }
      if (news) continue;
      // Until news, the next heartbeat, the next check or the end, whichever is first.
      const now = Date.now();
      const waitMs = Math.min(timing.heartbeatMs - (now - quietSince), checkEveryMs - (now - checkedAt), timing.lifetimeMs - (now - openedAt));
      await pause(Math.max(1, waitMs), signal, (end) => {
        nudge = end;
      });
      nudge = undefined;
    }
  } finally {
    leave();
    await slot.release().catch(() => {});
  }
}
