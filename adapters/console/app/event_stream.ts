/**
 * The live event feed: `GET /v1/events` as Server-Sent Events, read with fetch (an EventSource
 * cannot send the Authorization header), parsed by eventsource-parser, resumed after the last
 * event id when the connection drops. A refused key signs the console out.
 */
import { createParser } from "eventsource-parser";
import type { api } from "./api.ts";
import { currentKey, signOut } from "./session.ts";

/** An event as the API answers it (the same object the JSON list holds). */
export type ApiEvent = Awaited<ReturnType<typeof api.events.list.query>>["data"][number];

/** Wait before reconnecting after a dropped stream, in ms. */
const RECONNECT_MS = 2000;

/** Follows the stream until `signal` aborts; `onState` hears whether it is connected. */
export async function followEvents(onEvent: (event: ApiEvent) => void, onState: (connected: boolean) => void, signal: AbortSignal): Promise<void> {
  let lastEventId: string | undefined;
  while (!signal.aborted) {
    try {
      const headers: Record<string, string> = { Accept: "text/event-stream", Authorization: `Bearer ${currentKey() ?? ""}` };
      if (lastEventId) headers["Last-Event-ID"] = lastEventId;
      const response = await fetch("/v1/events", { headers, signal });
      if (response.status === 401) return signOut();
      if (!response.ok || !response.body) throw new Error(`The event stream answered ${response.status}`);
      onState(true);
      const parser = createParser({
        onEvent(message) {
          if (message.id) lastEventId = message.id;
          onEvent(JSON.parse(message.data) as ApiEvent);
        },
      });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
    } catch (error) {
      if (signal.aborted) return;
      console.warn("Event stream dropped", error);
    }
    onState(false);
    await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
  }
}
