/**
 * A small Server-Sent Events reader for the stream tests: opens a `text/event-stream`
 * answer with fetch and hands out its messages (events and comments) as they arrive, each
 * parsed per the event-stream format (fields `id`, `event`, `data`; lines starting `:`).
 */

/** A parsed message: an event or a comment. */
export type SseMessage = { kind: "event"; id?: string; event?: string; data: string } | { kind: "comment"; text: string };

/** An open stream. */
export interface SseStream {
  status: number;
  headers: Headers;
  /** The next message; undefined when the stream ended or `timeoutMs` passed. */
  next(timeoutMs: number): Promise<SseMessage | undefined>;
  /** The next event (comments skipped) within `timeoutMs`; throws when none came. */
  nextEvent(timeoutMs: number): Promise<{ id?: string; event?: string; data: any }>;
  /** Whether the server ended the stream. */
  ended(): boolean;
  close(): void;
}

/** Opens `url` with `Accept: text/event-stream` and `headers` through `send` (the listening server's fetch by default). */
export async function openSse(url: string, headers: Record<string, string>, send: (request: Request) => Promise<Response> = fetch): Promise<SseStream> {
  const controller = new AbortController();
  const response = await send(new Request(url, { headers: { Accept: "text/event-stream", ...headers }, signal: controller.signal }));
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const queue: SseMessage[] = [];
  let buffer = "";
  let done = false;
  let pending: Promise<void> | undefined;
  const pump = (): Promise<void> =>
    (pending ??= reader
      .read()
      .then(({ value, done: finished }) => {
        if (finished) done = true;
        else buffer += decoder.decode(value, { stream: true });
        for (let cut = buffer.indexOf("\n\n"); cut >= 0; cut = buffer.indexOf("\n\n")) {
          queue.push(parse(buffer.slice(0, cut)));
          buffer = buffer.slice(cut + 2);
        }
      })
      .catch(() => {
        done = true;
      })
      .finally(() => {
        pending = undefined;
      }));
  const next = async (timeoutMs: number): Promise<SseMessage | undefined> => {
    const deadline = Date.now() + timeoutMs;
    while (queue.length === 0 && !done) {
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([pump(), new Promise<void>((resolve) => (timer = setTimeout(resolve, left)))]);
      clearTimeout(timer);
    }
    return queue.shift();
  };
  return {
    status: response.status,
    headers: response.headers,
    next,
    async nextEvent(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const message = await next(Math.max(0, deadline - Date.now()));
        if (!message) throw new Error(`No event within ${timeoutMs} ms${done ? " (the stream ended)" : ""}`);
        if (message.kind === "event") return { id: message.id, event: message.event, data: JSON.parse(message.data) };
      }
    },
    ended: () => done && queue.length === 0,
    close() {
      controller.abort();
      reader.cancel().catch(() => {});
    },
  };
}

function parse(block: string): SseMessage {
  const lines = block.split("\n");
  if (lines.every((line) => line.startsWith(":"))) return { kind: "comment", text: lines.map((line) => line.slice(1).trim()).join("\n") };
  const message: { kind: "event"; id?: string; event?: string; data: string } = { kind: "event", data: "" };
  const data: string[] = [];
  for (const line of lines) {
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "id") message.id = value;
    else if (field === "event") message.event = value;
    else if (field === "data") data.push(value);
  }
  message.data = data.join("\n");
  return message;
}
