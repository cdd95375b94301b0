/**
 * A webhook receiver on loopback for the webhook suites: records every POST (path, headers,
 * body, arrival time, and when it was answered) and answers what the path's behaviour says (a
 * status, or a wait before answering, to time a delivery out or hold it in flight).
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** One POST the receiver got. */
export interface ReceivedDelivery {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
  /** When the answer was sent (or the connection closed); undefined while in flight. */
  answeredAt?: number;
}

/** The most of `requests` in flight at one moment (each from its arrival until it was answered). */
export function peakInFlight(requests: readonly ReceivedDelivery[]): number {
  const moments = requests.flatMap((request) => [
    { at: request.at, step: 1 },
    { at: request.answeredAt ?? Number.POSITIVE_INFINITY, step: -1 },
  ]);
  // An answer and an arrival in the same millisecond: the answer first (the sender posts the
  // next only after reading the answer).
  moments.sort((a, b) => a.at - b.at || a.step - b.step);
  let now = 0;
  let peak = 0;
  for (const moment of moments) {
    now += moment.step;
    peak = Math.max(peak, now);
  }
  return peak;
}

/** How the receiver answers one request on a path: a status, and a wait before it. */
export type Behaviour = (request: ReceivedDelivery, index: number) => { status: number; delayMs?: number };

/** A running receiver. */
export interface WebhookReceiver {
  base: string;
  received: ReceivedDelivery[];
  /** Requests received on `path`. */
  on(path: string): ReceivedDelivery[];
  /** Sets how `path` answers (default 200). */
  behave(path: string, behaviour: Behaviour): void;
  /** Resolves once `path` has received `count` requests, or rejects after `timeoutMs`. */
  waitFor(path: string, count: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

function flat(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(", ") : (value ?? "")]));
}

/** Starts a receiver on 127.0.0.1. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const behaviours = new Map<string, Behaviour>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = request.url ?? "/";
      const delivery: ReceivedDelivery = { path, headers: flat(request.headers), body: Buffer.concat(chunks).toString("utf8"), at: Date.now() };
      response.on("close", () => {
        delivery.answeredAt ??= Date.now();
      });
      const index = received.filter((item) => item.path === path).length;
      received.push(delivery);
      const behaviour: Behaviour = behaviours.get(path) ?? (() => ({ status: 200 }));
      const { status, delayMs } = behaviour(delivery, index);
      const answer = () => {
        if (response.destroyed) return;
        delivery.answeredAt = Date.now();
        response.writeHead(status, { "Content-Type": "text/plain" }).end("ok");
      };
      if (delayMs) setTimeout(answer, delayMs).unref();
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    received,
    on: (path) => received.filter((item) => item.path === path),
    behave: (path, behaviour) => void behaviours.set(path, behaviour),
    async waitFor(path, count, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const got = received.filter((item) => item.path === path);
        if (got.length >= count) return got;
        if (Date.now() > deadline) throw new Error(`${path} received ${got.length} of ${count} deliveries in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
