/**
 * The Server-Sent Events answer of an operation flagged `stream` (core/message_stream.ts):
 * messages encoded per the HTML Living Standard's event-stream format (`id:`, `event:`,
 * `data:` lines, a blank line; comments start with `:`), written as the core produces them
 * while the client stays connected. It ends when the client disconnects (the body is
 * cancelled) or the server stops (`stopping` aborts).
 */
import type { MessageStream, StreamGuard, StreamMessage, StreamTiming } from "../../core/message_stream.ts";

/**
 * The default timing (docs/webhooks.md): the process's event feed looks every second besides the
 * notifications, a heartbeat after 15 s of silence,
 * the key checked every 30 s (a revoked key's REST requests fail within the key cache's 30 s
 * too), one hour per connection.
 */
export const DEFAULT_STREAM_TIMING: StreamTiming = { pollMs: 1000, heartbeatMs: 15_000, keyCheckMs: 30_000, lifetimeMs: 60 * 60 * 1000 };

/** Encodes one message. `data` may not hold line breaks unsplit, so each line gets its own `data:`. */
export function encodeMessage(message: StreamMessage): string {
  if ("comment" in message) return `: ${message.comment}\n\n`;
  const data = message.data
    .split(/\r\n|\r|\n/)
    .map((line) => `data: ${line}\n`)
    .join("");
  return `id: ${message.id}\nevent: ${message.event}\n${data}\n`;
}

/** The streamed answer, beside the headers the request path collected (rate limits). */
export function eventStreamResponse(
  stream: MessageStream,
  headers: Headers,
  options: { stopping?: AbortSignal; timing?: StreamTiming; guard?: StreamGuard },
): Response {
  const done = new AbortController();
  const stop = () => done.abort();
  options.stopping?.addEventListener("abort", stop, { once: true });
  if (options.stopping?.aborted) done.abort();
  const encoder = new TextEncoder();
  const messages = stream.messages(done.signal, options.timing ?? DEFAULT_STREAM_TIMING, options.guard)[Symbol.asyncIterator]();
  let ended = false;
  const end = async () => {
    if (ended) return;
    ended = true;
    options.stopping?.removeEventListener("abort", stop);
    await stream.end?.();
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await messages.next().catch(() => ({ done: true as const, value: undefined }));
      if (next.done || done.signal.aborted) {
        controller.close();
        await end();
        return;
      }
      controller.enqueue(encoder.encode(encodeMessage(next.value)));
    },
    async cancel() {
      // The client went away: stop polling and let the generator finish.
      done.abort();
      await messages.return?.(undefined);
      await end();
    },
  });
  headers.set("Content-Type", "text/event-stream");
  headers.set("Cache-Control", "no-cache");
  // Tells nginx-style proxies not to buffer the stream.
  headers.set("X-Accel-Buffering", "no");
  return new Response(body, { status: 200, headers });
}
