/**
 * What an operation flagged `stream` (core/trpc.ts `EndpointMeta.stream`) answers when the
 * client asks for `text/event-stream`: messages produced while the client stays connected
 * (docs/webhooks.md: `GET /v1/events` as Server-Sent Events). Core produces the messages;
 * the REST adapter encodes and writes them (adapters/http/event_stream_response.ts), so core
 * stays free of `node:*`.
 */

/** One message: an event (`id`, `event`, `data` lines) or a comment line (a heartbeat). */
export type StreamMessage = { id: string; event: string; data: string } | { comment: string };

/** How often the stream looks for news and sends a heartbeat when there is none; how long it may run. */
export interface StreamTiming {
  /** How often the process's event feed looks for news while streams are open, notification or not (core/events/event_feed.ts). */
  pollMs: number;
  heartbeatMs: number;
  /** How often the stream checks that its key still works (ending when it does not). */
  keyCheckMs: number;
  /** How long one connection may stream; then it ends and the client reconnects with `Last-Event-ID`. */
  lifetimeMs: number;
}

/**
 * Asked every `keyCheckMs` whether the stream may go on: undefined while it may, else why not
 * (the key was revoked; the adapter builds it from the request's principal, core/auth/key_standing.ts).
 */
export type StreamGuard = () => Promise<string | undefined>;

/** A stream answer: `messages` runs until `signal` aborts (the client left or the server stops). */
export interface MessageStream {
  messages(signal: AbortSignal, timing: StreamTiming, guard?: StreamGuard): AsyncIterable<StreamMessage>;
  /**
   * Called once when the answer ends, however it ends (even when `messages` never ran: the client
   * left before the first read): lets go of what the stream holds (its slot, core/events/stream_slots.ts).
   */
  end?(): Promise<void>;
}
