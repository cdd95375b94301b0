/**
 * What the soak's audit compares the database with: a webhook receiver (node:http on loopback)
 * that records every delivery in arrival order, and SSE readers of `GET /v1/events` through the
 * balancer that reconnect with `Last-Event-ID` after a dropped connection and on their own
 * every few seconds, recording every event id they were handed.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** One delivery as the receiver saw it. */
export interface ReceivedDelivery {
  path: string;
  webhookId: string;
  eventId: string;
  objectKey: string;
  /** Arrival order across the receiver. */
  order: number;
  /** Whether the receiver answered 2xx (it refuses the first attempt of every tenth event). */
  accepted: boolean;
}

/** The receiver. */
export interface WebhookReceiver {
  base: string;
  deliveries: ReceivedDelivery[];
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1 and answers 204, except 503 to the first attempt of every tenth event
 * (by id): those come again (the retry after about 5 s), so redelivery under one `webhook-id`
 * and per-object order behind a retried event are exercised too.
 */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const deliveries: ReceivedDelivery[] = [];
  const refused = new Set<string>();
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      let refuse = false;
      try {
        const event = JSON.parse(body) as { id: string; object: { type: string; id: string } };
        refuse = Number(/^evt_(\d+)$/.exec(event.id)?.[1] ?? 1) % 10 === 0 && !refused.has(event.id);
        if (refuse) refused.add(event.id);
        deliveries.push({
          path: request.url ?? "",
          webhookId: String(request.headers["webhook-id"] ?? ""),
          eventId: event.id,
          objectKey: `${event.object.type}:${event.object.id}`,
          order: deliveries.length,
          accepted: !refuse,
        });
      } catch {
        deliveries.push({
          path: request.url ?? "",
          webhookId: String(request.headers["webhook-id"] ?? ""),
          eventId: "unparsable",
          objectKey: "",
          order: deliveries.length,
          accepted: true,
        });
      }
      response.writeHead(refuse ? 503 : 204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    deliveries,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An SSE reader's record. */
export interface SseRecord {
  label: string;
  /** Every event id handed to it, in order, duplicates included. */
  seen: number[];
  connects: number;
  /** Connections refused or broken before their planned end, by reason. */
  drops: number;
  dropReasons: Record<string, number>;
  /** The last id it resumes after. */
  lastSeq: number;
  stop(): Promise<void>;
}

/**
 * Reads `${base}/v1/events` as a stream with `key` from just after event `afterSeq`, forever
 * until stopped: each connection is closed by the reader after `reconnectMs` (or dropped by a
 * killed server), and the next one sends `Last-Event-ID` of the last event seen.
 */
export function startSseReader(label: string, base: string, key: string, afterSeq: number, reconnectMs: number): SseRecord {
  const record: SseRecord = { label, seen: [], connects: 0, drops: 0, dropReasons: {}, lastSeq: afterSeq, stop: async () => {} };
  const drop = (reason: string) => {
    record.drops++;
    record.dropReasons[reason] = (record.dropReasons[reason] ?? 0) + 1;
  };
  let stopped = false;
  let current: AbortController | undefined;
  const loop = (async () => {
    while (!stopped) {
      const controller = new AbortController();
      current = controller;
      const planned = setTimeout(() => controller.abort(), reconnectMs);
      let planEnded = false;
      controller.signal.addEventListener("abort", () => (planEnded = true));
      try {
        const response = await fetch(`${base}/v1/events`, {
          headers: { Authorization: `Bearer ${key}`, Accept: "text/event-stream", "Last-Event-ID": `evt_${record.lastSeq}` },
          signal: controller.signal,
        });
        record.connects++;
        if (response.status !== 200 || !response.body) {
          drop(`answered ${response.status}`);
          await response.body?.cancel();
          await pause(500);
          continue;
        }
        const decoder = new TextDecoder();
        let buffer = "";
        for await (const chunk of response.body) {
          buffer += decoder.decode(chunk as Uint8Array, { stream: true });
          for (let cut = buffer.indexOf("\n\n"); cut >= 0; cut = buffer.indexOf("\n\n")) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const id = /^id: ?evt_(\d+)$/m.exec(block)?.[1];
            if (id === undefined) continue;
            const seq = Number(id);
            record.seen.push(seq);
            record.lastSeq = seq;
          }
        }
        if (!planEnded) drop("ended by the server");
      } catch (error) {
        if (!planEnded) {
          drop(`broken: ${(error as Error).cause ? String(((error as Error).cause as Error).message ?? (error as Error).cause) : (error as Error).message}`);
          await pause(300);
        }
      } finally {
        clearTimeout(planned);
      }
    }
  })();
  record.stop = async () => {
    stopped = true;
    current?.abort();
    await loop;
  };
  return record;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
